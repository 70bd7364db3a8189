"""One run of an agent's real CLI (Codex, Gemini CLI, Copilot CLI), as the first process of the namespaces agents.py
makes (unshare --net --mount --pid ...): the isolation of sandbox.py (loopback only, everything read-only but the run
directory and a throwaway /tmp, PID 1 of its namespace), then the case's setup, the hook's warm start, the mock of the
agent's model API (mock_agents.py) on 127.0.0.1, and the client once, with the arguments and environment in the
config. `__MOCK_PORT__` in the config's environment values and in its `port_files` becomes the mock's port.

    agent_sandbox.py RUN/config.json

Recorded in RUN/rec: client.out (the client's stdout: its JSON event stream), client.err, mock.jsonl, calls.log (the
stand-ins' calls), sandbox.json (timings, the warm start, changed files, setup output).
"""
import json
import os
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mock_agents  # noqa: E402
import sandbox  # noqa: E402


def hook_call(hook, payload, cwd):
    """Runs the hook once on an input of the agent's format. Returns a record."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(["/bin/sh", "-c", hook["command"]], input=json.dumps(payload), cwd=cwd,
                           env=hook["env"], capture_output=True, text=True, timeout=60)
        rc, out, err = p.returncode, p.stdout.strip(), p.stderr.strip()
    except subprocess.TimeoutExpired:
        rc, out, err = None, "", "timed out after 60 s"
    return {"ms": int((time.monotonic() - t0) * 1000), "exit": rc, "stdout": out[-300:], "stderr": err[-300:]}


def warm_up(hook, work):
    """As on a user's machine: the first call (cold) has started the evaluator; wait until it answers, then one more
    call that should take the warm path."""
    rec = {"first": hook_call(hook, hook["warm_input"], work)}
    runtime = os.path.join(hook["env"].get("XDG_RUNTIME_DIR", ""), "compound-bash")
    t0 = time.monotonic()
    while time.monotonic() - t0 < 60 and sandbox.evaluator_pid(runtime) is None:
        time.sleep(0.1)
    rec["evaluator_ready_ms"] = int((time.monotonic() - t0) * 1000)
    rec["evaluator"] = sandbox.evaluator_pid(runtime) is not None
    rec["second"] = hook_call(hook, hook["warm_input"], work)
    rec["warm"] = "compound-bash: warm" in rec["second"]["stderr"]
    return rec


def run_case(cfg):
    run, rec, work, home = cfg["run"], cfg["rec"], cfg["work"], cfg["home"]
    outside = os.path.dirname(work)
    result = {"isolation": None, "interfaces": None}

    def finish(code):
        with open(os.path.join(rec, "sandbox.json"), "w") as f:
            json.dump(result, f, indent=1)
        return code

    try:
        result["isolation"] = sandbox.isolate(run)
        result["interfaces"] = sandbox.interfaces()
    except (sandbox.IsolationError, OSError) as e:
        result["error"] = "isolation: %s" % e
        return finish(3)
    if cfg.get("setup"):
        p = subprocess.run(["/bin/bash", "-euc", cfg["setup"]], cwd=work, env=cfg["setup_env"],
                           capture_output=True, text=True)
        result["setup"] = {"exit": p.returncode, "output": (p.stdout + p.stderr)[-2000:]}
        if p.returncode != 0:
            result["error"] = "setup exited %d: %s" % (p.returncode, (p.stdout + p.stderr).strip()[-500:])
            return finish(3)
    skip_home = tuple(cfg.get("home_skip") or ())
    skip_out = (os.path.basename(work), "home", "rec", "xdg")
    before = (sandbox.snapshot(work, skip=(".git",)), sandbox.snapshot(home, skip=skip_home),
              sandbox.snapshot(outside, skip=skip_out))
    if cfg.get("hook"):
        result["warm_up"] = warm_up(cfg["hook"], work)
    server = mock_agents.serve(cfg["mock"], cfg["command"], os.path.join(rec, "mock.jsonl"), cfg.get("tool_args"))
    port = str(server.server_address[1])
    for f in cfg.get("port_files") or []:
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        with open(f, "w", encoding="utf-8") as fh:
            fh.write(text.replace("__MOCK_PORT__", port))
    env = {k: v.replace("__MOCK_PORT__", port) for k, v in cfg["env"].items()}
    t0 = time.monotonic()
    with open(os.path.join(rec, "client.out"), "wb") as out, open(os.path.join(rec, "client.err"), "wb") as err:
        p = subprocess.Popen([cfg["client"]] + cfg["args"], cwd=cfg["start"], env=env, stdin=subprocess.DEVNULL,
                             stdout=out, stderr=err, start_new_session=True)
        try:
            result["client_exit"] = p.wait(timeout=cfg["timeout"])
            result["timed_out"] = False
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            result["client_exit"] = p.wait()
            result["timed_out"] = True
    result["seconds"] = round(time.monotonic() - t0, 2)
    server.shutdown()
    result["files"] = (sandbox.changes(before[0], sandbox.snapshot(work, skip=(".git",)), "work")
                       + sandbox.changes(before[1], sandbox.snapshot(home, skip=skip_home), "~")
                       + sandbox.changes(before[2], sandbox.snapshot(outside, skip=skip_out), "work/.."))
    return finish(0)


def main(argv):
    with open(argv[0]) as f:
        return run_case(json.load(f))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
