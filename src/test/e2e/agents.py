#!/usr/bin/env python3
"""usage: agents.py --agent codex|gemini|copilot [-j N] [--out FILE.jsonl] [--only REGEX] [--timeout S] [--keep] [-v]
                 CASES.jsonl...

compound-bash's end-to-end test inside the real Codex CLI, Gemini CLI and GitHub Copilot CLI (docs/AGENTS.md). Each
case's command is run through the agent's CLI twice, headless: natively (the agent's own rules only) and with the
hook, installed by this checkout's own `compound-bash install --agent AGENT` (Codex: trusted by it too). A mock of the
agent's model API on 127.0.0.1 (mock_agents.py: OpenAI Responses for Codex, the Gemini API for Gemini CLI, OpenAI
Chat Completions for Copilot CLI's custom-provider mode) asks for one shell call with the case's command, then ends
the session. Every run has its own network (loopback only), mount and PID namespaces (agent_sandbox.py, sandbox.py),
a fresh HOME and a fresh work directory (the one e2e.py uses); destructive programs are stand-ins on the shell tool's
PATH (e2e.py's STAND_INS).

What it checks, per case and agent:
  (a) the hook's decision (its decision log, ~/.claude/logs/compound-bash.jsonl of the run) is `expected`;
  (b) what the client did with the call (ran / refused / denied, read from what the client reported: Codex's
      function_call_output to the model, Gemini CLI's stream-json tool_result, Copilot CLI's JSON
      tool.execution_complete) is `native` / `with_hook`;
  (c) never weaker: a command the agent refuses or denies natively does not run with the hook, unless the case says
      `prompt_removed` (the hook proves it safe where the agent refuses only for not being able to tell).
Exit status: 0 when every case passed, 1 when one failed, 2 on a usage or setup error.

Cases (JSONL, `#` lines skipped): `id`, `command`; `allow`, `ask`, `deny` (compound-bash's own settings file, with the
hook only), `setup`, `cwd` as for e2e.py; `before` (commands the model runs first, each its own shell call, in the same
session: what the agent's shell keeps between calls); and one object per agent, `codex`, `gemini`, `copilot` (a case without the
agent's object is not run for it): `expected`, `native`, `with_hook` (a value or a list), `prompt_removed`, `why`,
`args` (extra command-line arguments of the client), `rules` (Codex: a rules file's text, ~/.codex/rules/case.rules),
`policy` (Gemini CLI: a policy file's text, ~/.gemini/policies/case.toml), `settings` (merged into the agent's own
settings file), `tool_args` (Codex: more arguments of the model's exec_command call, e.g. `sandbox_permissions:
"require_escalated"`, which with `--approve-for-me` makes Codex ask: its PermissionRequest hook). Both runs get the
agent's own rules; only the hook run gets compound-bash's. `expected: "none"`: the agent never calls the hook.

Clients: $COMPOUND_BASH_E2E_CODEX / _GEMINI / _COPILOT when set (an executable), else the npm package at the
version in AGENTS below, installed once with npm into ${XDG_CACHE_HOME:-~/.cache}/compound-bash-e2e/agents/.
Needs root (namespaces), unshare, git, bash, a JDK, the built jar, and npm for the first run.
"""
import argparse
import concurrent.futures
import fcntl
import json
import os
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

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import e2e  # noqa: E402  (the work directory, the stand-ins, case loading)

REPO = e2e.REPO
PROMPT = "Run the command."
OUTCOMES = ("ran", "refused", "denied")
DECISIONS = ("allow", "deny", "ask", "defer", "none")   # none: the agent never called the hook

AGENTS = {
    "codex": {"package": "@openai/codex", "version": "0.169.0", "bin": "codex", "mock": "responses"},
    "gemini": {"package": "@google/gemini-cli", "version": "0.61.0", "bin": "gemini", "mock": "gemini"},
    "copilot": {"package": "@github/copilot", "version": "1.0.102", "bin": "copilot", "mock": "chat"},
}
# Files in HOME the clients and the hook write for themselves: not a command's doing.
HOME_SKIP = (".claude", ".codex", ".gemini", ".copilot", ".cache", ".config", ".local", ".npm", ".bash_profile",
             ".bashrc", "bash-env.sh")

LIVE = set()
LIVE_LOCK = threading.Lock()
STOP = threading.Event()
say = e2e.say
cut = e2e.cut
as_list = e2e.as_list
SetupError = e2e.SetupError


