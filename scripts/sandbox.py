"""Launching the untrusted runner (scripts/sandbox_run.py) in bubblewrap: the sandbox half of scripts/autograde.py.

The grader (trusted) builds a job (cells, answer names, calls to make, names to block) and calls
:meth:`Sandbox.run`; this module owns where and how the runner runs. What is and is not promised:
docs/design/sandbox.md.

- Allow-list file system: a fresh tmpfs root holding only /usr (and the /bin, /lib* links or folders), a few
  /etc files, the interpreter, the virtual environment, the course's public parts (evallib, the released
  exercises, the runner) read-only; sized tmpfs for /tmp, /var/tmp, /dev/shm; /proc of its own PID namespace.
- The job reaches the runner on its stdin (no file); bwrap reads its own arguments from a pipe (``--args``), so
  /proc/1/cmdline inside shows no host path.
- One uid per job from a block of uids held with a lock file for the whole run (concurrent runs get other
  blocks).
- Memory and processes bounded per sandbox by a cgroup (v2 memory.max/pids.max, or v1 memory.limit_in_bytes /
  pids.max) made below the grader's own cgroup; where none can be made: RLIMIT_AS per process and RLIMIT_NPROC
  (the honest fallback, :func:`cgroup_problem` says why).
- Wall time enforced from here: at ``total_timeout`` the sandbox's processes are killed, whatever state they are
  in (a stopped runner included).
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from evallib.grading._protocol import decode_result  # noqa: E402  (the result line, capped: G2)
from scripts.nbsettings import ENV  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUNNER = Path(__file__).resolve().parent / "sandbox_run.py"
UID_BASE = 61000
UID_BLOCK = 64  # uids per run (at most this many sandboxes at once per run)
UID_BLOCKS = 32  # runs at once on one machine
LOCK_DIR = Path("/run/lock") if Path("/run/lock").is_dir() else Path(tempfile.gettempdir())
MAX_OUTPUT = 50_000_000
TMP_MB, VARTMP_MB, SHM_MB = 512, 64, 64
FSIZE_MB = 64  # RLIMIT_FSIZE: the largest file a sandbox may write
NPROC = 256
ETC_FILES = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "nsswitch.conf",
    "hosts",
    "host.conf",
    "resolv.conf",
    "mime.types",
)
CGROUP = Path("/sys/fs/cgroup")
_counter = itertools.count()


# ----------------------------------------------------------------------------------------- uids
class UidBlock:
    """A block of UID_BLOCK uids held (flock on a lock file) for the life of this object: two concurrent runs of
    the grader never share a uid, so one run's processes never count against, or signal, the other's."""

    def __init__(self):
        for b in range(UID_BLOCKS):
            try:
                fh = open(LOCK_DIR / f"autograde-uids-{b}.lock", "a")
            except OSError:  # another user's lock file (non-root runs): that block is theirs
                continue
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                fh.close()
                continue
            self._fh, self.base = fh, UID_BASE + b * UID_BLOCK
            break
        else:
            raise RuntimeError(f"all {UID_BLOCKS} uid blocks of the autograder are in use (lock files in {LOCK_DIR})")
        self._free = list(range(self.base, self.base + UID_BLOCK))
        self._cv = threading.Condition()

    def get(self):
        with self._cv:
            while not self._free:
                self._cv.wait()
            return self._free.pop(0)

    def put(self, uid):
        with self._cv:
            self._free.append(uid)
            self._cv.notify()

    def close(self):
        self._fh.close()


# ----------------------------------------------------------------------------------------- cgroups
def _own_cgroup(controller):
    """(hierarchy mount, our path in it) for a v1 controller, or for v2 when controller is None."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        num, ctrls, path = line.split(":", 2)
        if controller is None and num == "0" and ctrls == "":
            return path
        if controller is not None and controller in ctrls.split(","):
            return path
    return None


def cgroup_mode():
    """'v2' or 'v1' when per-sandbox memory and pids cgroups can be made here, else None (see cgroup_problem)."""
    return _cgroup_probe()[0]


def cgroup_problem():
    return _cgroup_probe()[1]


_probe_cache = []


