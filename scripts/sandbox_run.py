#!/usr/bin/env python
"""The untrusted half of the autograder: runs INSIDE the sandbox (scripts/autograde.py starts it in bwrap).

    python scripts/sandbox_run.py JOB.json   # prints one JSON object on stdout

Runs the submission's code cells in a new kernel (nbclient), then reads the answers out of the kernel as plain
data: each answer name's value (numbers, strings, arrays; see evallib.grading.to_data) and, for functions, their
return values (or the type of the exception they raised) on the calls listed in the job, each call time-limited.
It judges nothing: no expected value and no hidden test is ever in here. Everything it prints is untrusted.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path

# jsonschema (through nbformat) imports rfc3987_syntax, which compiles a grammar for 1.5 s at import: this runner
# starts once per submission and validates no URI, so it goes without (jsonschema treats it as not installed).
sys.modules.setdefault("rfc3987_syntax", None)
import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402
from nbclient.exceptions import DeadKernelError  # noqa: E402

TIMEOUT_NAME = "CellTimeoutError"
MAX_READ = 50_000_000

# Kernel-side code (generic: the same for every set). Results go to files in the kernel's working folder.
EXTRACT_VALUES = r'''
def __grader_values__(names, path):
    import json
    from evallib.grading import to_data
    out = {}
    g = globals()
    for n in names:
        if n not in g:
            out[n] = {"__missing__": True}
            continue
        v = g[n]
        try:
            if callable(v) and not isinstance(v, type):
                out[n] = {"__callable__": True}
            elif isinstance(v, str) and len(v) > 100_000:
                out[n] = v[:100_000]
            else:
                out[n] = to_data(v)
        except Exception as exc:
            out[n] = {"__type__": type(exc).__name__}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh)
__grader_values__(%(names)r, %(path)r)
'''

EXTRACT_CALLS = r'''
def __grader_calls__(fname, cases, timeout, path):
    import json, signal
    from evallib.grading import to_data, from_data
    f = globals().get(fname)
    if not callable(f):
        return
    class _Late(BaseException):
        pass
    def _alarm(*_):
        raise _Late()
    signal.signal(signal.SIGALRM, _alarm)
    with open(path, "a", encoding="utf-8") as fh:
        for key, args in cases:
            try:
                signal.setitimer(signal.ITIMER_REAL, timeout)
                try:
                    r = {"value": to_data(f(*from_data(args)))}
                except (_Late, KeyboardInterrupt):
                    raise
                except BaseException as exc:
                    r = {"error": type(exc).__name__, "value_error": isinstance(exc, ValueError),
                         "message": str(exc)[:300]}
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            except _Late:
                r = {"timeout": True}
            fh.write(json.dumps({"key": key, "result": r}) + "\n")
            fh.flush()
__grader_calls__(%(fname)r, %(cases)r, %(timeout)r, %(path)r)
'''


class _CappedClient(NotebookClient):
    """NotebookClient that keeps at most ``cap`` characters of output per cell (error outputs always)."""

    def __init__(self, *args, cap=200_000, **kwargs):
        super().__init__(*args, **kwargs)
        self.cap = cap
        self.output_chars = {}
        self.truncated = set()
        self.timed_out = False

    async def _async_handle_timeout(self, timeout, cell=None):
        self.timed_out = True
        return await super()._async_handle_timeout(timeout, cell)

    def output(self, outs, msg, display_id, cell_index):
        out = super().output(outs, msg, display_id, cell_index)
        if out is None or out.get("output_type") == "error":
            return out
        size = len(out.get("text", "")) + sum(len(str(v)) for v in out.get("data", {}).values())
        used = self.output_chars.get(cell_index, 0) + size
        self.output_chars[cell_index] = used
        if used > self.cap and outs and outs[-1] is out:
            outs.pop()
            self.truncated.add(cell_index)
            return None
        return out


def _error_text(cell):
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error":
            return f"{o.get('ename', 'Error')}: {str(o.get('evalue', ''))[:200]}"
    return None


def _read_json(path):
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_READ:
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _read_lines(path):
    rows = {}
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_READ:
            return rows
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                rows[str(row["key"])] = row["result"]
            except (ValueError, KeyError, TypeError):
                pass
    except OSError:
        pass
    return rows


def run(job: dict) -> dict:
    cell_timeout = float(job.get("cell_timeout", 60))
    total_timeout = float(job.get("total_timeout") or max(600, 20 * cell_timeout))
    call_timeout = float(job.get("call_timeout", 10))
    startup_timeout = float(job.get("startup_timeout", 120))
    work = Path.cwd()
    results = work / ".answers"
    results.mkdir()
    plan = [("warmup", None, "import evallib.grading\nimport matplotlib.pyplot")]
    plan += [("student", None, src) for src in job["cells"]]
    plan.append(("values", None, EXTRACT_VALUES % {"names": list(job["names"]), "path": str(results / "values.json")}))
    for i, (fname, cases) in enumerate(job.get("functions", {}).items()):
        plan.append(("calls", fname, EXTRACT_CALLS % {"fname": fname, "cases": cases, "timeout": call_timeout,
                                                      "path": str(results / f"calls-{i}.jsonl")}))
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for *_, src in plan]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    client = _CappedClient(
        nb, timeout=cell_timeout, startup_timeout=startup_timeout, kernel_name="python3", cap=int(job.get("output_cap", 200_000)),
        allow_errors=True, interrupt_on_timeout=True, record_timing=False, shutdown_kernel="immediate",
        error_on_timeout={"ename": TIMEOUT_NAME, "evalue": f"the cell ran longer than {cell_timeout} s", "traceback": []},
        resources={"metadata": {"path": str(work)}})
    notes, unreached = [], None
    student_index = 0
    start = time.monotonic()
    watch = {"deadline": time.monotonic() + startup_timeout + cell_timeout + 60, "where": ["grading", "start-up"]}

    def finish(why):
        values = _read_json(results / "values.json")
        calls = {f: _read_lines(results / f"calls-{i}.jsonl") for i, f in enumerate(job.get("functions", {}))}
        return {"values": values, "calls": calls, "notes": notes, "unreached": why}

    def watchdog():
        # nbclient enforces the cell time limit; if the client itself stops making progress (a kernel that
        # corrupted its sockets before dying, say), print what we have and end the sandbox.
        while True:
            time.sleep(1)
            if time.monotonic() > watch["deadline"]:
                _emit(finish(["kernel_stuck", {"where": watch["where"]}]))
                os._exit(0)
    threading.Thread(target=watchdog, daemon=True).start()
    try:
        with client.setup_kernel(env=dict(os.environ), stdout=open(os.devnull, "wb"), stderr=open(os.devnull, "wb")):
            for index, (kind, fname, src) in enumerate(plan):
                cell = nb.cells[index]
                if kind == "student":
                    student_index += 1
                where = {"student": ["cell_in", student_index], "values": ["grading", "answers"],
                         "calls": ["grading", fname], "warmup": ["grading", "start-up"]}[kind]
                if time.monotonic() - start > total_timeout:
                    unreached = ["total_time", {"seconds": total_timeout}]
                    break
                client.timed_out = False
                watch["where"] = where
                watch["deadline"] = time.monotonic() + (max(cell_timeout, startup_timeout) if kind == "warmup"
                                                        else cell_timeout) + 60
                try:
                    if kind == "warmup":
                        client.timeout = max(cell_timeout, startup_timeout)
                    client.execute_cell(cell, index)
                except DeadKernelError:
                    unreached = ["kernel_died", {"where": where}]
                    break
                finally:
                    client.timeout = cell_timeout
                err = _error_text(cell)
                if kind == "student" and err and not client.timed_out:
                    notes.append(["cell_raised", {"index": student_index, "error": err}])
                elif kind == "warmup" and err:
                    notes.append(["cell_raised", {"index": 0, "error": err}])
                if index in client.truncated:
                    notes.append(["output_dropped", {"index": student_index, "cap": client.cap}])
                if client.timed_out or (err and err.startswith(TIMEOUT_NAME)):
                    probe = nbformat.v4.new_code_cell("pass")
                    client.timeout, saved = min(10, cell_timeout), client.timeout
                    client.interrupt_on_timeout = False
                    client.timed_out = False
                    try:
                        client.execute_cell(probe, index)
                        alive = not client.timed_out
                    except Exception:
                        alive = False
                    finally:
                        client.timeout, client.interrupt_on_timeout = saved, True
                    if not alive:
                        unreached = ["kernel_stuck", {"where": where}]
                        break
                    if kind == "student":
                        notes.append(["cell_time_limit", {"index": student_index, "seconds": cell_timeout}])
    except Exception as exc:  # kernel failed to start, etc.
        unreached = ["sandbox_failed", {"detail": f"{type(exc).__name__}: {str(exc)[:300]}"}]
    watch["deadline"] = time.monotonic() + 60           # shutting the kernel down
    return finish(unreached)


_EMITTED = threading.Lock()


def _emit(out):
    if _EMITTED.acquire(blocking=False):
        sys.stdout.write("\n" + json.dumps(out) + "\n")
        sys.stdout.flush()


def main(argv):
    job = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    src = Path(os.environ.get("AUTOGRADE_MPLCACHE", "/nonexistent"))
    if src.is_dir() and os.environ.get("MPLCONFIGDIR"):
        shutil.copytree(src, os.environ["MPLCONFIGDIR"], dirs_exist_ok=True)
    _emit(run(job))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
