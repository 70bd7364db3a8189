#!/usr/bin/env python3
"""usage: e2e.py [-j N] [--out FILE.jsonl] [--only REGEX] [--hook 'CMD'] [--hook-start warm|cold|first]
              [--timeout S] [--keep] [-v] CASES.jsonl...

compound-bash's end-to-end test inside the real Claude Code. Each case's command is run through Claude Code in
print mode twice: natively (its permission rules only) and with the hook (this checkout's `bin/compound-bash hook`
as a PreToolUse hook, matcher Bash, timeout 30). A mock of the Messages API on 127.0.0.1 plays the model: it asks
for one Bash call with the case's command, then ends the session. Every run is in its own network (loopback only),
mount and PID namespaces (see sandbox.py), with a fresh HOME and a fresh work directory.

What it checks, for every case:
  (a) the hook's decision (from Claude Code's --debug-file) is the case's `expected`;
  (b) the native and with-hook outcomes (ran / refused / denied, from the stream's tool_result metadata) are the
      case's `native` / `with_hook`, where the case states them;
  (c) never weaker: a command Claude Code refuses or denies natively for a reason of its own (reasons.json
      classifies its reason texts) does not run with the hook;
  and `prompt_removed: true` cases: natively refused for a cannot-read reason, the hook allowed, and it ran.
Exit status: 0 when every case passed, 1 when one failed, 2 on a usage or setup error.

Options:
  -j N                 runs in parallel (default 2)
  --out FILE.jsonl     everything recorded, one JSON object per case
  --only REGEX         only the cases whose id matches
  --hook 'CMD'         the hook command (default: this checkout's bin/compound-bash hook)
  --shell bash|zsh     the user's shell for every case (default: each case's `shell`, else bash): $SHELL names it,
                       and Claude Code then runs it (zsh: Debian's zsh package; docs/CLAUDE-CODE.md section S)
  --hook-start MODE    how the hook starts, for every case (default: each case's hook_start, else warm):
                       warm  = as on a user's machine: an evaluator is running and a class-data archive exists;
                       cold  = no evaluator (Claude Code's hook call starts a JVM), class-data archive present;
                       first = the first call after install: no evaluator, no class-data archive
  --timeout S          seconds one Claude Code run may take (default 120)
  --case-root PATH     the project path case files use (default /home/dev/proj): it stands for the work
                       directory in command, rules, additionalDirectories, cwd and setup
  --keep               keep the run directories (printed on stderr)
  -v                   print Claude Code's and the hook's reasons under each case

Claude Code: $COMPOUND_BASH_E2E_CLAUDE when set (a `claude` executable); otherwise @anthropic-ai/claude-code at
$COMPOUND_BASH_E2E_VERSION (default 2.1.332, the newest measured), installed once with npm into
${XDG_CACHE_HOME:-~/.cache}/compound-bash-e2e/VERSION. Needs root (namespaces), unshare, git, bash and a JDK.
Case fields: README.md next to this file.
"""
import argparse
import concurrent.futures
import fcntl
import json
import os
import pwd
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
VERSION = os.environ.get("COMPOUND_BASH_E2E_VERSION", "2.1.332")
PACKAGE = "@anthropic-ai/claude-code"
PROMPT = "Run the command."
HOOK_TIMEOUT_S = 30
OUTCOMES = ("ran", "refused", "denied")
DECISIONS = ("allow", "deny", "ask", "defer")
STARTS = ("warm", "cold", "first")
SHELLS = ("bash", "zsh")

# Programs whose harmless stand-in comes first on the Bash tool's PATH: each records its name and arguments in
# $E2E_CALLS and exits 0. Destructive, networked, privileged or system-wide programs, and a few that may be absent.
STAND_INS = """rm rmdir shred dd mkfs truncate mount umount sudo su doas chown chgrp
curl wget ssh scp sftp rsync nc ncat netcat telnet ftp
git go make npm npx node pip pip3 cargo docker podman kubectl
systemctl service reboot shutdown poweroff halt pkill killall lsof jq rg""".split()

# The work directory (relative path -> content; None = directory; ("link", target) = symbolic link). It becomes a
# git repository; outside.txt lies next to it, in the run directory.
WORK_FILES = {
    "README.md": "# demo\n\nA small project for trying commands.\n",
    "notes.md": "notes\n",
    ".env": "API_TOKEN=not-a-real-secret\n",
    ".gitignore": ".env\n",
    "file.txt": "a pattern here\nFoo\n",
    "b.txt": "b\n",
    "files.txt": "file.txt\nb.txt\n",
    "x.go": "package x\n",
    "y.go": "package x\n\n// Foo\n",
    "a.tmp": "",
    "x.log": "",
    "src/main.py": "print('hello')\n",
    "src/util.py": "def f():\n    return 1\n",
    "sub/notes.txt": "sub notes\n",
    "sub/.claude/": None,
    "build/out.o": "",
    "danger/x": "",
    ".claude/": None,
    "link-out": ("link", ".."),
    "link-etc": ("link", "/etc/hostname"),
}
OUTSIDE = ("outside.txt", "a file next to the work directory\n")

STAND_IN = """#!/bin/sh
# compound-bash e2e stand-in: records the call, does nothing
[ -n "${E2E_CALLS:-}" ] && printf '%s\\0' E2E-CALL "${0##*/}" "$@" >>"$E2E_CALLS"
exit 0
"""

LIVE = set()
LIVE_LOCK = threading.Lock()
STOP = threading.Event()


class SetupError(Exception):
    pass


def say(msg):
    print("e2e: %s" % msg, file=sys.stderr, flush=True)


