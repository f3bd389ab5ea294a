#!/usr/bin/env python
"""The untrusted half of the autograder: runs INSIDE the sandbox (scripts/autograde.py starts it in bwrap).

    python scripts/sandbox_run.py -          # reads the job (JSON) on stdin, prints one JSON object on stdout

Runs the submission's code cells in a new kernel (nbclient), then reads the answers out of the kernel as plain
data: each answer name's value (numbers, strings, arrays; see evallib.grading.to_data) and, for functions, their
return values (or the type of the exception they raised) on the calls listed in the job, each call time-limited.
It judges nothing: no expected value and no hidden test is ever in here. Everything it prints is untrusted.
"""

from __future__ import annotations

import ctypes
import ctypes.util

# First of all: this process (it holds the job, hidden calls included, and its stdout is the grader's) is made
# non-dumpable, so the student's kernel (same uid) cannot ptrace it, pidfd_getfd its descriptors, or open its
# /proc/<pid>/{fd,mem,environ}. Children (the kernel) get back the normal state at their execve.
_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
PR_SET_DUMPABLE, PR_GET_DUMPABLE = 4, 3
if _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 or _libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0:
    raise SystemExit("sandbox_run: cannot make the runner non-dumpable")

import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

# jsonschema (through nbformat) imports rfc3987_syntax, which compiles a grammar for 1.5 s at import: this runner
# starts once per submission and validates no URI, so it goes without (jsonschema treats it as not installed).
sys.modules.setdefault("rfc3987_syntax", None)
import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402
from nbclient.exceptions import DeadKernelError  # noqa: E402

TIMEOUT_NAME = "CellTimeoutError"
MAX_READ = 50_000_000

# Kernel-side code (generic: the same for every set). Results go to files in the kernel's working folder.
EXTRACT_VALUES = r"""
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
"""

EXTRACT_CALLS = r"""
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
"""


BLOCK_MARKER = "implement it yourself: the grader blocks "

# Before the student's cells (trusted moment): where each blocked function's code lives. Decorated functions
# (scikit-learn's parameter validation) are followed to the innermost function: blocking that one blocks every
# wrapper around it, and no other function that shares the wrapper's code. A name may also be a class's method
# (``sklearn.model_selection.KFold.split``): the longest importable prefix is the module, the rest attributes.
TARGETS = r"""
def __grader_targets__(names):
    import importlib, json
    out = {}
    for dotted in names:
        parts = dotted.split(".")
        try:
            for i in range(len(parts) - 1, 0, -1):
                try:
                    f = importlib.import_module(".".join(parts[:i]))
                    break
                except ImportError:
                    continue
            else:
                raise ImportError(dotted)
            for attr in parts[i:]:
                f = getattr(f, attr)
            while hasattr(f, "__wrapped__"):
                f = f.__wrapped__
            c = f.__code__
            out[dotted] = [c.co_filename, c.co_qualname, c.co_firstlineno]
        except Exception:
            out[dotted] = None
    print("__GRADER_TARGETS__" + json.dumps(out))
__grader_targets__(%(names)r)
del __grader_targets__
"""