def _cgroup_probe():
    if _probe_cache:
        return _probe_cache[0]
    result = (None, "no cgroup hierarchy at /sys/fs/cgroup")
    try:
        if (CGROUP / "cgroup.controllers").exists():  # unified (v2)
            own = CGROUP / _own_cgroup(None).lstrip("/")
            ctl = own / "cgroup.subtree_control"
            if not {"memory", "pids"} <= set((own / "cgroup.controllers").read_text().split()):
                result = (None, f"cgroup v2: memory or pids controller not available in {own}")
            else:
                try:
                    ctl.write_text("+memory +pids")
                    result = ("v2", None)
                except OSError as exc:
                    result = (None, f"cgroup v2: cannot delegate memory and pids below {own}: {exc}")
        elif (CGROUP / "memory").is_dir() and (CGROUP / "pids").is_dir():  # v1
            test = _V1Cgroup.make(1 << 30)
            test.remove()
            result = ("v1", None)
    except (OSError, TypeError, AttributeError) as exc:
        result = (None, f"cannot make cgroups here: {exc}")
    _probe_cache.append(result)
    return result


class _V1Cgroup:
    def __init__(self, dirs):
        self.dirs = dirs  # {"memory": path, "pids": path}

    @classmethod
    def make(cls, memory_bytes, pids=NPROC):
        name = f"autograde-{os.getpid()}-{next(_counter)}"
        dirs = {}
        try:
            for ctl in ("memory", "pids"):
                d = CGROUP / ctl / _own_cgroup(ctl).lstrip("/") / name
                d.mkdir()
                dirs[ctl] = d
            (dirs["memory"] / "memory.limit_in_bytes").write_text(str(memory_bytes))
            memsw = dirs["memory"] / "memory.memsw.limit_in_bytes"
            if memsw.exists():
                memsw.write_text(str(memory_bytes))
            (dirs["pids"] / "pids.max").write_text(str(pids))
        except OSError:
            cls(dirs).remove()
            raise
        return cls(dirs)

    def procs_files(self):
        return [d / "cgroup.procs" for d in self.dirs.values()]

    def peak(self):
        try:
            return int((self.dirs["memory"] / "memory.max_usage_in_bytes").read_text())
        except (OSError, ValueError, KeyError):
            return None

    def oom_kills(self):
        try:
            stat = (self.dirs["memory"] / "memory.oom_control").read_text()
            return int(dict(line.split() for line in stat.splitlines()).get("oom_kill", 0))
        except (OSError, ValueError, KeyError):
            return None

    def kill_all(self):
        _kill_procs(self.dirs.get("pids") or self.dirs.get("memory"))

    def remove(self):
        for d in self.dirs.values():
            _rmdir(d)


class _V2Cgroup:
    def __init__(self, d):
        self.dirs = {"v2": d}
        self.d = d

    @classmethod
    def make(cls, memory_bytes, pids=NPROC):
        d = CGROUP / _own_cgroup(None).lstrip("/") / f"autograde-{os.getpid()}-{next(_counter)}"
        d.mkdir()
        try:
            (d / "memory.max").write_text(str(memory_bytes))
            if (d / "memory.swap.max").exists():
                (d / "memory.swap.max").write_text("0")
            (d / "pids.max").write_text(str(pids))
        except OSError:
            _rmdir(d)
            raise
        return cls(d)

    def procs_files(self):
        return [self.d / "cgroup.procs"]

    def peak(self):
        try:
            return int((self.d / "memory.peak").read_text())
        except (OSError, ValueError):
            return None

    def oom_kills(self):
        try:
            return int(
                dict(line.split() for line in (self.d / "memory.events").read_text().splitlines()).get("oom_kill", 0)
            )
        except (OSError, ValueError):
            return None

    def kill_all(self):
        try:
            (self.d / "cgroup.kill").write_text("1")
        except OSError:
            pass
        _kill_procs(self.d)

    def remove(self):
        _rmdir(self.d)