def cut(s, n):
    s = "" if s is None else str(s)
    return s if len(s) <= n else s[:n - 3] + "..."


def as_list(v):
    return None if v is None else ([v] if isinstance(v, str) else list(v))


# ------------------------------------------------------------------------------------------------ Claude Code

def claude_version(exe, scratch):
    """`claude --version`, in a network namespace of its own (nothing leaves the machine, ever)."""
    try:
        p = subprocess.run(["unshare", "--net", exe, "--version"], capture_output=True, text=True, timeout=120,
                           env={"HOME": scratch, "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                                "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"})
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.strip() if p.returncode == 0 else None


def installed(prefix, scratch):
    """(executable, version text) of an npm install in prefix that reports VERSION, or None."""
    scope = os.path.join(prefix, "node_modules", "@anthropic-ai")
    candidates = [os.path.join(prefix, "node_modules", ".bin", "claude"),
                  os.path.join(scope, "claude-code", "bin", "claude.exe")]
    if os.path.isdir(scope):   # the platform package's binary, should the postinstall step not have linked it
        candidates += [os.path.join(scope, d, "claude") for d in sorted(os.listdir(scope))
                       if d.startswith("claude-code-linux-")]
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            v = claude_version(c, scratch) or ""
            if VERSION in v:
                return os.path.realpath(c), v
    return None


def find_claude(scratch):
    """(executable, version text): $COMPOUND_BASH_E2E_CLAUDE, or the cached npm install (made on first use)."""
    given = os.environ.get("COMPOUND_BASH_E2E_CLAUDE")
    if given:
        v = claude_version(given, scratch)
        if not v:
            raise SetupError("COMPOUND_BASH_E2E_CLAUDE=%s does not answer --version" % given)
        if VERSION not in v:
            say("note: COMPOUND_BASH_E2E_CLAUDE is %s, the cases were measured with %s" % (v, VERSION))
        return os.path.abspath(given), v
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    prefix = os.path.join(cache, "compound-bash-e2e", VERSION)
    found = installed(prefix, scratch)
    if found:
        return found
    npm = shutil.which("npm")
    if not npm:
        raise SetupError("Claude Code %s is not in %s and npm is not on PATH (install nodejs and npm, or set "
                         "COMPOUND_BASH_E2E_CLAUDE)" % (VERSION, prefix))
    os.makedirs(os.path.dirname(prefix), exist_ok=True)
    with open(prefix + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = installed(prefix, scratch)
        if found:
            return found
        part = tempfile.mkdtemp(prefix=VERSION + ".part-", dir=os.path.dirname(prefix))
        say("installing %s@%s with npm into %s (once, about 400 MB)" % (PACKAGE, VERSION, prefix))
        t0 = time.time()
        p = subprocess.run([npm, "install", "--prefix", part, "--no-fund", "--no-audit", "--loglevel=error",
                            "%s@%s" % (PACKAGE, VERSION)], stdin=subprocess.DEVNULL, stdout=sys.stderr)
        if p.returncode != 0 or not installed(part, scratch):
            shutil.rmtree(part, ignore_errors=True)
            raise SetupError("npm install %s@%s failed (exit %d)" % (PACKAGE, VERSION, p.returncode))
        shutil.rmtree(prefix, ignore_errors=True)
        os.rename(part, prefix)
        say("installed in %d s" % (time.time() - t0))
    found = installed(prefix, scratch)
    if not found:
        raise SetupError("Claude Code installed into %s does not run" % prefix)
    return found


# ------------------------------------------------------------------------------------------------ cases

def load_cases(paths, case_root):
    cases, seen = [], set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                s = line.strip()
                if not s or s.startswith("#"):
                    continue
                where = "%s:%d" % (path, n)
                try:
                    c = json.loads(s)
                except ValueError as e:
                    raise SetupError("%s: not JSON: %s" % (where, e))
                if not isinstance(c, dict) or not isinstance(c.get("command"), str):
                    raise SetupError("%s: needs an object with a string `command`" % where)
                c["id"] = str(c.get("id") or "%s:%d" % (os.path.basename(path), n))
                if c["id"] in seen:
                    raise SetupError("%s: id %s used twice" % (where, c["id"]))
                seen.add(c["id"])
                for k in ("allow", "ask", "deny", "additionalDirectories"):
                    v = c.get(k) or []
                    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                        raise SetupError("%s: `%s` must be a list of strings" % (where, k))
                for k, allowed in (("expected", DECISIONS), ("native", OUTCOMES), ("with_hook", OUTCOMES)):
                    vs = as_list(c.get(k))
                    if vs is not None and (not vs or any(x not in allowed for x in vs)):
                        raise SetupError("%s: `%s` must be one of %s or a list of them" % (where, k, "|".join(allowed)))
                if c.get("shell") not in (None,) + SHELLS:
                    raise SetupError("%s: `shell` must be one of %s" % (where, "|".join(SHELLS)))
                if c.get("hook_start") not in (None,) + STARTS:
                    raise SetupError("%s: `hook_start` must be one of %s" % (where, "|".join(STARTS)))
                if c.get("setup") is not None and not isinstance(c["setup"], (str, list)):
                    raise SetupError("%s: `setup` must be a string or a list of strings" % where)
                if c.get("settings") is not None and not isinstance(c["settings"], dict):
                    raise SetupError("%s: `settings` must be an object" % where)
                if c.get("hook_stdin") is not None and not isinstance(c["hook_stdin"], str):
                    raise SetupError("%s: `hook_stdin` must be a string" % where)
                if c.get("message") is not None and not isinstance(c["message"], str):
                    raise SetupError("%s: `message` must be a string" % where)
                cwd = c.get("cwd") or "."
                inside = os.path.normpath(os.path.join(case_root, cwd))
                if not isinstance(cwd, str) or not (inside == os.path.normpath(case_root) or
                                                    inside.startswith(os.path.normpath(case_root) + "/")):
                    raise SetupError("%s: `cwd` must lie inside the work directory (%s, or a relative path)"
                                     % (where, case_root))
                c["_where"] = where
                cases.append(c)
    return cases


def mapper(case_root, work):
    """Replaces the case root (a whole path prefix) by the work directory."""
    rx = re.compile(re.escape(case_root.rstrip("/")) + r"(?=/|[^A-Za-z0-9._-]|$)")
    return lambda s: rx.sub(lambda m: work, s)


def deep_merge(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


# ------------------------------------------------------------------------------------------------ reasons

class Reasons:
    """reasons.json: how Claude Code's refusal texts are classified (own / cannot-read), and how the stream's
    non_execution_kind values map to outcomes."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self.outcome_of_kind = data["outcome_of_kind"]
        self.own_commands = [(re.compile(e["match"]), e["why"]) for e in data["own_commands"]]
        self.reasons = [dict(e, rx=re.compile(e["match"], re.S)) for e in data["reasons"]]

    def own_command(self, command):
        for rx, why in self.own_commands:
            if rx.search(command or ""):
                return why
        return None

    def classify(self, reason, command, mode=None, default_run=None):
        """(kind, why) of a refusal in permission mode `mode` (None = default): kind is own, cannot-read or
        unclassified. default_run is the native run of the same case in default mode, which explains a
        don't-ask-mode denial."""
        for e in self.reasons:
            m = e["rx"].search(reason or "")
            if not m or ("modes" in e and (mode or "default") not in e["modes"]):
                continue
            kind, why = e["kind"], e["why"]
            if kind == "generic":
                own = self.own_command(command)
                return ("own", own) if own else ("cannot-read", why)
            if e.get("part") and "part" in m.groupdict():
                own = self.own_command(m.group("part"))
                if own:
                    return "own", "%s (the part: %s)" % (own, cut(m.group("part"), 60))
            if kind == "dont-ask":
                if default_run is None or default_run.get("outcome") not in ("refused", "denied"):
                    return "own", why + "; in default mode it %s" % (default_run or {}).get("outcome", "was not run")
                k, w = self.classify(default_run.get("reason"), command, "default")
                return k, "%s; in default mode: %s" % (why, w)
            return kind, why
        return "unclassified", None


# ------------------------------------------------------------------------------------------------ one run

def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    if mode is not None:
        os.chmod(path, mode)


def make_template(base):
    """The work directory every run copies: WORK_FILES as a git repository with one commit."""
    tpl = os.path.join(base, "template")
    for rel, content in WORK_FILES.items():
        p = os.path.join(tpl, rel)
        if content is None:
            os.makedirs(p, exist_ok=True)
        elif isinstance(content, tuple):
            os.makedirs(os.path.dirname(p), exist_ok=True)
            os.symlink(content[1], p)
        else:
            write(p, content)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tpl, "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C"}
    for args in (["init", "-q", "-b", "main"], ["config", "user.email", "dev@example.invalid"],
                 ["config", "user.name", "dev"], ["add", "-A"], ["commit", "-q", "-m", "initial"]):
        p = subprocess.run(["git"] + args, cwd=tpl, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            raise SetupError("git %s in the work template: %s" % (" ".join(args), p.stderr.strip()))
    return tpl


def make_stand_ins(base):
    d = os.path.join(base, "stand-ins")
    for name in STAND_INS:
        write(os.path.join(d, name), STAND_IN, 0o755)
    # CLAUDE_ENV_FILE is sourced by the Bash tool after its shell snapshot, which resets PATH: this is the one
    # place that puts the stand-ins first for the Bash tool only (Claude Code's own git and the hook see the real
    # programs)
    env_file = os.path.join(base, "bash-env.sh")
    write(env_file, "export PATH=%s:\"$PATH\"\n" % shlex.quote(d))
    return env_file


class Suite:
    def __init__(self, opts, base, claude, reasons):
        self.opts, self.base, self.claude, self.reasons = opts, base, claude, reasons
        self.template = make_template(base)
        self.env_file = make_stand_ins(base)
        self.path = os.pathsep.join(d for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
                                    if os.path.isabs(d))
        self.user = pwd.getpwuid(os.geteuid()).pw_name
        self.shells = {"bash": shutil.which("bash") or "/bin/bash", "zsh": shutil.which("zsh")}
        self.cds = None
        self.counter = 0
        self.lock = threading.Lock()

    def shell_of(self, case):
        """The user's shell for a case: --shell, else the case's `shell`, else bash. Claude Code runs the shell that
        $SHELL names when it is bash or zsh (docs/CLAUDE-CODE.md section S)."""
        return self.opts.shell or case.get("shell") or "bash"

    def unshare(self):
        return ["unshare", "--net", "--mount", "--pid", "--fork", "--mount-proc", "--kill-child"]

    def run_dir(self, case, mode):
        with self.lock:
            self.counter += 1
            n = self.counter
        return os.path.join(self.base, "runs", "%03d-%s-%s" % (n, re.sub(r"[^A-Za-z0-9_.-]", "_", case["id"])[:40],
                                                               mode))

    def prepare(self, case, mode):
        """Makes the run directory and its config; returns (run dir, the case as run)."""
        run = self.run_dir(case, mode)
        work, home, rec, xdg = (os.path.join(run, d) for d in ("work", "home", "rec", "xdg"))
        shutil.copytree(self.template, work, symlinks=True)
        write(os.path.join(run, OUTSIDE[0]), OUTSIDE[1])
        os.makedirs(rec)
        os.makedirs(xdg, mode=0o700)
        m = mapper(self.opts.case_root, work)
        as_run = {"command": m(case["command"])}
        for k in ("allow", "ask", "deny", "additionalDirectories"):
            as_run[k] = [m(x) for x in case.get(k) or []]
        cwd = case.get("cwd") or "."
        start = os.path.normpath(m(cwd) if os.path.isabs(m(cwd)) else os.path.join(work, cwd))
        if not (start == work or start.startswith(work + "/")):
            raise SetupError("%s: cwd %s is not inside the work directory (%s)" % (case["_where"], cwd,
                                                                                 self.opts.case_root))
        os.makedirs(start, exist_ok=True)
        pm = case.get("permission_mode")
        if mode == "native-default":
            pm = "default"
        perms = {k: as_run[k] for k in ("allow", "ask", "deny")}
        if as_run["additionalDirectories"]:
            perms["additionalDirectories"] = as_run["additionalDirectories"]
        settings = deep_merge({"permissions": perms}, case.get("settings") or {})
        hook = None
        shell = self.shell_of(case)
        if not self.shells.get(shell):
            raise SetupError("%s: the case's shell %s is not installed (Debian's package: %s)"
                             % (case["_where"], shell, shell))
        env = {"HOME": home, "PATH": self.path, "SHELL": self.shells[shell], "TERM": "dumb", "LANG": "C.UTF-8",
               "USER": self.user, "LOGNAME": self.user, "XDG_RUNTIME_DIR": xdg,
               "ANTHROPIC_API_KEY": "sk-ant-e2e-dummy-key", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
               "DISABLE_AUTOUPDATER": "1", "DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
               "CLAUDE_ENV_FILE": self.env_file, "BASH_DEFAULT_TIMEOUT_MS": "15000",
               "BASH_MAX_TIMEOUT_MS": "15000", "E2E_CALLS": os.path.join(rec, "calls.log")}
        for k in ("JAVA_HOME", "TZ"):
            if os.environ.get(k):
                env[k] = os.environ[k]
        if pm == "bypassPermissions":
            env["IS_SANDBOX"] = "1"     # as root, Claude Code refuses bypassPermissions without it
        if mode == "hook":
            command = self.opts.hook
            if case.get("hook_stdin") is not None:
                # the hook gets these bytes instead of Claude Code's input (each character one byte: U+0000-U+00FF),
                # to see what Claude Code makes of its answer to input it cannot read
                feed = os.path.join(rec, "hook-stdin.bin")
                with open(feed, "wb") as f:
                    f.write(case["hook_stdin"].encode("latin-1"))
                command = "sh -c %s" % shlex.quote("cat >/dev/null; exec %s < %s" % (command, shlex.quote(feed)))
            settings = deep_merge(settings, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}]}]}})
            env["COMPOUND_BASH_TRACE"] = "1"        # the hook says on stderr whether it took the warm path
            start_mode = self.opts.hook_start or case.get("hook_start") or "warm"
            if start_mode in ("warm", "cold") and self.cds:
                cache = os.path.join(home, ".claude", "compound-bash", "cache")
                os.makedirs(cache)
                os.link(self.cds, os.path.join(cache, "cds.jsa"))
            hook = {"command": self.opts.hook, "start": start_mode,
                    "env": dict(env, CLAUDE_PROJECT_DIR=work)}
        write(os.path.join(home, ".claude", "settings.json"), json.dumps(settings, indent=2) + "\n")
        write(os.path.join(home, ".bashrc"), "")
        write(os.path.join(home, ".zshrc"), "")
        setup = case.get("setup")
        if isinstance(setup, list):
            setup = "\n".join(setup)
        args = ["-p", PROMPT, "--output-format", "stream-json", "--verbose", "--include-hook-events",
                "--debug-file", os.path.join(rec, "debug.log")]
        if pm:
            args += ["--permission-mode", pm]
        cfg = {"run": run, "work": work, "home": home, "rec": rec, "start": start, "claude": self.claude,
               "args": args, "env": env, "timeout": self.opts.timeout, "command": as_run["command"],
               "hook": hook, "setup": m(setup) if setup else None,
               "setup_env": {"HOME": home, "PATH": self.path, "LANG": "C.UTF-8", "WORK": work,
                             "OUTSIDE": os.path.join(run, OUTSIDE[0])}}
        write(os.path.join(run, "config.json"), json.dumps(cfg, indent=1))
        return run, as_run

    def spawn(self, argv, timeout, log):
        """Runs argv (an unshare command line) in a process group of its own; returns its exit status or None."""
        if STOP.is_set():
            return None
        with open(log, "w") as out:
            p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True)
            with LIVE_LOCK:
                LIVE.add(p.pid)
            try:
                return p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                kill_group(p.pid)
                p.wait()
                return None
            finally:
                with LIVE_LOCK:
                    LIVE.discard(p.pid)

    def run(self, case, mode):
        """One run of a case; a run that ends without a tool result (Claude Code crashed or timed out: no verdict
        either way) is made once more, and the record says so."""
        r = self.run_once(case, mode)
        if r["outcome"] == "error" and not STOP.is_set():
            first = r["error"]
            r = self.run_once(case, mode)
            r["retried_after"] = first
        return r

    def run_once(self, case, mode):
        run, as_run = self.prepare(case, mode)
        rc = self.spawn(self.unshare() + [sys.executable, "-B", os.path.join(HERE, "sandbox.py"),
                                          os.path.join(run, "config.json")],
                        self.opts.timeout + 150, os.path.join(run, "rec", "namespace.log"))
        r = analyse(run, self.reasons)
        r["mode"], r["as_run"] = mode, as_run
        if rc is None and not r.get("error"):
            r["outcome"], r["error"] = "error", "the run was stopped after %d s" % (self.opts.timeout + 150)
        if not self.opts.keep:
            shutil.rmtree(run, ignore_errors=True)
        return r

    def train_cds(self):
        """The class-data-sharing archive a user's machine has after the first hook call: made once per suite by
        the launcher itself (its background training run), in a scratch home, inside namespaces of its own."""
        home = os.path.join(self.base, "cds-home")
        os.makedirs(home)
        jsa = os.path.join(home, ".claude", "compound-bash", "cache", "cds.jsa")
        payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": self.template,
                              "tool_input": {"command": "ls"}})
        script = ("printf '%%s\\n' %s | %s >/dev/null 2>&1; i=0; "
                  "while [ $i -lt 1800 ] && { [ ! -f %s ] || [ -d %s ]; }; do sleep 0.1; i=$((i+1)); done"
                  % (shlex.quote(payload), self.opts.hook, shlex.quote(jsa), shlex.quote(os.path.dirname(jsa) +
                                                                                     "/cds.lock")))
        env = {"HOME": home, "PATH": self.path, "COMPOUND_BASH_WARM": "0", "LANG": "C.UTF-8"}
        if os.environ.get("JAVA_HOME"):
            env["JAVA_HOME"] = os.environ["JAVA_HOME"]
        t0 = time.time()
        try:
            subprocess.run(["unshare", "--net", "--pid", "--fork", "--kill-child", "/bin/sh", "-c", script],
                           env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=240)
        except subprocess.TimeoutExpired:
            pass
        if os.path.isfile(jsa):
            self.cds = jsa
            say("class-data archive trained in %.1f s" % (time.time() - t0))
        else:
            say("warning: no class-data archive was made; warm and cold runs go without one")


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass


