"""jsonschema imported for Altair without its slowest optional import (see the function)."""


def _import_jsonschema_without_iri():
    """Altair imports jsonschema, which imports rfc3987_syntax when installed (JupyterLab brings it): that builds ~35
    Lark grammars, 2.4 s of a learner's first explorer in every kernel, for the "iri" format no Vega-Lite spec
    uses (python-jsonschema/jsonschema#1428). jsonschema is imported with it hidden, then it is put back: only
    jsonschema's optional "iri" format check is missing in this process; importing rfc3987_syntax still works."""
    import sys

    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        return
    sys.modules["rfc3987_syntax"] = None
    try:
        import jsonschema  # noqa: F401
    finally:
        del sys.modules["rfc3987_syntax"]


_import_jsonschema_without_iri()