def _sweep_stale():
    """Remove the cgroups a grader that was killed (SIGKILL: no clean-up) left behind, if their processes are gone."""
    parents = [CGROUP / c / (_own_cgroup(c) or "/").lstrip("/") for c in ("memory", "pids")] + [
        CGROUP / (_own_cgroup(None) or "/").lstrip("/")
    ]
    for parent in parents:
        try:
            for d in parent.glob("autograde-*-*"):
                pid = d.name.split("-")[1]
                if pid.isdigit() and not Path(f"/proc/{pid}").exists() and not (d / "cgroup.procs").read_text().strip():
                    d.rmdir()
        except OSError:
            pass


def _kill_procs(d):
    if d is None:
        return
    for _ in range(50):
        try:
            pids = [int(p) for p in (d / "cgroup.procs").read_text().split()]
        except OSError:
            return
        if not pids:
            return
        for p in pids:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.05)


def _rmdir(d):
    for _ in range(40):
        try:
            d.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            _kill_procs(d)
            time.sleep(0.05)


# ----------------------------------------------------------------------------------------- the sandbox
class Sandbox:
    """Runs jobs in bwrap (or, unsafe, directly). ``tmp`` is the grader's private folder (never inside the sandbox),
    ``checks_dir`` the public checks bound at /run/grader/checks."""

    def __init__(self, tmp, checks_dir, *, sandbox=True, memory_mb=4096, total_timeout=600, hide=()):
        self.tmp = Path(tmp)
        self.checks_dir = Path(checks_dir)
        self.sandbox = sandbox
        self.memory_mb = memory_mb
        self.total_timeout = total_timeout
        self.hide = hide  # kept for the caller's API: nothing outside the allow-list exists
        self.uids = UidBlock()
        self.cgroups = cgroup_mode() if sandbox and os.geteuid() == 0 else None
        self.last_stats = {}
        if self.cgroups:
            _sweep_stale()

    def close(self):
        self.uids.close()

    def bounds(self):
        """What bounds each sandbox as a whole, in one line (the grader prints it when it starts)."""
        rest = (
            f"tmpfs /tmp {TMP_MB} MB, /var/tmp {VARTMP_MB} MB, /dev/shm {SHM_MB} MB, files {FSIZE_MB} MB each; "
            f"wall time {self.total_timeout:g} s per notebook, enforced from outside"
        )
        if self.cgroups:
            knob = "memory.max" if self.cgroups == "v2" else "memory.limit_in_bytes"
            return (
                f"memory {self.memory_mb} MB per sandbox as a whole (cgroup {self.cgroups} {knob}), "
                f"{NPROC} processes (pids.max); {rest}"
            )
        return (
            f"NO memory bound on a sandbox as a whole ({cgroup_problem()}): RLIMIT_AS {self.memory_mb} MB per "
            f"process, RLIMIT_NPROC {NPROC} per uid; {rest}"
        )

    def run(self, job):
        """Run the runner on one job (a dict); returns (parsed output or None, reason key/fields or None)."""
        uid = self.uids.get()
        cg = None
        stats = {}
        try:
            if self.cgroups:  # a failure here is not silent: the grader then refuses this job
                cg = (_V2Cgroup if self.cgroups == "v2" else _V1Cgroup).make(int(self.memory_mb) * 2**20)
            with tempfile.TemporaryFile(dir=self.tmp) as out_fh, tempfile.TemporaryFile(dir=self.tmp) as err_fh:
                cmd, env, preexec, cwd, args_blob = self._command(uid, cg)
                pass_fds = ()
                args_r = None
                if args_blob is not None:
                    args_r, args_w = os.pipe()
                    os.write(args_w, args_blob)  # bwrap's arguments: small (a few KB), fits a pipe buffer
                    os.close(args_w)
                    pass_fds = (args_r,)
                    cmd = [a if a != "{ARGS_FD}" else str(args_r) for a in cmd]
                start = time.monotonic()
                proc = subprocess.Popen(
                    cmd,
                    stdin=subprocess.PIPE,
                    stdout=out_fh,
                    stderr=err_fh,
                    env=env,
                    cwd=cwd,
                    preexec_fn=preexec,
                    start_new_session=True,
                    pass_fds=pass_fds,
                )
                if args_r is not None:
                    os.close(args_r)
                payload = json.dumps({**job, "sandboxed": self.sandbox}).encode()
                feeder = threading.Thread(target=_feed, args=(proc.stdin, payload), daemon=True)
                feeder.start()
                timed_out = False
                try:
                    proc.wait(timeout=self.total_timeout)
                except subprocess.TimeoutExpired:
                    timed_out = True
                finally:
                    self._kill(proc, cg)
                stats["seconds"] = round(time.monotonic() - start, 1)
                if cg is not None:
                    stats["peak_bytes"], stats["oom_kills"] = cg.peak(), cg.oom_kills()
                self.last_stats = stats
                if timed_out:
                    return None, ("sandbox_timeout", {"seconds": self.total_timeout})
                err_fh.seek(0, os.SEEK_END)
                err_fh.seek(max(0, err_fh.tell() - 2000))
                last = err_fh.read().decode("utf-8", "replace").strip().splitlines()
                size = out_fh.seek(0, os.SEEK_END)
                if size > MAX_OUTPUT:
                    return None, ("malformed_output", {"detail": "too large"})
                out_fh.seek(max(0, size - MAX_OUTPUT))
                raw = out_fh.read().decode("utf-8", errors="replace").strip().rsplit("\n", 1)[-1]
            try:
                data = decode_result(raw) if raw else None  # capped: size, containers, nesting (G2)
            except ValueError:
                data = None
            if not isinstance(data, dict):
                detail = (
                    (f"exit status {proc.returncode}" + (f": {last[-1][:200]}" if last else ""))
                    if not raw
                    else "not JSON"
                )
                return None, ("malformed_output" if raw else "sandbox_failed", {"detail": detail})
            return data, None
        finally:
            if cg is not None:
                cg.kill_all()
                cg.remove()
            self.uids.put(uid)

    def _kill(self, proc, cg):
        if cg is not None:
            cg.kill_all()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()

    def _env(self):
        return {
            "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "HOME": "/tmp/home",
            "USER": "student",
            "LOGNAME": "student",
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": "/tmp/mpl",
            "IPYTHONDIR": "/tmp/ipython",
            "JUPYTER_RUNTIME_DIR": "/tmp/jupyter/runtime",
            "JUPYTER_CONFIG_DIR": "/tmp/jupyter/config",
            "JUPYTER_DATA_DIR": "/tmp/jupyter/data",
            "PYTHONDONTWRITEBYTECODE": "1",
            "AUTOGRADE_MPLCACHE": "/run/grader/mplcache",
            "PYTHONPATH": str(ROOT),  # this course's evallib, whatever the venv was installed from
            "EVALLIB_EXERCISES": "/run/grader/checks" if self.sandbox else str(self.checks_dir),
            **ENV,
        }

    def _command(self, uid, cg):
        """(argv, env, preexec, cwd, bwrap's argument blob or None)."""
        env = self._env()
        limits = self._limits(cg)
        if not self.sandbox:
            work = Path(tempfile.mkdtemp(dir=self.tmp, prefix="work-"))
            env.update(
                {
                    k: str(work / v[len("/tmp/") :])
                    for k, v in env.items()
                    if v.startswith("/tmp/")
                    and (k in ("HOME", "MPLCONFIGDIR", "IPYTHONDIR") or k.startswith("JUPYTER_"))
                }
            )
            return [sys.executable, str(RUNNER), "-"], env, limits, work, None
        opts = mount_args(uid, self.checks_dir) + ["--chdir", "/tmp", "--setenv", "PWD", "/tmp"]
        cmd = []
        if os.geteuid() == 0:
            cmd += [
                "setpriv",
                f"--reuid={uid}",
                f"--regid={uid}",
                "--clear-groups",
                "--inh-caps=-all",
                "--bounding-set=-all",
                "--no-new-privs",
            ]
        cmd += [sys.executable, str(RUNNER), "-"]
        blob = b"".join(a.encode() + b"\0" for a in opts)
        # bwrap reads its options from a pipe (``--args FD``): its cmdline (/proc/1/cmdline inside) shows only the
        # command (setpriv, the interpreter, the runner: all public), no host path of submissions or grades.
        return ["bwrap", "--args", "{ARGS_FD}", "--", *cmd], env, limits, "/", blob

    def _limits(self, cg):
        # With a cgroup the sandbox's memory is bounded as a whole; RLIMIT_AS then only stops absurd reservations
        # (and must leave room for a kernel's address space, which is much larger than what it uses).
        mem = int(self.memory_mb if cg is None else max(self.memory_mb, 4096)) * 2**20
        cpu = int(self.total_timeout + 60)
        procs = [] if cg is None else [str(f) for f in cg.procs_files()]

        def apply():
            for f in procs:  # join the job's cgroups before anything else runs
                with open(f, "w") as fh:
                    fh.write(str(os.getpid()))
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
            resource.setrlimit(resource.RLIMIT_FSIZE, (FSIZE_MB * 2**20, FSIZE_MB * 2**20))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
            if os.geteuid() == 0 and self.sandbox:  # enforced once setpriv has dropped to the job's uid
                resource.setrlimit(resource.RLIMIT_NPROC, (NPROC, NPROC))

        return apply