# ------------------------------------------------------------------------------------------------ reading a run

HOOK_DONE = re.compile(r"Hooks: PreToolUse:Bash \[.*\] finished with status (-?\d+) \((\d+)ms\)")
HOOK_TIMED_OUT = re.compile(r"Hooks: PreToolUse:Bash \[.*\] timed out after (\d+)ms \((\d+)ms\)")
HOOK_DECISION = re.compile(r"Hook PreToolUse \(.*\) returned permissionDecision: (\w+)(?: \(reason: (.*)\))?\s*$")
# Claude Code shows a hook's systemMessage as an "informational" system event with this prefix (measured, 2.1.332)
SAYS = "PreToolUse:Bash says: "


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def text_of(content):
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    return content if isinstance(content, str) else json.dumps(content)


def stand_in_calls(path):
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 20)
    except OSError:
        return []
    calls = []
    toks = data.split(b"\0")
    if toks and toks[-1] == b"":
        toks.pop()                      # every argument ends with a NUL
    for tok in toks:
        t = tok.decode("utf-8", "replace")
        if t == "E2E-CALL":
            calls.append([])
        elif calls:
            calls[-1].append(t)
    return [shlex.join(c) for c in calls if c]


def analyse(run, reasons):
    """What one run did: outcome (from the tool_result metadata), Claude Code's reason, the hook's decision and
    timing (from --debug-file and the stream's hook events), stand-in calls, changed files."""
    rec = os.path.join(run, "rec")
    try:
        box = json.loads(read(os.path.join(rec, "sandbox.json")) or "{}")
    except ValueError:
        box = {}
    r = {"outcome": None, "reason": None, "kind": None, "source": None, "output": None, "error": None,
         "seconds": box.get("seconds"), "claude_exit": box.get("claude_exit"), "files": box.get("files", []),
         "calls": stand_in_calls(os.path.join(rec, "calls.log")), "warm_up": box.get("warm_up"),
         "isolation_warnings": box.get("isolation") or []}
    events = []
    for line in read(os.path.join(rec, "stream.jsonl")).splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if isinstance(o, dict):
            events.append(o)
    result = None
    for o in events:
        if o.get("type") != "user":
            continue
        blocks = [b for b in (o.get("message") or {}).get("content") or []
                  if isinstance(b, dict) and b.get("type") == "tool_result"]
        if blocks:
            result = (blocks[0], (o.get("tool_result_meta") or [{}])[0] or {}, o.get("tool_use_result"))
            break
    if box.get("error"):
        r["outcome"], r["error"] = "error", box["error"]
    elif not box:
        r["outcome"], r["error"] = "error", "the sandbox did not finish: " + cut(read(os.path.join(rec, "namespace.log")), 500)
    elif result:
        block, meta, tur = result
        decision = meta.get("permission_decision") or {}
        r["source"] = decision.get("source")
        r["kind"] = meta.get("non_execution_kind")
        if decision.get("decision") == "accept":
            r["outcome"] = "ran"
            r["output"] = cut(tur.get("stdout") if isinstance(tur, dict) else text_of(block.get("content")), 1000)
        elif r["kind"] in reasons.outcome_of_kind:
            r["outcome"] = reasons.outcome_of_kind[r["kind"]]
            r["reason"] = text_of(block.get("content"))
        else:
            r["outcome"], r["reason"] = "error", text_of(block.get("content"))
            r["error"] = "tool_result metadata not understood: %s" % json.dumps(meta)[:300]
    else:
        r["outcome"] = "error"
        r["error"] = ("Claude Code timed out" if box.get("timed_out") else
                      "Claude Code exited %s without a tool result" % box.get("claude_exit"))
        err = read(os.path.join(rec, "stderr.txt")).strip()
        if err:
            r["error"] += ": " + cut(err, 400)

    debug = read(os.path.join(rec, "debug.log")).splitlines()
    done = [m for m in map(HOOK_DONE.search, debug) if m]
    decided = [m for m in map(HOOK_DECISION.search, debug) if m]
    timed_out = [m for m in map(HOOK_TIMED_OUT.search, debug) if m]
    started = [o for o in events if o.get("type") == "system" and o.get("subtype") == "hook_started"
               and o.get("hook_event") == "PreToolUse"]
    responses = [o for o in events if o.get("type") == "system" and o.get("subtype") == "hook_response"
                 and o.get("hook_event") == "PreToolUse"]
    hook = None
    if done or decided or started or timed_out:
        resp = responses[0] if responses else {}
        hook = {"decision": None, "reason": None, "exit": int(done[0].group(1)) if done else resp.get("exit_code"),
                "ms": int(done[0].group(2)) if done else int(timed_out[0].group(2)) if timed_out else None,
                "stdout": cut(resp.get("stdout"), 1000), "stderr": cut(resp.get("stderr"), 1000),
                "finished": bool(done or responses) and not timed_out}
        stderr = resp.get("stderr") or ""
        hook["path"] = "warm" if "compound-bash: warm" in stderr else "cold" if "compound-bash: cold" in stderr else None
        if timed_out:
            hook["decision"] = "timeout"    # Claude Code cancelled it and went on as if there were no hook
        elif decided:
            hook["decision"], hook["reason"] = decided[0].group(1), decided[0].group(2)
        elif hook["exit"] == 2:
            hook["decision"], hook["reason"] = "deny", stderr.strip() or None
        elif hook["exit"] not in (0, None):
            hook["decision"], hook["reason"] = "error", "exit %s: %s" % (hook["exit"], stderr.strip())
        elif hook["finished"]:
            hook["decision"] = "defer"
        else:
            hook["decision"] = "none"
    r["hook"] = hook
    # what Claude Code showed the user from the hook's systemMessage (measured: an "informational" system event)
    r["messages"] = [o.get("content")[len(SAYS):] for o in events if o.get("type") == "system"
                     and o.get("subtype") == "informational" and isinstance(o.get("content"), str)
                     and o["content"].startswith(SAYS)]
    return r


