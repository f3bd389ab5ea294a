"""One lint/format configuration and hooks that agree with the git filters; no sys.path edits in files that
import the course's scripts (scripts/ is a package)."""

import re
import sys
from pathlib import Path

import yaml

from scripts import nbsettings

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_is_configured_once_in_pyproject():
    ruff = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]
    assert ruff["line-length"] == 120 and {"E", "F", "W", "I", "UP", "B"} <= set(ruff["lint"]["select"])
    assert not (ROOT / "ruff.toml").exists() and not (ROOT / ".ruff.toml").exists()


def test_pre_commit_hooks_use_the_filters_flags():
    hooks = {
        h["id"]: h for r in yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())["repos"] for h in r["hooks"]
    }
    assert {"ruff-check", "ruff-format", "nbstripout-exercises", "nbstripout-chapters"} <= set(hooks)
    assert nbsettings.EXTRA_KEYS in hooks["nbstripout-exercises"]["entry"]
    assert "--keep-output --keep-count" in hooks["nbstripout-chapters"]["entry"]
    assert "--keep-output" not in hooks["nbstripout-exercises"]["entry"]


def test_scripts_is_a_package_and_tests_do_not_edit_sys_path():
    assert (ROOT / "scripts" / "__init__.py").exists()
    offenders = [
        p.relative_to(ROOT).as_posix()
        for folder in ("tests", "scripts", "bench", "classroom", "evallib")
        for p in (ROOT / folder).rglob("*.py")
        if p.name != "test_tooling.py"
        and re.search(r"sys\.path\.insert|spec_from_file_location", p.read_text(encoding="utf-8"))
    ]
    allowed = set(PENDING_SYS_PATH)
    assert set(offenders) <= allowed, f"import through the package (from scripts import x): {set(offenders) - allowed}"


# The one exception: bench_browser loads tests/browser's helper modules (a folder of pytest's, not a package)
# from their files without touching sys.path.
PENDING_SYS_PATH: list[str] = ["bench/bench_browser.py"]
