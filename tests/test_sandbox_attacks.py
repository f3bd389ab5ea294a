"""Attacks on the grading sandbox (issue 28), each a hostile set 01 submission graded by the real `make autograde`.

Two runs start at the same time (module fixture, once): run A grades every attack below and the instructor's
solution with --memory-mb 1024; run B, concurrently and one notebook at a time, grades a non-notebook (it marks
the end of the grader's start-up), a submission that SIGSTOPs its runner and one that reports its uid. Every attack's answers are otherwise wrong, so an attack that works shows as points;
what an attack saw inside goes into q4_reason, which feedback.csv carries (text_answers). The sandbox's design and
promises: docs/design/sandbox.md.
"""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
from scripts import release_exercises as rel  # noqa: E402
from scripts import sandbox  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "grading"
WRONG = json.loads((FIXTURES / "wrong_answers.json").read_text(encoding="utf-8"))["01"]
SETUP = json.loads((FIXTURES / "robustness.json").read_text(encoding="utf-8"))["cells"]["SETUP"]
SET01 = ROOT / "exercises" / "source" / "01_error_and_fitting.md"
MEMORY_MB = 1024
TOTAL_B = 90  # the SIGSTOPped notebook costs this much wall time: long enough for uid_b on a loaded machine

# Attacks that report what they found in q4_reason (the other answers stay wrong).
REPORTS = {
    "fill_tmpfs": """
import os
res = []
for d in ("/var/tmp", "/dev/shm", "/tmp"):
    n, why = 0, "done"
    try:
        for i in range(40):
            with open(f"{d}/fill{i}", "wb") as fh:
                fh.write(b"x" * (63 * 2**20))
            n += 63
    except OSError as exc:
        why = f"{type(exc).__name__} {exc.errno}"
    for i in range(40):
        try:
            os.remove(f"{d}/fill{i}")
        except OSError:
            pass
    res.append(f"{d}={n} MB ({why})")
q4_reason = "fill: " + " ; ".join(res) + " end"
""",
    "memory_children": """
import os, time
kids = []
for i in range(4):
    pid = os.fork()
    if pid == 0:
        with open("/proc/self/oom_score_adj", "w") as fh:     # the OOM killer takes a child, not the reporter
            fh.write("1000")
        held = []
        try:
            for _ in range(60):
                held.append(b"\\1" * (10 * 2**20))
                time.sleep(0.01)
        except MemoryError:
            pass
        time.sleep(20)
        os._exit(0)
    kids.append(pid)
peak = 0
for _ in range(60):
    time.sleep(0.2)
    tot = 0
    for k in kids:
        try:
            with open(f"/proc/{k}/smaps_rollup") as fh:    # own pages (not those shared with the kernel)
                tot += sum(int(ln.split()[1]) for ln in fh if ln.startswith(("Private_Clean:", "Private_Dirty:")))
        except OSError:
            pass
    peak = max(peak, tot)
for k in kids:
    try:
        os.kill(k, 9)
    except OSError:
        pass
q4_reason = f"children private resident peak {peak // 1024} MB end"
""",
    "pidfd_forgery": """
import ctypes, json, os, signal
libc = ctypes.CDLL(None, use_errno=True)
res = []
ppid = os.getppid()
forged = {"values": {"q1": 0.0, "q3": 15, "q4": "B", "q4_reason": "forged", "error_rate": {"__callable__": True}},
          "calls": {}, "notes": [], "unreached": None}
try:
    pfd = os.pidfd_open(ppid)
    fd = libc.syscall(438, pfd, 1, 0)
    res.append(f"pidfd_getfd {fd} errno {ctypes.get_errno()}")
    if fd >= 0:
        os.write(fd, ("\\n" + json.dumps(forged) + "\\n").encode())
        res.append("FORGED")
except Exception as exc:
    res.append(f"pidfd {type(exc).__name__}")
for p in (f"/proc/{ppid}/fd/1", f"/proc/{ppid}/fd/0", f"/proc/{ppid}/mem", f"/proc/{ppid}/environ"):
    try:
        open(p, "rb")
        res.append(f"{p} OPENED")
    except OSError as exc:
        res.append(f"{p} {type(exc).__name__}")
r = libc.ptrace(16, ppid, 0, 0)
res.append(f"ptrace {r} errno {ctypes.get_errno()}")
q4_reason = "forgery: " + " ; ".join(res) + " end"
q4 = f"uid {os.getuid()} end"
""",
    "looks_around": """
import os
pids, leaks, denied = [], [], 0
for p in sorted(os.listdir("/proc")):
    if p.isdigit():
        pids.append(int(p))
        for f in ("cmdline", "environ", "status"):
            try:
                text = open(f"/proc/{p}/{f}", "rb").read().decode("latin1")
            except OSError:
                denied += 1
                continue
            leaks += [f"{p}/{f}:{h}" for h in {PATHS} if h in text]
            leaks += [f"{p}/{f}:functions" for h in ["functions", "blocked"] if h in text]
job = []
for path in ("/run/grader/job/job.json", "/run/grader/job", "/proc/%d/fd/0" % os.getppid()):
    try:
        job.append(f"{path}:{open(path).read()[:100]}")
    except OSError as exc:
        job.append(f"{path}:{type(exc).__name__}")
q4_reason = f"proc: pids {pids} leaks {leaks} denied {denied} job {job} end"
found, tops = [], sorted(os.listdir("/"))
for top in tops:
    if top in ("proc", "usr", "dev"):
        continue
    for dirpath, dirs, files in os.walk("/" + top):
        dirs[:] = [d for d in dirs if d not in ("site-packages", "python3.11", "__pycache__")]
        if "01_error_and_fitting.md" in files or "seed" in files:
            found.append(dirpath)
q4 = f"clone: root {tops} found {found} clone_exists {os.path.exists('{CLONE}')} end"
if found:                                     # a clone with solutions: run them (the issue's 8/8 attack)
    import re
    src = open(os.path.join(found[0], "01_error_and_fitting.md")).read()
    for block in re.findall(r"# BEGIN SOLUTION.*?\\n(.*?)# END SOLUTION", src, re.S):
        exec(block)
""",
}