# ------------------------------------------------------------------------------------------------ verdicts

def judge(case, runs, reasons):
    """The checks (a), (b), (c) and prompt_removed for one case; returns the record's verdict fields."""
    nat, hk, dflt = runs["native"], runs["hook"], runs.get("native-default")
    hook = hk.get("hook") or {}
    decision = hook.get("decision") or "none"
    fails, notes = [], []
    for label, r in (("native", nat), ("with hook", hk), ("native in default mode", dflt)):
        if r and r["outcome"] == "error":
            fails.append("%s run: %s" % (label, r["error"]))
    exp = as_list(case.get("expected"))
    if exp is not None and decision not in exp:
        fails.append("hook decision: expected %s, got %s" % ("|".join(exp), decision))
    for field, r in (("native", nat), ("with_hook", hk)):
        want = as_list(case.get(field))
        if want is not None and r["outcome"] not in want:
            fails.append("%s outcome: expected %s, got %s" % (field, "|".join(want), r["outcome"]))
    if case.get("message") is not None and not any(case["message"] in m for m in hk.get("messages") or []):
        fails.append("message: expected Claude Code to show the hook's line holding %r; it showed %s"
                     % (case["message"], hk.get("messages") or "none"))
    kind = why = None
    if nat["outcome"] in ("refused", "denied"):
        kind, why = reasons.classify(nat["reason"], nat["as_run"]["command"], case.get("permission_mode"), dflt)
        if kind == "unclassified":
            notes.append("Claude Code's reason is not in reasons.json (counted as its own): " + cut(nat["reason"], 160))
    weaker = nat["outcome"] in ("refused", "denied") and kind != "cannot-read" and hk["outcome"] == "ran"
    if weaker:
        fails.append("weaker than Claude Code: natively %s for a reason of its own (%s), ran with the hook"
                     % (nat["outcome"], why or "unclassified"))
    removed = nat["outcome"] in ("refused", "denied") and kind == "cannot-read" and hk["outcome"] == "ran"
    stricter = nat["outcome"] == "ran" and hk["outcome"] in ("refused", "denied")
    if case.get("prompt_removed") and not (removed and decision == "allow"):
        fails.append("prompt_removed: expected natively refused for a cannot-read reason, hook allow and ran; got "
                     "native %s (%s), hook %s, with hook %s" % (nat["outcome"], kind or "-", decision, hk["outcome"]))
    if hook and not hook.get("finished"):
        fails.append("the hook did not finish within its %d s timeout%s" % (
            HOOK_TIMEOUT_S, " (cancelled after %d ms)" % hook["ms"] if hook.get("ms") else ""))
    elif hook.get("ms") is not None and hook["ms"] >= HOOK_TIMEOUT_S * 1000:
        fails.append("the hook took %d ms, at or over its %d s timeout" % (hook["ms"], HOOK_TIMEOUT_S))
    if not hook and hk["outcome"] != "error":
        fails.append("the hook did not run")
    for label, r in (("native", nat), ("with hook", hk), ("native in default mode", dflt)):
        if r and r.get("retried_after"):
            notes.append("%s run made twice; the first ended: %s" % (label, cut(r["retried_after"], 200)))
    wu = hk.get("warm_up")
    if wu and hook.get("path") != "warm":
        notes.append("the hook was to start warm, but Claude Code's call took the %s path (warm-up: the evaluator "
                     "%s; the second call %s)" % (hook.get("path") or "?", "started" if wu.get("evaluator") else
                                                  "did not start", "was warm" if wu.get("warm") else "was not warm"))
    return {"result": "FAIL" if fails else "PASS", "failures": fails, "notes": notes, "native_class": kind,
            "native_class_why": why, "prompt_removed_seen": removed, "stricter": stricter, "weaker": weaker,
            "hook_decision": decision}


