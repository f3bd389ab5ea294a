"""jsonschema imported without its slowest optional import (see the function): by Altair (evallib.widgets) and
by jupytext, through nbformat (evallib.grading reads an exercise set's text source). Importing this module does it."""


def _import_jsonschema_without_iri():
    """jsonschema imports rfc3987_syntax when it is installed (JupyterLab brings it): that builds ~35 Lark grammars,
    2.4 s in every kernel's first explorer or exercise set, for the "iri" format that no Vega-Lite spec and no
    notebook schema uses (python-jsonschema/jsonschema#1428). jsonschema is imported with it hidden, then it is put
    back: only jsonschema's optional "iri" format check is missing in this process; importing rfc3987_syntax
    still works. Does nothing once either is loaded."""
    import sys

    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        return
    sys.modules["rfc3987_syntax"] = None
    try:
        import jsonschema  # noqa: F401
    finally:
        del sys.modules["rfc3987_syntax"]


_import_jsonschema_without_iri()