# Implement-problem delegation: q2 (error_rate) answered by the library, each a different way round the block.
DELEGATION = {
    "delegate_alias": """
import evallib as el
_f = el.metrics.error_rate
def error_rate(y_true, y_pred):
    return _f(y_true, y_pred)
""",
    "delegate_from_import": """
from evallib.metrics import error_rate as _r
def error_rate(y_true, y_pred):
    return _r(y_true, y_pred)
""",
    "delegate_reload": """
import importlib, evallib.metrics as _m
_m2 = importlib.reload(_m)
def error_rate(y_true, y_pred):
    return importlib.reload(_m2).error_rate(y_true, y_pred)
""",
    "delegate_copy": """
import types, evallib.metrics as _m
_c = types.FunctionType(_m.error_rate.__code__, _m.error_rate.__globals__)
def error_rate(y_true, y_pred):
    return _c(y_true, y_pred)
""",
    "delegate_code_at_call": """
import types, evallib.metrics as _m
_code, _g = _m.error_rate.__code__, _m.error_rate.__globals__
def error_rate(y_true, y_pred):
    return types.FunctionType(_code, _g)(y_true, y_pred)
""",
    "delegate_subprocess": """
import pickle, subprocess, sys
def error_rate(y_true, y_pred):
    p = subprocess.run([sys.executable, "-c", "import sys, pickle, evallib.metrics as m; a, b = pickle.load(sys.stdin.buffer); "
                        "pickle.dump(m.error_rate(a, b), sys.stdout.buffer)"],
                       input=pickle.dumps((y_true, y_pred)), capture_output=True)
    if p.returncode:
        raise ValueError("bad input")
    return pickle.loads(p.stdout)
""",
    "delegate_helper_process": """
import pickle, subprocess, sys
_helper = subprocess.Popen([sys.executable, "-c", '''
import sys, pickle, struct, evallib.metrics as m
while True:
    n = struct.unpack("I", sys.stdin.buffer.read(4))[0]
    a, b = pickle.loads(sys.stdin.buffer.read(n))
    try:
        out = ("ok", m.error_rate(a, b))
    except Exception as exc:
        out = ("err", str(exc))
    d = pickle.dumps(out)
    sys.stdout.buffer.write(struct.pack("I", len(d)) + d)
    sys.stdout.buffer.flush()
'''], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
import struct
def error_rate(y_true, y_pred):
    d = pickle.dumps((y_true, y_pred))
    _helper.stdin.write(struct.pack("I", len(d)) + d)
    _helper.stdin.flush()
    n = struct.unpack("I", _helper.stdout.read(4))[0]
    kind, value = pickle.loads(_helper.stdout.read(n))
    if kind == "err":
        raise ValueError(value)
    return value
""",
    "delegate_unnamed": """
import json, evallib as el
_name = "error" + "_rate"  # no cell names the function: it is never called, and no calls file is read for it
globals()[_name] = getattr(el.metrics, _name)
for i in range(4):
    with open(f".answers/calls-{i}.jsonl", "w") as fh:
        fh.writelines(json.dumps({"key": str(k), "result": 0.0}) + "\\n" for k in range(64))
""",
}