# ------------------------------------------------------------------------------------------------ the clients

def client_version(exe, scratch):
    try:
        p = subprocess.run(["unshare", "--net", exe, "--version"], capture_output=True, text=True, timeout=120,
                           env={"HOME": scratch, "PATH": os.environ.get("PATH", "/usr/bin:/bin")})
    except (OSError, subprocess.TimeoutExpired):
        return None
    return (p.stdout + p.stderr).strip().splitlines()[0] if p.returncode == 0 and (p.stdout + p.stderr).strip() else None


def find_client(agent, scratch):
    """(executable, version text) of the agent's CLI: $COMPOUND_BASH_E2E_<AGENT>, or the cached npm install."""
    a = AGENTS[agent]
    given = os.environ.get("COMPOUND_BASH_E2E_" + agent.upper())
    if given:
        v = client_version(given, scratch)
        if not v:
            raise SetupError("COMPOUND_BASH_E2E_%s=%s does not answer --version" % (agent.upper(), given))
        return os.path.abspath(given), v
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    prefix = os.path.join(cache, "compound-bash-e2e", "agents", "%s-%s" % (agent, a["version"]))
    exe = os.path.join(prefix, "node_modules", ".bin", a["bin"])

    def ready():
        v = client_version(exe, scratch) if os.access(exe, os.X_OK) else None
        if not v or a["version"] not in v:
            return None
        # Copilot CLI's platform binary runs without node: its shell tool's PATH starts with the stand-ins, node
        # among them
        native = os.path.join(prefix, "node_modules", "@github", "copilot-linux-x64", "copilot")
        if agent == "copilot" and os.access(native, os.X_OK):
            return native, v
        return os.path.realpath(exe), v

    found = ready()
    if found:
        return found
    npm = shutil.which("npm")
    if not npm:
        raise SetupError("%s %s is not in %s and npm is not on PATH" % (a["package"], a["version"], prefix))
    os.makedirs(os.path.dirname(prefix), exist_ok=True)
    with open(prefix + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = ready()
        if found:
            return found
        say("installing %s@%s with npm into %s (once)" % (a["package"], a["version"], prefix))
        shutil.rmtree(prefix, ignore_errors=True)
        p = subprocess.run([npm, "install", "--prefix", prefix, "--no-fund", "--no-audit", "--loglevel=error",
                            "%s@%s" % (a["package"], a["version"])], stdin=subprocess.DEVNULL, stdout=sys.stderr)
        if p.returncode != 0:
            raise SetupError("npm install %s@%s failed (exit %d)" % (a["package"], a["version"], p.returncode))
    found = ready()
    if not found:
        raise SetupError("%s installed into %s does not run" % (a["package"], prefix))
    return found


# ------------------------------------------------------------------------------------------------ cases

def load_cases(paths, case_root, agent):
    """e2e.py's cases, each with the agent's object (`expectations`) merged in; cases without it left out."""
    out = []
    for c in e2e.load_cases(paths, case_root):
        block = c.get(agent)
        if not isinstance(block, dict):
            continue
        for k, allowed in (("expected", DECISIONS), ("native", OUTCOMES), ("with_hook", OUTCOMES)):
            vs = as_list(block.get(k))
            if vs is not None and (not vs or any(x not in allowed for x in vs)):
                raise SetupError("%s: `%s.%s` must be one of %s" % (c["_where"], agent, k, "|".join(allowed)))
        out.append(c)
    return out


# ------------------------------------------------------------------------------------------------ one run

def warm_input(agent, work):
    if agent == "codex":
        return {"session_id": "e2e-warm-up", "turn_id": "t", "transcript_path": None, "cwd": work,
                "hook_event_name": "PreToolUse", "model": "m", "permission_mode": "default", "tool_name": "Bash",
                "tool_input": {"command": "true"}, "tool_use_id": "u"}
    if agent == "gemini":
        return {"session_id": "e2e-warm-up", "transcript_path": "", "cwd": work, "hook_event_name": "BeforeTool",
                "timestamp": "2026-01-01T00:00:00Z", "tool_name": "run_shell_command",
                "tool_input": {"command": "true"}}
    return {"sessionId": "e2e-warm-up", "timestamp": 0, "cwd": work, "toolName": "bash",
            "toolArgs": {"command": "true"}}


class Suite:
    def __init__(self, opts, base, client):
        self.opts, self.base, self.client = opts, base, client
        self.agent = opts.agent
        self.template = e2e.make_template(base)
        self.stand_ins = os.path.join(base, "stand-ins")
        for name in e2e.STAND_INS:
            e2e.write(os.path.join(self.stand_ins, name), e2e.STAND_IN, 0o755)
        self.path = os.pathsep.join(d for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
                                    if os.path.isabs(d))
        self.jar = os.path.join(REPO, "target", "compound-bash.jar")
        self.launcher = os.path.join(REPO, "bin", "compound-bash")
        self.counter = 0
        self.lock = threading.Lock()

    def run_dir(self, case, mode):
        with self.lock:
            self.counter += 1
            n = self.counter
        return os.path.join(self.base, "runs", "%03d-%s-%s" % (n, re.sub(r"[^A-Za-z0-9_.-]", "_", case["id"])[:40],
                                                               mode))

    def hook_command(self):
        cmd = shlex.quote(self.launcher) + " hook --agent " + self.agent
        if self.agent == "codex":
            return cmd          # Codex's process PATH is the real one; the stand-ins come from the login shell
        return "env PATH=%s %s" % (shlex.quote(self.path), cmd)

    def prepare(self, case, mode):
        agent, block = self.agent, case[self.agent]
        run = self.run_dir(case, mode)
        work, home, rec, xdg = (os.path.join(run, d) for d in ("work", "home", "rec", "xdg"))
        shutil.copytree(self.template, work, symlinks=True)
        e2e.write(os.path.join(run, e2e.OUTSIDE[0]), e2e.OUTSIDE[1])
        os.makedirs(rec)
        os.makedirs(xdg, mode=0o700)
        m = e2e.mapper(self.opts.case_root, work)
        as_run = {"command": m(case["command"])}
        for k in ("allow", "ask", "deny", "additionalDirectories"):
            as_run[k] = [m(x) for x in case.get(k) or []]
        cwd = case.get("cwd") or "."
        start = os.path.normpath(m(cwd) if os.path.isabs(m(cwd)) else os.path.join(work, cwd))
        os.makedirs(start, exist_ok=True)
        # the stand-ins come first on the shell tool's PATH: login shells (Codex) read ~/.bash_profile, bash -c
        # (Gemini CLI) reads $BASH_ENV, interactive ones ~/.bashrc
        env_file = os.path.join(home, "bash-env.sh")
        e2e.write(env_file, "export PATH=%s:\"$PATH\"\n" % shlex.quote(self.stand_ins))
        for rc in (".bash_profile", ".bashrc"):
            e2e.write(os.path.join(home, rc), ". %s\n" % shlex.quote(env_file))
        env = {"HOME": home, "PATH": self.path, "SHELL": shutil.which("bash") or "/bin/bash", "TERM": "dumb",
               "LANG": "C.UTF-8", "USER": "root", "LOGNAME": "root", "XDG_RUNTIME_DIR": xdg, "NO_COLOR": "1",
               "E2E_CALLS": os.path.join(rec, "calls.log"), "COMPOUND_BASH_TRACE": "1",
               "E2E_SECRET": "e2e-secret-not-real"}
        for k in ("JAVA_HOME", "TZ"):
            if os.environ.get(k):
                env[k] = os.environ[k]
        port_files, own = [], None
        if agent == "codex":
            env["MOCK_API_KEY"] = "e2e-dummy-key"
            args = ["exec", "--json", "--skip-git-repo-check"] + list(block.get("args") or []) + [PROMPT]
            if block.get("rules"):
                e2e.write(os.path.join(home, ".codex", "rules", "case.rules"), m(block["rules"]))
        elif agent == "gemini":
            env.update({"GEMINI_API_KEY": "e2e-dummy-key", "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:__MOCK_PORT__",
                        "GEMINI_CLI_TRUST_WORKSPACE": "true", "BASH_ENV": env_file})
            args = ["-p", PROMPT, "-m", "gemini-2.5-pro", "--output-format", "stream-json"] + list(block.get("args") or [])
            if block.get("policy"):
                e2e.write(os.path.join(home, ".gemini", "policies", "case.toml"), m(block["policy"]))
        else:
            env.update({"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:__MOCK_PORT__/v1",
                        "COPILOT_PROVIDER_API_KEY": "e2e-mock-provider-key-0123456789", "COPILOT_MODEL": "gpt-4.1",
                        "COPILOT_AUTO_UPDATE": "false", "BASH_ENV": env_file,
                        "PATH": self.stand_ins + os.pathsep + self.path})
            args = ["-p", PROMPT, "--output-format", "json", "--no-auto-update"] + list(block.get("args") or [])
        hook = None
        if mode == "hook":
            perms = {k: as_run[k] for k in ("allow", "ask", "deny")}
            if as_run["additionalDirectories"]:
                perms["additionalDirectories"] = as_run["additionalDirectories"]
            own = {"permissions": perms}
            if case.get("compound_bash"):
                own["compoundBash"] = case["compound_bash"]
            e2e.write(os.path.join(home, ".config", "compound-bash", "settings.json"), json.dumps(own, indent=2) + "\n")
            p = subprocess.run(["java", "-jar", self.jar, "install", "--agent", agent, "--command", self.hook_command()],
                               env={"HOME": home, "PATH": self.path, "LANG": "C.UTF-8"}, capture_output=True, text=True)
            if p.returncode != 0:
                raise SetupError("install --agent %s: %s" % (agent, (p.stdout + p.stderr).strip()))
            hook = {"command": self.hook_command(), "env": dict(env, PATH=self.path),
                    "warm_input": warm_input(agent, work)}
        # the agent's own configuration, merged into what install wrote
        if agent == "codex":
            cfg_toml = os.path.join(home, ".codex", "config.toml")
            old = e2e.read(cfg_toml)
            top = ('model = "gpt-5-codex"\nmodel_provider = "mock"\n'
                   '[model_providers.mock]\nname = "mock"\nbase_url = "http://127.0.0.1:__MOCK_PORT__/v1"\n'
                   'wire_api = "responses"\nenv_key = "MOCK_API_KEY"\n\n')
            # top-level keys first: install's trust tables follow
            e2e.write(cfg_toml, top.split("[model_providers")[0] + old + "\n[model_providers" +
                      top.split("[model_providers")[1])
            port_files.append(cfg_toml)
        elif agent == "gemini":
            sp = os.path.join(home, ".gemini", "settings.json")
            cur = json.loads(e2e.read(sp) or "{}")
            cur = e2e.deep_merge(cur, {"security": {"auth": {"selectedType": "gemini-api-key"}}})
            cur = e2e.deep_merge(cur, block.get("settings") or {})
            e2e.write(sp, json.dumps(cur, indent=2) + "\n")
        elif block.get("settings"):
            sp = os.path.join(home, ".copilot", "settings.json")
            e2e.write(sp, json.dumps(block["settings"], indent=2) + "\n")
        setup = case.get("setup")
        if isinstance(setup, list):
            setup = "\n".join(setup)
        before = [m(x) for x in case.get("before") or []]
        cfg = {"run": run, "work": work, "home": home, "rec": rec, "start": start, "client": self.client,
               "args": args, "env": env, "timeout": self.opts.timeout,
               "command": before + [as_run["command"]] if before else as_run["command"],
               "mock": AGENTS[agent]["mock"], "tool_args": block.get("tool_args"), "hook": hook,
               "port_files": port_files, "home_skip": list(HOME_SKIP),
               "setup": m(setup) if setup else None,
               "setup_env": {"HOME": home, "PATH": self.path, "LANG": "C.UTF-8", "WORK": work,
                             "OUTSIDE": os.path.join(run, e2e.OUTSIDE[0])}}
        e2e.write(os.path.join(run, "config.json"), json.dumps(cfg, indent=1))
        return run, as_run

    def run(self, case, mode):
        r = self.run_once(case, mode)
        if r["outcome"] == "error" and not STOP.is_set():
            first = r["error"]
            r = self.run_once(case, mode)
            r["retried_after"] = first
        return r

    def run_once(self, case, mode):
        run, as_run = self.prepare(case, mode)
        argv = ["unshare", "--net", "--mount", "--pid", "--fork", "--mount-proc", "--kill-child",
                sys.executable, "-B", os.path.join(HERE, "agent_sandbox.py"), os.path.join(run, "config.json")]
        rc = spawn(argv, self.opts.timeout + 150, os.path.join(run, "rec", "namespace.log"))
        r = analyse(self.agent, run, as_run["command"])
        r["mode"], r["as_run"] = mode, as_run
        if rc is None and not r.get("error"):
            r["outcome"], r["error"] = "error", "the run was stopped after %d s" % (self.opts.timeout + 150)
        if not self.opts.keep:
            shutil.rmtree(run, ignore_errors=True)
        return r


def spawn(argv, timeout, log):
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
            e2e.kill_group(p.pid)
            p.wait()
            return None
        finally:
            with LIVE_LOCK:
                LIVE.discard(p.pid)


# ------------------------------------------------------------------------------------------------ reading a run

def json_lines(text):
    out = []
    for line in text.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if isinstance(o, dict):
            out.append(o)
    return out


def outcome(agent, rec):
    """(outcome, reason, output) of the call, as the client reported it."""
    if agent == "codex":
        last = [o for o in json_lines(e2e.read(os.path.join(rec, "mock.jsonl"))) if o.get("results")]
        for o in last[-1:]:
            if o.get("results"):
                text = o.get("result") or ""
                if "blocked by PreToolUse hook" in text:
                    return "denied", text, None
                if "rejected" in text and "Automatic approval review" not in text:
                    return "denied", text, None       # Codex's exec policy or its own dangerous-command check
                if re.search(r"(?m)^Process exited with code|^Exit code:|Process running with session", text):
                    return "ran", None, cut(text, 1000)
                return "refused", text, None
        return None, None, None
    if agent == "gemini":
        for o in [o for o in json_lines(e2e.read(os.path.join(rec, "client.out"))) if o.get("type") == "tool_result"][-1:]:
            if o.get("type") == "tool_result":
                if o.get("status") == "success":
                    return "ran", None, cut(o.get("output"), 1000)
                msg = (o.get("error") or {}).get("message") or o.get("output") or ""
                if msg.startswith("Tool execution blocked:"):
                    return "denied", msg, None
                if "Command injection detected" in (o.get("output") or ""):
                    return "refused", o.get("output"), None
                return "refused", msg, None
        return None, None, None
    done = [o for o in json_lines(e2e.read(os.path.join(rec, "client.out")))
            if o.get("type") == "tool.execution_complete" and (o.get("data") or {}).get("toolCallId")]
    for o in done[-1:]:
        if o.get("type") == "tool.execution_complete" and (o.get("data") or {}).get("toolCallId"):
            d = o["data"]
            if d.get("success"):
                return "ran", None, cut(((d.get("result") or {}).get("content")), 1000)
            msg = (d.get("error") or {}).get("message") or ""
            if msg.startswith("Denied by preToolUse hook:"):
                return "denied", msg, None
            return "refused", msg, None
    return None, None, None


def hook_decision(home, command):
    """The hook's last decision on `command` in the run's decision log, with its reason and time."""
    found = None
    for o in json_lines(e2e.read(os.path.join(home, ".claude", "logs", "compound-bash.jsonl"))):
        if o.get("command") == command and o.get("session_id") != "e2e-warm-up":
            found = o
    if not found:
        return None
    return {"decision": found.get("decision"), "reason": found.get("reason"),
            "us": found.get("duration_us")}


def analyse(agent, run, command):
    rec, home = os.path.join(run, "rec"), os.path.join(run, "home")
    try:
        box = json.loads(e2e.read(os.path.join(rec, "sandbox.json")) or "{}")
    except ValueError:
        box = {}
    r = {"outcome": None, "reason": None, "output": None, "error": None, "seconds": box.get("seconds"),
         "client_exit": box.get("client_exit"), "files": box.get("files", []),
         "calls": e2e.stand_in_calls(os.path.join(rec, "calls.log")), "warm_up": box.get("warm_up"),
         "hook": hook_decision(home, command)}
    if box.get("error"):
        r["outcome"], r["error"] = "error", box["error"]
        return r
    if not box:
        r["outcome"], r["error"] = "error", "the sandbox did not finish: " + cut(
            e2e.read(os.path.join(rec, "namespace.log")), 500)
        return r
    o, reason, output = outcome(agent, rec)
    if o is None:
        r["outcome"] = "error"
        r["error"] = ("%s timed out" % agent if box.get("timed_out") else
                      "%s exited %s without a tool result" % (agent, box.get("client_exit")))
        err = e2e.read(os.path.join(rec, "client.err")).strip()
        if err:
            r["error"] += ": " + cut(err[-600:], 600)
    else:
        r["outcome"], r["reason"], r["output"] = o, reason, output
    return r


# ------------------------------------------------------------------------------------------------ verdicts

def judge(agent, case, runs):
    block = case[agent]
    nat, hk = runs["native"], runs["hook"]
    decision = (hk.get("hook") or {}).get("decision") or "none"
    fails, notes = [], []
    for label, r in (("native", nat), ("with hook", hk)):
        if r["outcome"] == "error":
            fails.append("%s run: %s" % (label, r["error"]))
    exp = as_list(block.get("expected"))
    if exp is not None and decision not in exp:
        fails.append("hook decision: expected %s, got %s" % ("|".join(exp), decision))
    for field, r in (("native", nat), ("with_hook", hk)):
        want = as_list(block.get(field))
        if want is not None and r["outcome"] not in want:
            fails.append("%s outcome: expected %s, got %s" % (field, "|".join(want), r["outcome"]))
    weaker = nat["outcome"] in ("refused", "denied") and hk["outcome"] == "ran" and not block.get("prompt_removed")
    if weaker:
        fails.append("weaker than %s: natively %s (%s), ran with the hook" % (agent, nat["outcome"],
                                                                             cut(nat.get("reason"), 120)))
    removed = nat["outcome"] in ("refused", "denied") and hk["outcome"] == "ran"
    if block.get("prompt_removed") and not (removed and decision == "allow"):
        fails.append("prompt_removed: expected natively refused, hook allow and ran; got native %s, hook %s, "
                     "with hook %s" % (nat["outcome"], decision, hk["outcome"]))
    stricter = nat["outcome"] == "ran" and hk["outcome"] in ("refused", "denied")
    if hk["outcome"] != "error" and decision == "none" and "none" not in (exp or []):
        fails.append("the hook did not run (no decision in its log)")
    wu = hk.get("warm_up")
    if wu and not wu.get("warm"):
        notes.append("the warm-up's second call did not take the warm path")
    for label, r in (("native", nat), ("with hook", hk)):
        if r.get("retried_after"):
            notes.append("%s run made twice; the first ended: %s" % (label, cut(r["retried_after"], 200)))
    return {"result": "FAIL" if fails else "PASS", "failures": fails, "notes": notes, "stricter": stricter,
            "weaker": weaker, "prompt_removed_seen": removed and decision == "allow", "hook_decision": decision}


def record(agent, case, runs, verdict, version):
    o = {k: v for k, v in case.items() if not k.startswith("_") and k not in AGENTS}
    o.update(case[agent])
    o.update(verdict)
    o["agent"], o["client"] = agent, version
    for mode, r in runs.items():
        prefix = {"native": "native_", "hook": "with_hook_"}[mode]
        for k in ("outcome", "reason", "output", "error", "seconds", "calls", "files", "retried_after"):
            o[prefix + k] = r.get(k)
    h = runs["hook"].get("hook") or {}
    o["hook_reason"], o["hook_us"] = h.get("reason"), h.get("us")
    o["warm_up"] = runs["hook"].get("warm_up")
    return o


def line(agent, case, runs, v, verbose, width):
    nat, hk = runs["native"], runs["hook"]
    cols = [v["result"], case["id"].ljust(width), nat["outcome"].ljust(8), v["hook_decision"].ljust(6),
            hk["outcome"].ljust(8), cut(case["command"].replace("\n", "\\n"), 70)]
    out = ["  ".join(cols)]
    out += ["      FAIL: " + f for f in v["failures"]]
    out += ["      note: " + n for n in v["notes"]]
    if verbose:
        for label, r in (("native", nat), ("with hook", hk)):
            if r.get("reason"):
                out.append("      %s: %s" % (label, cut(r["reason"].replace("\n", " "), 220)))
        h = hk.get("hook") or {}
        if h.get("reason"):
            out.append("      hook: " + cut(h["reason"].replace("\n", " "), 220))
    return "\n".join(out)


def summary(agent, records, seconds):
    n = len(records)
    failed = [r for r in records if r["result"] == "FAIL"]
    out = ["", "%s: %d cases in %.0f s: %d passed, %d failed" % (agent, n, seconds, n - len(failed), len(failed))]
    if failed:
        out.append("  failed: " + " ".join(r["id"] for r in failed))
    out.append("prompts removed (natively refused, allowed by the hook, ran): %d" % sum(r["prompt_removed_seen"]
                                                                                        for r in records))
    out.append("stricter than %s (natively ran, refused or denied with the hook): %d"
               % (agent, sum(r["stricter"] for r in records)))
    out.append("weaker than %s (natively refused or denied, ran with the hook): %d"
               % (agent, sum(r["weaker"] for r in records)))
    us = [r["hook_us"] for r in records if r.get("hook_us") is not None]
    if us:
        out.append("hook evaluation (its decision log): median %.1f ms, max %.1f ms"
                   % (statistics.median(us) / 1000, max(us) / 1000))
    firsts = [r["warm_up"]["second"]["ms"] for r in records if r.get("warm_up")]
    if firsts:
        out.append("a warm hook call (launcher to answer): median %d ms, max %d ms"
                   % (statistics.median(firsts), max(firsts)))
    return "\n".join(out)


# ------------------------------------------------------------------------------------------------ main

def parse_args(argv):
    ap = argparse.ArgumentParser(add_help=False, usage=argparse.SUPPRESS)
    ap.add_argument("-h", "--help", action="store_true")
    ap.add_argument("--agent", choices=sorted(AGENTS))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--out")
    ap.add_argument("--only")
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
    if not o.agent:
        error("--agent is required")
    if not o.cases:
        error("no case file given")
    return o


def main(argv):
    opts = parse_args(argv)
    cases = load_cases(opts.cases, opts.case_root, opts.agent)
    if opts.only:
        cases = [c for c in cases if re.search(opts.only, c["id"])]
    if not cases:
        raise SetupError("no cases for %s" % opts.agent)
    if os.geteuid() != 0:
        raise SetupError("must run as root: every run gets network, mount and PID namespaces (unshare)")
    if not os.path.isfile(os.path.join(REPO, "target", "compound-bash.jar")):
        raise SetupError("target/compound-bash.jar is missing: build it first (./mvnw -B -q -DskipTests package)")
    # not below /tmp: Codex refuses to make its sandbox helpers under the temporary directory
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    parent = os.environ.get("COMPOUND_BASH_E2E_DIR") or os.path.join(cache, "compound-bash-e2e", "agents", "runs")
    os.makedirs(parent, exist_ok=True)
    base = tempfile.mkdtemp(prefix="run.", dir=parent)
    t0 = time.time()
    try:
        scratch = os.path.join(base, "scratch")
        os.makedirs(scratch)
        client, version = find_client(opts.agent, scratch)
        say("%s %s (%s); %d cases, -j %d" % (opts.agent, version, client, len(cases), opts.j))
        suite = Suite(opts, base, client)
        records = run_all(suite, cases, version)
        print(summary(opts.agent, records, time.time() - t0), flush=True)
        return 0 if all(r["result"] == "PASS" for r in records) else 1
    finally:
        if opts.keep:
            say("run directories kept in %s" % base)
        else:
            shutil.rmtree(base, ignore_errors=True)


def run_all(suite, cases, version):
    opts, agent = suite.opts, suite.agent
    jobs = [(i, mode) for i in range(len(cases)) for mode in ("hook", "native")]
    runs = [dict() for _ in cases]
    width = min(28, max(len(c["id"]) for c in cases))
    print("  ".join(["result", "id".ljust(width), "native".ljust(8), "hook".ljust(6), "with hook", "command"]),
          flush=True)
    out = open(opts.out, "w", encoding="utf-8") if opts.out else None
    records, nxt = [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.j) as ex:
        futures = {ex.submit(suite.run, cases[i], mode): (i, mode) for i, mode in jobs}
        try:
            for fut in concurrent.futures.as_completed(futures):
                i, mode = futures[fut]
                try:
                    r = fut.result()
                except Exception as e:
                    r = {"outcome": "error", "error": "%s: %s" % (type(e).__name__, e), "hook": None,
                         "as_run": {"command": cases[i]["command"]}}
                runs[i][mode] = r
                while nxt < len(cases) and len(runs[nxt]) == 2:
                    v = judge(agent, cases[nxt], runs[nxt])
                    print(line(agent, cases[nxt], runs[nxt], v, opts.verbose, width), flush=True)
                    rec = record(agent, cases[nxt], runs[nxt], v, version)
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
                    e2e.kill_group(pg)
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
                e2e.kill_group(pg)
        say("interrupted")
        sys.exit(130)
