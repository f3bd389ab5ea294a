"""Loaded by pytest before its other plugins (``-p scripts.pytest_early`` in pyproject.toml's addopts): importing
``scripts`` treats rfc3987_syntax as not installed (scripts/__init__.py says why), so nbval's import of nbformat
no longer spends 2.4 s building grammars in every pytest process (the controller and each xdist worker)."""