def record(case, runs, verdict, version):
    o = {k: v for k, v in case.items() if not k.startswith("_")}
    o.update(verdict)
    o["claude_code"] = version
    for mode, r in runs.items():
        prefix = {"native": "native_", "hook": "with_hook_", "native-default": "native_default_"}[mode]
        for k in ("outcome", "reason", "kind", "source", "output", "error", "seconds", "calls", "files", "messages",
                  "isolation_warnings", "retried_after"):
            o[prefix + k] = r.get(k)
        if r["as_run"]["command"] != case["command"]:
            o[prefix + "as_run"] = r["as_run"]
    h = runs["hook"].get("hook") or {}
    for k in ("reason", "ms", "path", "exit", "stdout", "stderr"):
        o["hook_" + k] = h.get(k)
    o["hook_start"] = runs["hook"].get("start")
    o["shell"] = runs["hook"].get("shell")
    o["warm_up"] = runs["hook"].get("warm_up")
    return o


def line(case, runs, v, verbose, width):
    nat, hk = runs["native"], runs["hook"]
    h = hk.get("hook") or {}
    nat_txt = nat["outcome"] + ("(%s)" % v["native_class"] if v["native_class"] else "")
    timing = ("%dms %s" % (h["ms"], h.get("path") or hk.get("start"))) if h.get("ms") is not None else "-"
    cols = [v["result"], case["id"].ljust(width), nat_txt.ljust(20), v["hook_decision"].ljust(6), timing.ljust(13),
            hk["outcome"].ljust(8), ("[zsh] " if hk.get("shell") == "zsh" else "")
            + cut(case["command"].replace("\n", "\\n"), 60)]
    out = ["  ".join(cols)]
    out += ["      FAIL: " + f for f in v["failures"]]
    out += ["      note: " + n for n in v["notes"]]
    if verbose:
        if nat.get("reason"):
            out.append("      native: " + cut(nat["reason"].replace("\n", " "), 220))
        if v["native_class_why"]:
            out.append("      class: %s (%s)" % (v["native_class"], v["native_class_why"]))
        if h.get("reason"):
            out.append("      hook: " + cut(h["reason"].replace("\n", " "), 220))
        if hk.get("reason"):
            out.append("      with hook: " + cut(hk["reason"].replace("\n", " "), 220))
    return "\n".join(out)


