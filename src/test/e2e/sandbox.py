"""One Claude Code run, as the first process of the namespaces e2e.py makes (unshare --net --mount --pid ...).

    sandbox.py RUN/config.json    set up the isolation, run the case once, record into RUN/rec/
    sandbox.py --check RUN        only set up the isolation and check it (exit 0 when it holds)

Isolation, before anything of the case runs:
  * network: the namespace's only interface is lo, brought up here; the run stops when there is any other;
  * files: every mount becomes read-only except the run directory (bound back onto itself, writable), /tmp (an
    overlay whose writes land in a fresh /dev/shm tmpfs and vanish with the namespace), /dev and /proc
    (/proc/sys and a few other kernel knobs are made read-only);
  * processes: this process is PID 1 of its PID namespace, so when it exits the kernel kills everything the run
    left behind: background commands, and the hook's evaluator.
Then: the case's setup commands run in the work directory; the hook gets its warm start (see warm_up); the mock
Messages API starts on 127.0.0.1; Claude Code runs once with the arguments and environment in the config.
Recorded in RUN/rec: stream.jsonl (Claude Code's stdout), stderr.txt, debug.log (--debug-file), mock.jsonl,
calls.log (the stand-ins' calls), and sandbox.json (timings, the warm start, changed files, setup output).
"""
import ctypes
import fcntl
import json
import os
import signal
import socket
import stat
import struct
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mock_api  # noqa: E402

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_BIND = 32, 1024, 2048, 4096
MS_REC, MS_PRIVATE, MS_RELATIME, MS_STRICTATIME = 16384, 1 << 18, 1 << 21, 1 << 24
KEEP_FLAGS = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "noatime": MS_NOATIME,
              "nodiratime": MS_NODIRATIME, "relatime": MS_RELATIME, "strictatime": MS_STRICTATIME}
KERNEL_KNOBS = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
LIBC = ctypes.CDLL(None, use_errno=True)


class IsolationError(Exception):
    pass


def mount(source, target, fstype, flags, data=None):
    """mount(2); raises IsolationError with the errno text."""
    enc = (lambda s: None if s is None else s.encode())
    if LIBC.mount(enc(source), enc(target), enc(fstype), ctypes.c_ulong(flags), enc(data)) != 0:
        err = ctypes.get_errno()
        raise IsolationError("mount %s on %s: %s" % (source or fstype, target, os.strerror(err)))


def loopback_up():
    """Brings lo up with SIOCGIFFLAGS/SIOCSIFFLAGS (no dependency on ip(8))."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        req = struct.pack("16sH22x", b"lo", 0)
        flags = struct.unpack("16sH22x", fcntl.ioctl(s, 0x8913, req))[1]
        fcntl.ioctl(s, 0x8914, struct.pack("16sH22x", b"lo", flags | 0x1))   # IFF_UP


def interfaces():
    with open("/proc/net/dev") as f:
        return [line.split(":", 1)[0].strip() for line in f.readlines()[2:] if ":" in line]


def mounts():
    """(mount point, per-mount options) of every mount, in mount order."""
    out = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            point = fields[4].encode().decode("unicode_escape")     # \040 and friends
            out.append((point, fields[5].split(",")))
    return out


def isolate(run):
    """Network and filesystem isolation for one run (see the module docstring). Returns warnings."""
    warnings = []
    loopback_up()
    if interfaces() != ["lo"]:
        raise IsolationError("network interfaces other than lo: %s" % interfaces())
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    run_fd = os.open(run, os.O_RDONLY | os.O_DIRECTORY)
    mount("e2e", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    scratch = "/dev/shm/.e2e-overlay"
    for d in ("upper", "work"):
        os.makedirs(os.path.join(scratch, d), mode=0o700)
    mount("e2e", "/tmp", "overlay", 0, "lowerdir=/tmp,upperdir=%s/upper,workdir=%s/work" % (scratch, scratch))
    # the run directory (which may lie below /tmp) stays the real one, and writable
    mount("/proc/self/fd/%d" % run_fd, run, None, MS_BIND)
    os.close(run_fd)
    for knob in KERNEL_KNOBS:
        if os.path.exists(knob):
            try:
                mount(knob, knob, None, MS_BIND)
                mount(None, knob, None, MS_REMOUNT | MS_BIND | MS_RDONLY)
            except IsolationError as e:
                warnings.append(str(e))

    def stays_writable(p):
        return any(p == top or p.startswith(top.rstrip("/") + "/") for top in ("/proc", "/dev", "/tmp", run))

    seen = set()
    for point, opts in reversed(mounts()):
        if point in seen or stays_writable(point):
            continue
        seen.add(point)
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        for o in opts:
            flags |= KEEP_FLAGS.get(o, 0)
        try:
            mount(None, point, None, flags)
        except IsolationError as e:
            if point == "/":
                raise
            warnings.append(str(e))
    if not os.statvfs("/").f_flag & os.ST_RDONLY:
        raise IsolationError("/ did not become read-only")
    for d in (run, "/tmp"):
        if os.statvfs(d).f_flag & os.ST_RDONLY:
            raise IsolationError("%s is read-only" % d)
    return warnings


def snapshot(root, skip=()):
    """{relative path: (kind, size, mtime)} below root; `skip` names top-level entries left out."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        if rel == ".":
            dirnames[:] = [d for d in dirnames if d not in skip]
            filenames = [f for f in filenames if f not in skip]
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            kind = "dir" if stat.S_ISDIR(st.st_mode) else "link" if stat.S_ISLNK(st.st_mode) else "file"
            found[os.path.normpath(os.path.join(rel, name))] = \
                (kind, 0, 0) if kind == "dir" else (kind, st.st_size, st.st_mtime_ns)
    return found


