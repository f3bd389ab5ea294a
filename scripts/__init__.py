"""The course's command-line tools (the Makefile runs them; tests and bench import them as ``scripts.X``)."""

import sys

# jsonschema (imported by nbformat's validator) imports rfc3987_syntax when it is installed (JupyterLab brings
# it), and that builds ~35 Lark grammars at import: 2.4 s in every process that reads a notebook, for the "iri"
# format, which no notebook schema uses (python-jsonschema/jsonschema#1428). Treated as not installed here.
sys.modules.setdefault("rfc3987_syntax", None)