def summary(records, seconds):
    n = len(records)
    failed = [r for r in records if r["result"] == "FAIL"]
    marked = [r for r in records if r.get("prompt_removed")]
    out = ["", "%d cases in %.0f s: %d passed, %d failed" % (n, seconds, n - len(failed), len(failed))]
    if failed:
        out.append("  failed: " + " ".join(r["id"] for r in failed))
    removed = [r for r in records if r["prompt_removed_seen"]]
    notes = []
    if any(r["result"] == "FAIL" for r in removed):
        notes.append("%d of them in failed cases" % sum(r["result"] == "FAIL" for r in removed))
    if marked:
        notes.append("%d of the %d cases marked prompt_removed" % (sum(r["prompt_removed_seen"] for r in marked),
                                                                   len(marked)))
    out.append("prompt removed (natively refused for a cannot-read reason, ran with the hook): %d%s"
               % (len(removed), " (%s)" % "; ".join(notes) if notes else ""))
    out.append("stricter than Claude Code (natively ran, refused or denied with the hook): %d"
               % sum(r["stricter"] for r in records))
    out.append("weaker than Claude Code (natively refused for a reason of its own, ran with the hook): %d"
               % sum(r["weaker"] for r in records))
    by_path = {}
    for r in records:
        if r.get("hook_ms") is not None:
            by_path.setdefault(r.get("hook_path") or r.get("hook_start") or "?", []).append(r["hook_ms"])
    if by_path:
        out.append("hook call, as Claude Code timed it (timeout %d s): " % HOOK_TIMEOUT_S + "; ".join(
            "%s path %d calls, median %d ms, max %d ms" % (p, len(ms), statistics.median(ms), max(ms))
            for p, ms in sorted(by_path.items())))
    firsts = [r["warm_up"]["first"]["ms"] for r in records if r.get("warm_up")]
    if firsts:
        out.append("warm-up: the first call of a fresh home (cold, starts the evaluator) median %d ms, max %d ms"
                   % (statistics.median(firsts), max(firsts)))
    unclassified = sorted({r["native_reason"] for r in records if r["native_class"] == "unclassified"})
    for u in unclassified:
        out.append("reason not in reasons.json: " + cut(u.replace("\n", " "), 200))
    return "\n".join(out)


