"""Issue 29: scripts/pip_install.sh honours the package index (mirror) the user configured for pip.

uv does not read pip's configuration, so a student who set a PyPI mirror for pip (PIP_INDEX_URL, pip.conf) would
still download from the default index. The attack: a package that exists only in a local file index (a PEP 503
"simple" directory with one wheel, built here). Installing it succeeds only when the installer passes that index
through -- with uv (PIP_INDEX_URL, a pip.conf) and with plain pip (UV_DEFAULT_INDEX given for uv).
"""

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "pip_install.sh"
NAME = "evallib_mirror_probe"


def _wheel(dist: Path) -> Path:
    whl = dist / f"{NAME}-0.1-py3-none-any.whl"
    files = {
        f"{NAME}.py": "WHERE = 'the local index'\n",
        f"{NAME}-0.1.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {NAME.replace('_', '-')}\nVersion: 0.1\n",
        f"{NAME}-0.1.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    record.append(f"{NAME}-0.1.dist-info/RECORD,,")
    files[f"{NAME}-0.1.dist-info/RECORD"] = "\n".join(record) + "\n"
    with zipfile.ZipFile(whl, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return whl


@pytest.fixture(scope="module")
def file_index(tmp_path_factory):
    """A PEP 503 index on disk holding only our probe package: file:///.../simple"""
    root = tmp_path_factory.mktemp("index")
    pkg = root / "simple" / NAME.replace("_", "-")
    pkg.mkdir(parents=True)
    whl = _wheel(pkg)
    (pkg / "index.html").write_text(f'<html><body><a href="{whl.name}">{whl.name}</a></body></html>\n')
    (root / "simple" / "index.html").write_text(f'<html><body><a href="{pkg.name}/">{pkg.name}</a></body></html>\n')
    return (root / "simple").as_uri()


def _venv(tmp_path, *, pip=True):
    env_dir = tmp_path / "venv"
    if not pip:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    elif Path(UV).exists():  # a venv with pip in it, seeded by uv (ensurepip takes several seconds)
        subprocess.run([UV, "venv", "--quiet", "--seed", "--python", sys.executable, str(env_dir)], check=True)
    else:
        subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    return env_dir / "bin"


def _install(bin_dir, env):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_"))}
    base["PIP_CONFIG_FILE"] = os.devnull  # none of the machine's own settings
    base.update(env)
    return subprocess.run(
        ["bash", str(SCRIPT), str(bin_dir), NAME.replace("_", "-")],
        env=base,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _installed(bin_dir):
    out = subprocess.run(
        [str(bin_dir / "python"), "-c", f"import {NAME}; print({NAME}.WHERE)"], capture_output=True, text=True
    )
    return out.stdout.strip() == "the local index"


UV = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
needs_uv = pytest.mark.skipif(not Path(UV).exists(), reason="uv is not installed")


@needs_uv
def test_uv_gets_pip_index_url_from_the_environment(tmp_path, file_index):
    bin_dir = _venv(tmp_path, pip=False)  # uv installs; PIP_INDEX_URL needs no pip to be read
    r = _install(bin_dir, {"PIP_INDEX_URL": file_index, "PATH": f"{Path(UV).parent}:{os.environ['PATH']}"})
    assert r.returncode == 0, r.stderr
    assert _installed(bin_dir) and "pip's configured index" in r.stderr


@needs_uv
def test_uv_gets_the_index_url_of_a_pip_conf(tmp_path, file_index):
    conf = tmp_path / "pip.conf"
    conf.write_text(f"[global]\nindex-url = {file_index}\n")
    bin_dir = _venv(tmp_path)
    r = _install(bin_dir, {"PATH": f"{Path(UV).parent}:{os.environ['PATH']}"})
    assert r.returncode != 0 and not _installed(bin_dir)  # without the mirror: not found on the default index
    r = _install(bin_dir, {"PIP_CONFIG_FILE": str(conf), "PATH": f"{Path(UV).parent}:{os.environ['PATH']}"})
    assert r.returncode == 0, r.stderr
    assert _installed(bin_dir)


def test_plain_pip_gets_uv_default_index(tmp_path, file_index):
    bin_dir = _venv(tmp_path)
    r = _install(bin_dir, {"EVALLIB_INSTALLER": "pip", "UV_DEFAULT_INDEX": file_index})
    assert r.returncode == 0, r.stderr
    assert _installed(bin_dir)
