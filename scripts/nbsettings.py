"""One place for the settings under which notebooks run, both when outputs are regenerated and when
nbval checks them (the Makefile exports the same values)."""
import os

ENV = {
    "PYTHONHASHSEED": "0",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "IPYKERNEL_CELL_NAME": "<IPY-INPUT>",
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",
}

# nbstripout flags per folder; scripts/install_git_filters.sh installs the same as git filters.
EXTRA_KEYS = (
    "metadata.language_info.version metadata.widgets cell.metadata.execution "
    "cell.metadata.collapsed cell.metadata.scrolled"
)
KEEP_FLAGS = ["--keep-output", "--keep-count", "--extra-keys", EXTRA_KEYS]  # notebooks/
STRIP_FLAGS = ["--extra-keys", EXTRA_KEYS]  # exercises/


def apply_env():
    os.environ.update(ENV)
    os.environ.pop("MPLBACKEND", None)  # notebooks use the inline backend
