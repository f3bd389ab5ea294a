"""One place for the settings under which notebooks run, both when outputs are regenerated and when
nbval checks them (the Makefile exports the same values)."""

import os
import sys
from pathlib import Path

ENV = {
    "PYTHONHASHSEED": "0",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "IPYKERNEL_CELL_NAME": "<IPY-INPUT>",
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",
}

# Arguments for every kernel the course's scripts start (regen, slides, translate): ipykernel >= 7 warns "Kernel is
# running over TCP without encryption" once per kernel; our kernels listen on 127.0.0.1 for one local client, so the
# warning is noise (issue 25: 28 lines per `make slides`). Errors still show.
KERNEL_ARGS = ["--IPKernelApp.log_level=ERROR"]

# nbstripout flags per folder; scripts/install_git_filters.sh installs the same as git filters.
EXTRA_KEYS = (
    "metadata.language_info.version metadata.widgets cell.metadata.execution "
    "cell.metadata.collapsed cell.metadata.scrolled"
)
KEEP_FLAGS = ["--keep-output", "--keep-count", "--extra-keys", EXTRA_KEYS]  # notebooks/
STRIP_FLAGS = ["--extra-keys", EXTRA_KEYS]  # exercises/

# nbstripout's own command line, started without rfc3987_syntax (scripts/__init__.py says why: 2.4 s a process).
NBSTRIPOUT = [
    sys.executable,
    "-c",
    "import sys; sys.modules['rfc3987_syntax'] = None; sys.argv[0] = 'nbstripout'; "
    "from nbstripout import main; sys.exit(main())",
]


def nbstripout(*args, **kwargs):
    """``nbstripout *args`` (flags and files) as a subprocess; ``kwargs`` go to :func:`subprocess.run`."""
    import subprocess

    return subprocess.run([*NBSTRIPOUT, *map(str, args)], **kwargs)


def apply_env():
    os.environ.update(ENV)
    os.environ.pop("MPLBACKEND", None)  # notebooks use the inline backend


# --- where the chapters are ---------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def chapter_sources(folder=NOTEBOOKS):
    """The chapters' MyST text sources, ``notebooks/NN_topic.md`` (each paired with ``NN_topic.ipynb``)."""
    return sorted(Path(folder).glob("[0-9][0-9]_*.md"))


def stored_notebooks(folder=NOTEBOOKS):
    """Every stored notebook under ``notebooks/`` (chapters and, later, other editions such as ``zh/``)."""
    return sorted(p for p in Path(folder).rglob("[0-9][0-9]_*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def text_source(ipynb):
    """The text source an ``.ipynb`` is paired with, or None (an edition built from a catalog, e.g. ``zh/``)."""
    md = Path(ipynb).with_suffix(".md")
    return md if md.parent.resolve() == NOTEBOOKS.resolve() and md.exists() else None


def committed_bytes(path):
    """The bytes git holds for ``path`` (the index, i.e. after the git filters), else the file's own bytes (not
    tracked, or no git). Checks of stored files read this, so a learner's saved notebook never fails them."""
    import subprocess

    try:
        rel = Path(path).resolve().relative_to(ROOT.resolve()).as_posix()
    except ValueError:
        return Path(path).read_bytes()
    r = subprocess.run(["git", "-C", str(ROOT), "show", f":{rel}"], capture_output=True)
    return r.stdout if r.returncode == 0 else Path(path).read_bytes()