# After the student's cells, before their function is called on the hidden inputs: every function object whose
# code is a blocked one (the original, aliases, `from m import f as g`, copies, reloaded or re-imported modules'
# versions) gets code that raises; an audit hook (it cannot be removed) then refuses, for the rest of the
# kernel's life: making a function or code object from a blocked code, executing or compiling a blocked file
# again (reload, exec of its source under its name), changing a function's code or defaults, ctypes, starting
# processes, and walking the garbage collector. It checks itself (a probe) before any call is made.
BLOCK = r"""
def __grader_block__(targets, marker):
    import sys, types
    FT, CT = type(lambda: 0), type((lambda: 0).__code__)
    gc = sys.modules.get("gc") or __import__("gc")
    keys = {tuple(t): name for name, t in targets}
    files = frozenset(t[0] for _, t in targets)
    def raiser(name, nfree):
        ns = {}
        free = [f"_f{i}" for i in range(nfree)]
        src = "def _outer():\n" + "".join(f"    {v} = None\n" for v in free)
        src += "    def _blocked(*args, **kwargs):\n"
        if free:
            src += "        " + ", ".join(free) + "\n"
        src += f"        raise RuntimeError({(marker + name)!r})\n    return _blocked\n"
        exec(compile(src, "<grader block>", "exec"), ns)
        return ns["_outer"]().__code__
    patched = 0
    for obj in gc.get_objects():
        if type(obj) is FT:
            c = obj.__code__
            name = keys.get((c.co_filename, c.co_qualname, c.co_firstlineno))
            if name is not None:
                try:
                    obj.__code__ = raiser(name, len(c.co_freevars))
                    patched += 1
                except ValueError:
                    pass
    def hook(event, args, _keys=frozenset(keys), _files=files, _m=marker, _FT=FT, _CT=CT,
             _deny=("ctypes.", "os.fork", "os.exec", "os.posix_spawn", "os.spawn", "os.system", "os.forkpty",
                    "subprocess.", "pty.", "gc.get_", "sys.setprofile", "sys.settrace", "object.__delattr__")):
        if event == "function.__new__":
            c = args[0]
            if (c.co_filename, c.co_qualname, c.co_firstlineno) in _keys:
                raise RuntimeError(_m + "a copy of a blocked function")
        elif event == "code.__new__":
            if args[1] in _files:
                raise RuntimeError(_m + "a copy of a blocked function's code")
        elif event == "exec":
            if type(args[0]) is _CT and args[0].co_filename in _files:
                raise RuntimeError(_m + "reloading a module with a blocked function")
        elif event == "compile":
            if isinstance(args[1], (str, bytes)) and (args[1].decode() if isinstance(args[1], bytes) else args[1]) in _files:
                raise RuntimeError(_m + "compiling a module with a blocked function")
        elif event == "object.__setattr__":
            if type(args[0]) is _FT and args[1] in ("__code__", "__defaults__", "__kwdefaults__", "__globals__"):
                raise RuntimeError(_m + "changing a function while the grader calls yours")
        elif event.startswith(_deny):
            raise RuntimeError(_m + f"{event} while the grader calls your function")
    try:                     # the one way to start a process that raises no audit event of its own
        import _posixsubprocess
        real = _posixsubprocess.fork_exec
        def fork_exec(*args, **kwargs):
            raise RuntimeError(marker + "starting a process while the grader calls your function")
        for ref in gc.get_referrers(real):
            if type(ref) is dict:
                for k, v in list(ref.items()):
                    if v is real:
                        ref[k] = fork_exec
    except Exception:
        pass
    sys.addaudithook(hook)
    probe = next(iter(keys), None)
    if probe is not None:
        try:
            FT((lambda: 0).__code__.replace(co_filename=probe[0], co_name="_probe", co_qualname=probe[1],
                                            co_firstlineno=probe[2]), {})
            ok = False
        except RuntimeError as exc:
            ok = str(exc).startswith(marker)
    else:
        ok = True
    return ok, patched
__grader_block_ok__ = __grader_block__(%(targets)r, %(marker)r)
print(f"__GRADER_BLOCK__ {__grader_block_ok__[0]} {__grader_block_ok__[1]}")
del __grader_block__, __grader_block_ok__
"""


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


def _marked(cell, marker, parse):
    """The runner's own line in a cell's output (only read from cells that ran before, or are, the runner's);
    None unless there is exactly one: a second (a submission's thread printing a forged line into the runner's
    cell) makes the cell's report void, which fails safe (the block counts as not installed)."""
    # A busy kernel may flush one printed line as several stream messages: join them before reading lines.
    text = "".join(
        str(o.get("text", ""))
        for o in cell.get("outputs", [])
        if o.get("output_type") == "stream" and o.get("name") == "stdout"
    )
    lines = [line for line in text.splitlines() if line.startswith(marker)]
    if len(lines) != 1:
        return None
    try:
        return parse(lines[0][len(marker) :])
    except ValueError:
        return None


def _descendants(root):
    """The pids below ``root`` (by parent links in /proc): what an unsandboxed runner may end."""
    parent = {}
    for p in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
            parent[int(p)] = int(stat[stat.rindex(")") + 2 :].split()[1])
        except (OSError, ValueError):
            pass
    found, frontier = set(), {root}
    while frontier:
        frontier = {p for p, pp in parent.items() if pp in frontier} - found
        found |= frontier
    return found