def _feed(pipe, data):
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


def public_paths():
    """The course's public parts the runner and the student's kernel need (read-only inside)."""
    paths = [ROOT / "evallib", RUNNER]
    ex = ROOT / "exercises"
    if ex.is_dir():
        paths += [p for p in sorted(ex.iterdir()) if p.name != "source"]
    return paths


def mount_args(uid, checks_dir):
    """bwrap's namespace and mount arguments: an allow-list on an empty tmpfs root."""
    a = [
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "sandbox",
    ]
    if os.geteuid() != 0:
        a += ["--unshare-user", "--uid", str(uid), "--gid", str(uid), "--cap-drop", "ALL"]
    a += ["--ro-bind", "/usr", "/usr"]
    for top in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        p = Path("/") / top
        if p.is_symlink():
            a += ["--symlink", os.readlink(p), str(p)]
        elif p.is_dir():
            a += ["--ro-bind", str(p), str(p)]
    a += ["--perms", "0755", "--dir", "/etc", "--perms", "0755", "--dir", "/var"]
    for name in ETC_FILES:
        p = Path("/etc") / name
        if p.exists():
            a += ["--ro-bind", str(p), str(p)]
    a += [
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--perms",
        "1777",
        "--size",
        str(TMP_MB * 2**20),
        "--tmpfs",
        "/tmp",
        "--perms",
        "1777",
        "--size",
        str(VARTMP_MB * 2**20),
        "--tmpfs",
        "/var/tmp",
        "--perms",
        "1777",
        "--size",
        str(SHM_MB * 2**20),
        "--tmpfs",
        "/dev/shm",
        "--perms",
        "0755",
        "--size",
        str(2**20),
        "--tmpfs",
        "/run",
    ]
    needed = {
        Path(sys.base_prefix).resolve(),
        Path(sys.prefix).resolve(),
        Path(sys.prefix),
        *[p.resolve() for p in public_paths()],
    }
    exe = Path(sys.executable)
    if exe.is_symlink():
        needed.add(exe.resolve().parent)
    needed = sorted(p for p in needed if p.exists() and not any(q in p.parents for q in needed))
    made = set()
    for p in needed:
        for parent in reversed(p.parents):  # folders bwrap would otherwise make 0700 for a file's bind
            if parent != Path("/") and parent not in made:
                a += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        if p.is_symlink():
            a += ["--symlink", os.readlink(p), str(p)]
        else:
            a += ["--ro-bind", str(p), str(p)]
    a += ["--perms", "0755", "--dir", "/run/grader", "--ro-bind", str(checks_dir), "/run/grader/checks"]
    mpl = Path.home() / ".cache" / "matplotlib"
    if mpl.is_dir() and all(d.stat().st_mode & 0o005 == 0o005 for d in (mpl, *mpl.parents)):
        a += ["--ro-bind", str(mpl), "/run/grader/mplcache"]
    return a


def sandbox_problem():
    """None when bwrap runs here, else the reason (with the fix)."""
    if shutil.which("bwrap") is None:
        return "bwrap (bubblewrap) is not installed: `apt-get install -y bubblewrap` (make autograde does it as root)"
    probe = subprocess.run(
        [
            "bwrap",
            "--unshare-all",
            "--die-with-parent",
            "--ro-bind",
            "/",
            "/",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "true",
        ],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return f"bwrap cannot create a sandbox here: {probe.stderr.strip()[:300]}"
    return None