def changes(before, after, label):
    out = []
    for rel in sorted(set(before) | set(after)):
        b, a = before.get(rel), after.get(rel)
        if b is None:
            out.append("created %s/%s" % (label, rel))
        elif a is None:
            out.append("deleted %s/%s" % (label, rel))
        elif a != b:
            out.append("modified %s/%s" % (label, rel))
    return out


def hook_call(hook, command, cwd):
    """Runs the hook once, as Claude Code would, on a PreToolUse call for `command`. Returns a record."""
    payload = {"session_id": "e2e-warm-up", "transcript_path": "", "cwd": cwd, "permission_mode": "default",
               "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command, "description": "warm-up"}}
    t0 = time.monotonic()
    try:
        p = subprocess.run(["/bin/sh", "-c", hook["command"]], input=json.dumps(payload), cwd=cwd,
                           env=hook["env"], capture_output=True, text=True, timeout=60)
        rc, err = p.returncode, p.stderr.strip()
    except subprocess.TimeoutExpired:
        rc, err = None, "timed out after 60 s"
    return {"ms": int((time.monotonic() - t0) * 1000), "exit": rc, "stderr": err[-300:]}


def evaluator_pid(runtime_dir):
    try:
        with open(os.path.join(runtime_dir, "pid")) as f:
            pid = int(f.readline().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid if stat.S_ISFIFO(os.stat(os.path.join(runtime_dir, "req")).st_mode) else None


def warm_up(hook, work):
    """The state a user's machine is in after the hook has been used before: its first call (cold, a JVM of its
    own) has started the evaluator in the background. Waits until the evaluator answers, then makes one more call
    that should take the warm path. Returns what happened, for the record."""
    rec = {"first": hook_call(hook, "true", work)}
    runtime = os.path.join(hook["env"].get("XDG_RUNTIME_DIR", ""), "compound-bash")
    t0 = time.monotonic()
    launcher = "compound-bash: " in rec["first"]["stderr"]      # its COMPOUND_BASH_TRACE line: it has an evaluator
    while launcher and time.monotonic() - t0 < 60 and evaluator_pid(runtime) is None:
        time.sleep(0.1)
    rec["evaluator_ready_ms"] = int((time.monotonic() - t0) * 1000)
    rec["evaluator"] = evaluator_pid(runtime) is not None
    rec["second"] = hook_call(hook, "true", work)
    rec["warm"] = "compound-bash: warm" in rec["second"]["stderr"]
    return rec


def run_case(cfg):
    run, rec = cfg["run"], cfg["rec"]
    work, home = cfg["work"], cfg["home"]
    outside = os.path.dirname(work)
    result = {"isolation": None, "interfaces": None}

    def finish(code):
        with open(os.path.join(rec, "sandbox.json"), "w") as f:
            json.dump(result, f, indent=1)
        return code

    try:
        result["isolation"] = isolate(run)
        result["interfaces"] = interfaces()
    except (IsolationError, OSError) as e:
        result["error"] = "isolation: %s" % e
        return finish(3)
    if cfg.get("setup"):
        p = subprocess.run(["/bin/bash", "-euc", cfg["setup"]], cwd=work, env=cfg["setup_env"],
                           capture_output=True, text=True)
        result["setup"] = {"exit": p.returncode, "output": (p.stdout + p.stderr)[-2000:]}
        if p.returncode != 0:
            result["error"] = "setup exited %d: %s" % (p.returncode, (p.stdout + p.stderr).strip()[-500:])
            return finish(3)
    before = (snapshot(work, skip=(".git",)), snapshot(home, skip=(".claude", ".claude.json")),
              snapshot(outside, skip=(os.path.basename(work), "home", "rec", "xdg")))
    if cfg.get("hook") and cfg["hook"]["start"] == "warm":
        result["warm_up"] = warm_up(cfg["hook"], work)
    server = mock_api.serve(cfg["command"], os.path.join(rec, "mock.jsonl"))
    env = dict(cfg["env"], ANTHROPIC_BASE_URL="http://127.0.0.1:%d" % server.server_address[1])
    t0 = time.monotonic()
    with open(os.path.join(rec, "stream.jsonl"), "wb") as out, open(os.path.join(rec, "stderr.txt"), "wb") as err:
        p = subprocess.Popen([cfg["claude"]] + cfg["args"], cwd=cfg["start"], env=env, stdin=subprocess.DEVNULL,
                             stdout=out, stderr=err, start_new_session=True)
        try:
            result["claude_exit"] = p.wait(timeout=cfg["timeout"])
            result["timed_out"] = False
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            result["claude_exit"] = p.wait()
            result["timed_out"] = True
    result["seconds"] = round(time.monotonic() - t0, 2)
    server.shutdown()
    result["files"] = (changes(before[0], snapshot(work, skip=(".git",)), "work")
                       + changes(before[1], snapshot(home, skip=(".claude", ".claude.json")), "~")
                       + changes(before[2], snapshot(outside, skip=(os.path.basename(work), "home", "rec", "xdg")),
                                 "work/.."))
    return finish(0)


def main(argv):
    if len(argv) == 2 and argv[0] == "--check":
        try:
            for w in isolate(argv[1]):
                print("warning: %s" % w, file=sys.stderr)
        except (IsolationError, OSError) as e:
            print("isolation check failed: %s" % e, file=sys.stderr)
            return 3
        server = mock_api.serve("true", os.path.join(argv[1], "check-mock.jsonl"))
        with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout=5) as c:
            c.sendall(b"HEAD / HTTP/1.1\r\nHost: mock\r\n\r\n")
            ok = c.recv(64).startswith(b"HTTP/1.1 200")
        server.shutdown()
        return 0 if ok else 3
    with open(argv[0]) as f:
        return run_case(json.load(f))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