def _fence(client, sandboxed):
    """Before the student's functions are called on the hidden inputs: end every other process of the sandbox
    (helpers the student's cells left running could compute answers unblocked) and cap the kernel's processes and
    threads at its uid's current tasks + 32 (RLIMIT_NPROC, soft and hard: it cannot raise it back; the block's
    audit hook refuses every ordinary way to start a process).

    Only inside the sandbox's own PID namespace is "every other process" the sandbox's: unsandboxed
    (``--unsafe-no-sandbox``) the runner shares the host's, so it ends only its own descendants (ending every
    process it could see once killed the machine's CI run) and sets no process limit."""
    me = os.getpid()
    kernel = None
    try:
        kernel = client.km.provisioner.process.pid
    except AttributeError:
        pass
    if not sandboxed:
        for p in _descendants(me) - {kernel}:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        return kernel
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) in (1, me, kernel):
            continue
        try:  # (a non-dumpable helper's /proc entry is root's: no owner test)
            os.kill(int(p), signal.SIGKILL)
        except OSError:
            pass
    if kernel is not None:
        # The uid's tasks now (the runner's and the kernel's threads) plus room for the kernel's own worker
        # threads (ipykernel 7 starts some on demand: a limit of 0 broke its messages): a few processes could still
        # start, but every ordinary way to start one is refused by the block's audit hook.
        tasks = 0
        for p in os.listdir("/proc"):
            try:
                tasks += len(os.listdir(f"/proc/{p}/task")) if p.isdigit() and p != "1" else 0
            except OSError:
                pass
        try:
            resource.prlimit(kernel, resource.RLIMIT_NPROC, (tasks + 32, tasks + 32))
        except OSError:
            pass
    return kernel


