"""Packaging: one list of dependencies, mirrored in environment.yml; the README's commands exist."""

import re
import sys
from pathlib import Path

import yaml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _name(req: str) -> str:
    return re.split(r"[<>=!;\[ ~]", req.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_environment_yml_names_the_same_packages_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    for extra in ("test", "classroom"):
        wanted |= {_name(r) for r in project["optional-dependencies"][extra] if "python_version" not in r}
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = {_name(d) for d in env["dependencies"] if isinstance(d, str)} - {"python", "pip"}
    assert conda == wanted, f"only in pyproject: {wanted - conda}; only in environment.yml: {conda - wanted}"


def test_lower_bounds_only():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for req in project["dependencies"]:
        assert "==" not in req and ">=" in req, f"{req}: use a lower bound, not a pin"


def test_readme_commands_are_make_targets():
    readme = (ROOT / "README.md").read_text()
    makefile = (ROOT / "Makefile").read_text()
    for target in re.findall(r"^make (\w+)", readme, flags=re.M):
        assert re.search(rf"^{target}:", makefile, flags=re.M), f"README mentions make {target}, Makefile lacks it"
    assert "make lab" in readme and "make test" in readme
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_gitattributes_route_folders_to_the_right_filters():
    attrs = (ROOT / ".gitattributes").read_text()
    assert "notebooks/*.ipynb filter=nbstripout-keep" in attrs
    assert "exercises/**/*.ipynb filter=nbstripout" in attrs
