#!/usr/bin/env python
"""Regenerate the stored outputs of the chapter notebooks with exactly the settings the tests use.

    make regen                      # every notebook in notebooks/
    make regen NB=notebooks/02_evaluation_methods.ipynb

Each notebook is executed in place (kernel working directory: notebooks/), given its slide metadata
(scripts/slides.py: RISE and `make slides`), then stripped of volatile metadata with the same nbstripout
flags as the git filter, and its execution time is printed.
"""
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).parent))
from nbsettings import KEEP_FLAGS, apply_env  # noqa: E402
from slides import add_slide_metadata  # noqa: E402


def main(paths):
    apply_env()
    root = Path(__file__).resolve().parent.parent
    nbs = [Path(p) for p in paths] or sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    failed = False
    for path in nbs:
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent)}})
        t0 = time.perf_counter()
        try:
            client.execute()
        except Exception as exc:  # keep going: show every broken notebook
            failed = True
            print(f"FAILED {path.name}: {type(exc).__name__}: {str(exc)[-2000:]}")
        dt = time.perf_counter() - t0
        nbformat.write(add_slide_metadata(nb), path)
        subprocess.run([sys.executable, "-m", "nbstripout", *KEEP_FLAGS, str(path)], check=True)
        print(f"{path.name}: {dt:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