# ------------------------------------------------------------------------------------------------ main

def parse_args(argv):
    ap = argparse.ArgumentParser(add_help=False, usage=argparse.SUPPRESS)
    ap.add_argument("-h", "--help", action="store_true")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--out")
    ap.add_argument("--only")
    ap.add_argument("--hook", default=shlex.quote(os.path.join(REPO, "bin", "compound-bash")) + " hook")
    ap.add_argument("--hook-start", choices=STARTS)
    ap.add_argument("--shell", choices=SHELLS)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--case-root", default="/home/dev/proj")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("cases", nargs="*")

    def error(msg):
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        raise SetupError(msg)
    ap.error = error
    o = ap.parse_args(argv)
    if o.help:
        print(__doc__.strip())
        sys.exit(0)
    if not o.cases:
        error("no case file given")
    if o.j < 1 or o.timeout <= 0:
        error("-j and --timeout must be positive")
    return o


def main(argv):
    opts = parse_args(argv)
    cases = load_cases(opts.cases, opts.case_root)
    if opts.only:
        try:
            cases = [c for c in cases if re.search(opts.only, c["id"])]
        except re.error as e:
            raise SetupError("--only: %s" % e)
    if not cases:
        raise SetupError("no cases to run")
    if os.geteuid() != 0:
        raise SetupError("must run as root: every run gets network, mount and PID namespaces (unshare)")
    for tool in ("unshare", "git"):
        if not shutil.which(tool):
            raise SetupError("%s is not on PATH" % tool)
    words = shlex.split(opts.hook)
    default_hook = os.path.basename(words[0]) == "compound-bash"
    if default_hook and not os.path.isfile(os.path.join(os.path.dirname(os.path.dirname(words[0])),
                                                        "target", "compound-bash.jar")):
        raise SetupError("target/compound-bash.jar is missing: build it first (mvn -B -q -DskipTests package)")
    reasons = Reasons(os.path.join(HERE, "reasons.json"))
    base = tempfile.mkdtemp(prefix="compound-bash-e2e.")
    t0 = time.time()
    try:
        check = os.path.join(base, "check")
        os.makedirs(check)
        p = subprocess.run(["unshare", "--net", "--mount", "--pid", "--fork", "--mount-proc", "--kill-child",
                            sys.executable, "-B", os.path.join(HERE, "sandbox.py"), "--check", check],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            raise SetupError("the namespaces cannot be set up here: " + (p.stderr.strip() or "exit %d" % p.returncode))
        scratch = os.path.join(base, "scratch")
        os.makedirs(scratch)
        claude, version = find_claude(scratch)
        say("Claude Code %s (%s); %d cases, -j %d" % (version, claude, len(cases), opts.j))
        suite = Suite(opts, base, claude, reasons)
        if default_hook and any((opts.hook_start or c.get("hook_start") or "warm") != "first" for c in cases):
            suite.train_cds()
        records = run_all(suite, cases, version)
        print(summary(records, time.time() - t0), flush=True)
        return 0 if all(r["result"] == "PASS" for r in records) else 1
    finally:
        if opts.keep:
            say("run directories kept in %s" % base)
        else:
            shutil.rmtree(base, ignore_errors=True)


def run_all(suite, cases, version):
    opts = suite.opts
    jobs = []
    for i, c in enumerate(cases):
        jobs += [(i, "hook"), (i, "native")]
        if c.get("permission_mode") in ("dontAsk", "auto"):
            # what Claude Code would ask in default mode explains a don't-ask denial, and an auto-mode denial
            # while its classifier is unavailable (offline), which names no reason of its own either
            jobs.append((i, "native-default"))
    need = [sum(1 for j in jobs if j[0] == i) for i in range(len(cases))]
    runs = [dict() for _ in cases]
    width = min(28, max(len(c["id"]) for c in cases))
    print("  ".join(["result", "id".ljust(width), "native".ljust(20), "hook".ljust(6), "hook time".ljust(13),
                     "with hook", "command"]), flush=True)
    out = open(opts.out, "w", encoding="utf-8") if opts.out else None
    records, nxt = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.j) as ex:
        futures = {ex.submit(suite.run, cases[i], mode): (i, mode) for i, mode in jobs}
        try:
            for fut in concurrent.futures.as_completed(futures):
                i, mode = futures[fut]
                try:
                    r = fut.result()
                except Exception as e:      # one broken run is reported; the others go on
                    r = {"outcome": "error", "error": "%s: %s" % (type(e).__name__, e), "hook": None,
                         "as_run": {"command": cases[i]["command"]}}
                if mode == "hook":
                    r["start"] = opts.hook_start or cases[i].get("hook_start") or "warm"
                    r["shell"] = suite.shell_of(cases[i])
                runs[i][mode] = r
                while nxt < len(cases) and len(runs[nxt]) == need[nxt]:
                    v = judge(cases[nxt], runs[nxt], suite.reasons)
                    print(line(cases[nxt], runs[nxt], v, opts.verbose, width), flush=True)
                    rec = record(cases[nxt], runs[nxt], v, version)
                    records.append(rec)
                    if out:
                        out.write(json.dumps(rec, ensure_ascii=False) + "\n")
                        out.flush()
                    nxt += 1
        except KeyboardInterrupt:
            STOP.set()
            for f in futures:
                f.cancel()
            with LIVE_LOCK:
                for pg in list(LIVE):
                    kill_group(pg)
            raise
    if out:
        out.close()
    return records


def on_term(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_term)
    try:
        sys.exit(main(sys.argv[1:]))
    except SetupError as e:
        say(str(e))
        sys.exit(2)
    except KeyboardInterrupt:
        STOP.set()
        with LIVE_LOCK:
            for pg in list(LIVE):
                kill_group(pg)
        say("interrupted")
        sys.exit(130)