def run(job: dict) -> dict:
    cell_timeout = float(job.get("cell_timeout", 60))
    total_timeout = float(job.get("total_timeout") or max(600, 20 * cell_timeout))
    call_timeout = float(job.get("call_timeout", 10))
    startup_timeout = float(job.get("startup_timeout", 120))
    work = Path.cwd()
    results = work / ".answers"
    results.mkdir()
    functions = dict(job.get("functions", {}))
    blocked = {a: [str(n) for n in names] for a, names in (job.get("blocked") or {}).items() if names}
    # A blocked answer (an implement-problem's function) that no cell names was not written by the student: it is
    # never called, so it needs no block, and its targets are not resolved (that imports their modules before the
    # student's cells: scikit-learn's metrics alone take 2 s). A function made without its name in any cell (exec
    # of a built string) thus scores nothing: the grader has no call of it to judge.
    uncalled = {f for f in blocked if not any(f in src for src in job["cells"])}
    blocked = {f: names for f, names in blocked.items() if f not in uncalled}
    all_blocked = sorted({n for names in blocked.values() for n in names})
    warm = "import evallib.grading\nimport matplotlib.pyplot"
    if all_blocked:
        warm += "\n" + TARGETS % {"names": all_blocked}
    plan = [("warmup", None, warm)]
    plan += [("student", None, src) for src in job["cells"]]
    plan.append(("values", None, EXTRACT_VALUES % {"names": list(job["names"]), "path": str(results / "values.json")}))
    # Answers whose calls need no block first: a block stays for the rest of the kernel's life, and it refuses
    # what a second block would do (walking the garbage collector), so one block holds every blocked answer's
    # targets (set 13: the sign test and Holm's correction), installed before the first blocked call.
    order = sorted(enumerate(functions), key=lambda t: (t[1] in blocked, t[0]))
    for i, fname in order:
        if fname in uncalled:
            continue
        if fname in blocked and not any(kind == "block" for kind, *_ in plan):
            plan.append(("block", None, None))  # its source is made once the targets are known
        plan.append(
            (
                "calls",
                fname,
                EXTRACT_CALLS
                % {
                    "fname": fname,
                    "cases": functions[fname],
                    "timeout": call_timeout,
                    "path": str(results / f"calls-{i}.jsonl"),
                },
            )
        )
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src or "") for *_, src in plan]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    client = _CappedClient(
        nb,
        timeout=cell_timeout,
        startup_timeout=startup_timeout,
        kernel_name="python3",
        cap=int(job.get("output_cap", 200_000)),
        allow_errors=True,
        interrupt_on_timeout=True,
        record_timing=False,
        shutdown_kernel="immediate",
        error_on_timeout={
            "ename": TIMEOUT_NAME,
            "evalue": f"the cell ran longer than {cell_timeout} s",
            "traceback": [],
        },
        resources={"metadata": {"path": str(work)}},
    )
    notes, unreached = [], None
    student_index = 0
    targets, block_failed, fenced = {}, set(), []
    # Stop starting cells early enough to report before the grader's wall-clock limit kills the sandbox.
    budget = max(total_timeout / 2, total_timeout - cell_timeout - 30)
    start = time.monotonic()
    watch = {"deadline": time.monotonic() + startup_timeout + cell_timeout + 60, "where": ["grading", "start-up"]}

    def finish(why):
        values = _read_json(results / "values.json")
        calls = {  # an uncalled function's file could only be the student's
            f: {} if f in uncalled else _read_lines(results / f"calls-{i}.jsonl")
            for i, f in enumerate(job.get("functions", {}))
        }
        for f, rows in calls.items():
            for r in rows.values():
                if isinstance(r, dict) and str(r.get("message", "")).startswith(BLOCK_MARKER):
                    r["error"], r["delegation"] = "DelegationError", True
            if f in block_failed:
                calls[f] = {
                    str(key): {
                        "error": "DelegationError",
                        "delegation": True,
                        "message": "the grader could not install its delegation block",
                    }
                    for key, _ in functions.get(f, [])
                }
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
                where = {
                    "student": ["cell_in", student_index],
                    "values": ["grading", "answers"],
                    "calls": ["grading", fname],
                    "block": ["grading", ", ".join(sorted(blocked))],
                    "warmup": ["grading", "start-up"],
                }[kind]
                if time.monotonic() - start > budget:
                    unreached = ["total_time", {"seconds": total_timeout}]
                    break
                if kind in ("block", "calls") and not fenced:
                    fenced.append(_fence(client, job.get("sandboxed") is True))
                if kind == "block":
                    block_failed.update(f for f, names in blocked.items() if not all(targets.get(n) for n in names))
                    found = [[n, targets[n]] for n in all_blocked if targets.get(n)]
                    if set(blocked) <= block_failed:
                        continue
                    cell.source = BLOCK % {"targets": found, "marker": BLOCK_MARKER}
                if kind == "calls" and fname in block_failed:
                    continue
                client.timed_out = False
                watch["where"] = where
                watch["deadline"] = (
                    time.monotonic() + (max(cell_timeout, startup_timeout) if kind == "warmup" else cell_timeout) + 60
                )
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
                if kind == "warmup":
                    targets.update(_marked(cell, "__GRADER_TARGETS__", json.loads) or {})
                if kind == "block" and not (_marked(cell, "__GRADER_BLOCK__ ", str.split) or [""])[0] == "True":
                    block_failed.update(blocked)
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
    watch["deadline"] = time.monotonic() + 60  # shutting the kernel down
    return finish(unreached)


_EMITTED = threading.Lock()


def _emit(out):
    if _EMITTED.acquire(blocking=False):
        sys.stdout.write("\n" + json.dumps(out) + "\n")
        sys.stdout.flush()


def main(argv):
    if argv[1:] == ["-"]:
        job = json.loads(sys.stdin.buffer.read().decode("utf-8"))  # from the grader's pipe, never a file
        os.close(0)
        os.open(os.devnull, os.O_RDONLY)
    else:
        job = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    src = Path(os.environ.get("AUTOGRADE_MPLCACHE", "/nonexistent"))
    try:
        if src.is_dir() and os.environ.get("MPLCONFIGDIR"):
            shutil.copytree(src, os.environ["MPLCONFIGDIR"], dirs_exist_ok=True)
    except OSError:
        pass
    _emit(run(job))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
