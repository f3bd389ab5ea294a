#!/usr/bin/env python
"""Check notebook hygiene as CI does: notebooks/ keep outputs and counts with volatile metadata
stripped; exercises/ are stored fully stripped (nbstripout --verify with each folder's flags)."""
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from nbsettings import KEEP_FLAGS, STRIP_FLAGS  # noqa: E402

root = Path(__file__).resolve().parent.parent
status = 0
for folder, flags in (("notebooks", KEEP_FLAGS), ("exercises", STRIP_FLAGS)):
    files = [str(p) for p in sorted((root / folder).rglob("*.ipynb")) if ".ipynb_checkpoints" not in p.parts]
    if not files:
        continue
    r = subprocess.run([sys.executable, "-m", "nbstripout", "--verify", *flags, *files],
                       capture_output=True, text=True)
    if r.returncode:
        status = 1
        print(f"nbstripout --verify failed for {folder}/ (run `make regen` or commit through the git filter):")
        print(r.stdout + r.stderr)
    else:
        print(f"{folder}/: {len(files)} notebook(s) clean")
sys.exit(status)