RUN_B = {
    "sigstop": """
import os, signal, time
os.kill(os.getppid(), signal.SIGSTOP)
time.sleep(3600)
""",
    "uid_b": """
import os
q4 = f"uid {os.getuid()} end"
""",
}


def _write(path, cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["exercise_set"] = "01_error_and_fitting"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


def _start(subs, out, *args):
    return subprocess.Popen(
        [
            "make",
            "-s",
            "-C",
            str(ROOT),
            "autograde",
            f"SUBMISSIONS={subs}",
            "AUTOGRADE_ARGS=" + " ".join(["--out", str(out), *map(str, args)]),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _tables(out):
    with open(out / "feedback.csv", encoding="utf-8") as fh:
        feedback = list(csv.DictReader(fh))
    with open(out / "grades.csv", encoding="utf-8") as fh:
        table = list(csv.DictReader(fh))
    return feedback, table


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    problem = sandbox.sandbox_problem()
    if problem:
        pytest.skip(f"no sandbox: {problem}")
    base = tmp_path_factory.mktemp("attacks")
    # Another clone of the course elsewhere on the machine, world-readable, with the instructor's sources.
    clone = Path("/tmp") / f"course-clone-{os.getpid()}"
    shutil.copytree(ROOT / "exercises" / "source", clone / "exercises" / "source")
    (clone / "instructor").mkdir()
    (clone / "instructor" / "seed").write_text("clone seed 5e1f\n", encoding="utf-8")
    for d in [clone, *clone.rglob("*")]:
        os.chmod(d, 0o755 if d.is_dir() else 0o644)
    # q2 (a function) is left out: a notebook that names no blocked function is graded without resolving the
    # delegation block's targets (scripts/sandbox_run.py), which spares each sandbox importing scikit-learn.
    wrong = [WRONG[q] for q in ("q1", "q3", "q4")]
    subs_a, out_a, subs_b, out_b = base / "a", base / "a-out", base / "b", base / "b-out"
    for name, code in REPORTS.items():
        code = code.replace("{CLONE}", str(clone)).replace(
            "{PATHS}", repr([str(subs_a), str(out_a), str(subs_b), str(out_b), str(clone)])
        )
        _write(subs_a / name / "01_error_and_fitting.ipynb", [SETUP, *wrong, code])
    for name, code in DELEGATION.items():
        _write(subs_a / name / "01_error_and_fitting.ipynb", [SETUP, WRONG["q1"], code, WRONG["q3"], WRONG["q4"]])
    for name, code in RUN_B.items():
        _write(subs_b / name / "01_error_and_fitting.ipynb", [SETUP, *wrong, code])
    (subs_a / "solution").mkdir(parents=True)
    nbformat.write(rel.solution_notebook(SET01), subs_a / "solution" / "01_error_and_fitting.ipynb")
    (subs_b / "a_quick").mkdir(parents=True)
    (subs_b / "a_quick" / "01_error_and_fitting.ipynb").write_text("not a notebook", encoding="utf-8")
    try:
        pa = _start(subs_a, out_a, "--cell-timeout", 60, "--total-timeout", 300, "--jobs", 2, "--memory-mb", MEMORY_MB)
        pb = _start(subs_b, out_b, "--cell-timeout", 30, "--total-timeout", TOTAL_B, "--jobs", 1)
        b_lines, b_rows_early = [], None  # each graded notebook, when it ends
        for line in pb.stdout:
            b_lines.append((time.monotonic(), line))
            if "a_quick" in line:  # the stopped runner is graded next: its row cannot be there, a_quick's must
                b_rows_early = (out_b / "grades.csv").read_text(encoding="utf-8")
        b_err = pb.stderr.read()
        pb.wait(timeout=600)
        b_out = ("".join(line for _, line in b_lines), b_err)
        a_out = pa.communicate(timeout=3600)
    finally:
        shutil.rmtree(clone, ignore_errors=True)
    assert pa.returncode == 0, a_out[0][-3000:] + a_out[1][-3000:]
    assert pb.returncode == 0, b_out[0][-3000:] + b_out[1][-3000:]
    fa, ta = _tables(out_a)
    fb, tb = _tables(out_b)
    return {
        "feedback": fa + fb,
        "table": ta + tb,
        "b_lines": b_lines,
        "b_rows_early": b_rows_early,
        "a_err": a_out[1],
        "clone": str(clone),
        "paths": [str(subs_a), str(out_a), str(subs_b), str(out_b), str(clone)],
    }


def _rows(runs, who):
    return {r["problem"]: r for r in runs["feedback"] if r["student"] == who}


def _total(runs, who):
    row = next(r for r in runs["table"] if r["student"] == who)
    return float(row["total"]), float(row["max_points"]), row["notes"]


def _said(runs, who, answer="q4_reason"):
    """What an attack reported in ``answer`` (q4_reason, or q4: some notebooks carry two reports)."""
    q4, reason = _rows(runs, who)["q4"]["text_answers"].split(" | q4_reason: ")
    return reason if answer == "q4_reason" else q4.removeprefix("q4: ")


def test_solution_full_marks_among_the_attacks(runs):
    rows = [r for r in runs["table"] if r["student"] == "solution"]
    assert len(rows) == 1
    for row in rows:
        assert float(row["total"]) == float(row["max_points"]) > 0, row


@pytest.mark.parametrize("attack", [*REPORTS, *DELEGATION, *RUN_B, "a_quick"])
def test_attack_scores_zero(runs, attack):
    total, max_points, notes = _total(runs, attack)
    assert total == 0 and max_points > 0, (attack, notes, _rows(runs, attack))


def test_tmpfs_sizes_hold(runs):
    said = _said(runs, "fill_tmpfs")
    got = {d: int(n) for d, n in re.findall(r"(/[\w/]+)=(\d+) MB", said)}
    assert got["/var/tmp"] <= sandbox.VARTMP_MB and got["/dev/shm"] <= sandbox.SHM_MB, said
    assert got["/tmp"] <= sandbox.TMP_MB, said
    assert said.count("OSError 28") == 3, said  # each ended full (ENOSPC), none at 40 x 63 MB


def test_the_grader_says_which_memory_bound_holds(runs):
    """The console says whether a sandbox's memory is bounded as a whole (a cgroup) or only per process."""
    if sandbox.cgroup_mode():
        assert f"memory {MEMORY_MB} MB per sandbox as a whole (cgroup {sandbox.cgroup_mode()}" in runs["a_err"]
    else:
        assert "NO memory bound on a sandbox as a whole" in runs["a_err"]
    assert f"/var/tmp {sandbox.VARTMP_MB} MB" in runs["a_err"] and "wall time 300 s per notebook" in runs["a_err"]


def test_rows_are_written_as_each_submission_ends(runs):
    """While run B's second notebook (the SIGSTOPped runner) is still being graded, grades.csv already holds the
    first one's row: an OOM kill or a crash of the grader loses nothing graded."""
    early = runs["b_rows_early"]
    assert early is not None and "\na_quick," in early and "sigstop" not in early, early


def test_memory_bound_holds_for_all_processes(runs):
    said = _said(runs, "memory_children")
    if sandbox.cgroup_mode() is None:
        pytest.skip(f"no cgroup here ({sandbox.cgroup_problem()}): per-process RLIMIT_AS only")
    peak = int(re.search(r"peak (\d+) MB", said).group(1))
    assert peak <= MEMORY_MB, said  # 4 children x 600 MB tried; the sandbox as a whole holds 1 GB
    print(f"four children's private resident peak: {peak} MB under --memory-mb {MEMORY_MB} ({sandbox.cgroup_mode()})")


def test_runner_cannot_be_reached_from_the_kernel(runs):
    said = _said(runs, "pidfd_forgery")
    assert "FORGED" not in said and "OPENED" not in said, said
    assert re.search(r"pidfd_getfd -1 errno 1\b", said), said  # EPERM: the runner is not dumpable
    assert re.search(r"ptrace -1 errno 1\b", said), said


def test_no_other_clone_and_nothing_of_the_host(runs):
    said = _said(runs, "looks_around", "q4")
    assert "found [] " in said and "clone_exists False" in said, said
    tops = set(re.search(r"root \[(.*?)\]", said).group(1).replace("'", "").split(", "))
    assert tops <= {
        "bin",
        "sbin",
        "lib",
        "lib32",
        "lib64",
        "libx32",
        "usr",
        "etc",
        "dev",
        "proc",
        "tmp",
        "var",
        "run",
        "root",
        "work",
        ROOT.parts[1],
        Path(sys.base_prefix).parts[1],
    }, tops
    assert "home" not in tops and "srv" not in tops and "opt" not in tops


def test_proc_and_job_show_nothing_hidden(runs):
    said = _said(runs, "looks_around")
    assert "leaks [] " in said, said
    assert "/run/grader/job/job.json:FileNotFoundError" in said and "/run/grader/job:FileNotFoundError" in said
    assert re.search(r"/proc/\d+/fd/0:PermissionError", said), said  # the runner's stdin
    pids = [int(p) for p in re.search(r"pids \[(.*?)\]", said).group(1).split(", ")]
    assert 1 in pids and len(pids) <= 6, pids  # its own PID namespace only


def test_sigstopped_runner_is_killed_on_time(runs):
    """Run B grades one notebook at a time: a_quick (not a notebook: no sandbox) marks the end of the grader's
    start-up, then the notebook that stops its runner must end within the total time limit."""
    rows = _rows(runs, "sigstop")
    assert {r["status"] for r in rows.values()} == {"not graded"}, rows
    lines = runs["b_lines"]
    quick = next(t for t, line in lines if "a_quick" in line)
    stopped = next(t for t, line in lines if "sigstop" in line)
    assert stopped - quick <= TOTAL_B + 20, (stopped - quick, lines)


def test_concurrent_runs_use_separate_uids(runs):
    a = int(re.search(r"uid (\d+)", _said(runs, "pidfd_forgery", "q4")).group(1))
    b = int(re.search(r"uid (\d+)", _said(runs, "uid_b", "q4")).group(1))
    assert a >= sandbox.UID_BASE and b >= sandbox.UID_BASE
    assert (a - sandbox.UID_BASE) // sandbox.UID_BLOCK != (b - sandbox.UID_BASE) // sandbox.UID_BLOCK, (a, b)


@pytest.mark.parametrize("attack", list(DELEGATION))
def test_delegation_is_refused(runs, attack):
    q2 = _rows(runs, attack)["q2"]
    assert q2["status"] != "correct" and float(q2["points"]) == 0, q2
