"""Time `scripts/autograde.py` grading 30 submissions with --jobs 2 (issue 13: at most 1.5x the old grader).

    .venv/bin/python -m bench.bench_autograde                       # 30 instructor solutions, set i mod 11
    .venv/bin/python -m bench.bench_autograde --submissions DIR     # grade an existing folder instead
    .venv/bin/python -m bench.bench_autograde --checkout OLD_TREE   # time another checkout's autograde.py

Prints the wall time and the load average before and after (other work on the machine slows it down: compare
runs made back to back).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent


def make_submissions(folder, n=30):
    from scripts import release_exercises as rel

    sources = rel.source_files()[:11]
    for i in range(n):
        src = sources[i % len(sources)]
        (folder / f"s{i:02d}").mkdir(parents=True)
        nbformat.write(rel.solution_notebook(src), folder / f"s{i:02d}" / f"{src.stem}.ipynb")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--submissions")
    ap.add_argument("--checkout", default=str(ROOT))
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subs = Path(args.submissions) if args.submissions else Path(tmp) / "subs"
        if not args.submissions:
            make_submissions(subs)
        env = {
            **os.environ,
            "PYTHONPATH": args.checkout,
            "PYTHONHASHSEED": "0",
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
        load0 = os.getloadavg()
        start = time.perf_counter()
        proc = subprocess.run(
            [
                sys.executable,
                str(Path(args.checkout) / "scripts" / "autograde.py"),
                str(subs),
                "--out",
                str(Path(tmp) / "out"),
                "--jobs",
                str(args.jobs),
            ],
            capture_output=True,
            text=True,
            cwd=args.checkout,
            env=env,
        )
        elapsed = time.perf_counter() - start
        load1 = os.getloadavg()
        totals = [ln for ln in proc.stdout.splitlines() if " / " in ln]
        full = sum(1 for ln in totals if ln.split()[-3] == ln.split()[-1])
        print(
            f"{len(totals)} submissions graded ({full} full marks) in {elapsed:.1f} s with --jobs {args.jobs}; "
            f"load average {load0[0]:.1f} before, {load1[0]:.1f} after; rc {proc.returncode}"
        )


if __name__ == "__main__":
    main()
