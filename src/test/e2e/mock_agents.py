"""Stand-ins for the model APIs of Codex CLI, Gemini CLI and GitHub Copilot CLI, on 127.0.0.1 (agents.py).

serve(kind, command, log_path) starts a threaded HTTP server on a free port of 127.0.0.1 and returns it. The model it
plays does one thing: asked with the agent's shell tool on offer (or, for Gemini, whatever tools it offers: a headless
Gemini CLI leaves its shell tool out when its policy would ask), it answers with one call of that tool holding
`command`; asked again once the conversation carries the tool's result, it answers with plain text, so the run ends.
Every request is summarised in log_path, one JSON line each, with the tool result the client sent back: that is how
agents.py reads what the client did with the call.

kinds:
  responses  OpenAI Responses API (POST .../responses, SSE: response.created, response.output_item.done with a
             function_call of exec_command {cmd} / shell_command {command} / shell {command: [bash, -lc, ...]},
             whichever the client offers, response.completed); Codex CLI.
  gemini     Gemini API (POST /v1beta/models/M:streamGenerateContent?alt=sse, SSE `data:` chunks of
             GenerateContentResponse with a functionCall of run_shell_command {command, description};
             :generateContent answers the same as one JSON object; :countTokens a count); Gemini CLI.
  chat       OpenAI Chat Completions (POST .../chat/completions, stream or not; a tool_calls delta of bash
             {command, description}); Copilot CLI's custom-provider mode (COPILOT_PROVIDER_BASE_URL).
"""
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FINAL_TEXT = "Done."


def serve(kind, command, log_path, tool_args=None):
    """Starts the mock on 127.0.0.1 in a daemon thread; returns the server (call shutdown() to stop it). `command` may
    be a list: one call each, in turn, each after the previous one's result (the last is the case's). tool_args are
    more arguments of the shell call (Codex: {"sandbox_permissions": "require_escalated", "justification": ...} asks
    to run outside the sandbox)."""
    lock = threading.Lock()
    commands = command if isinstance(command, list) else [command]

    def log(entry):
        with lock, open(log_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send_json(self, code, obj):
            data = json.dumps(obj).encode()
            self.send_response(code)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def sse_start(self):
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()
            self.close_connection = True

        def do_HEAD(self):
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def do_GET(self):
            log({"method": "GET", "path": self.path})
            if kind == "chat" and self.path.rstrip("/").endswith("/models"):
                self.send_json(200, {"object": "list", "data": [{"id": "gpt-4.1", "object": "model"}]})
            else:
                self.send_json(404, {"error": {"code": 404, "message": "mock"}})

        def do_POST(self):
            size = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(size)
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            body = body if isinstance(body, dict) else {}
            getattr(self, "post_" + kind)(body)

        # ---- OpenAI Responses (Codex) ----------------------------------------------------------------------------
        def post_responses(self, body):
            path = self.path.split("?", 1)[0]
            tools = [t.get("name") or t.get("type") for t in body.get("tools") or [] if isinstance(t, dict)]
            outs = [i for i in body.get("input") or [] if isinstance(i, dict)
                    and i.get("type") in ("function_call_output", "custom_tool_call_output")]
            entry = {"method": "POST", "path": path, "tools": tools, "results": len(outs)}
            if outs:
                entry["result"] = _text(outs[-1].get("output"))[:4000]
            log(entry)
            if not path.endswith("/responses"):
                return self.send_json(404, {"error": {"message": "mock"}})
            self.sse_start()
            rid = "resp_" + uuid.uuid4().hex[:12]

            def event(data):
                self.wfile.write(("event: %s\ndata: %s\n\n" % (data["type"], json.dumps(data))).encode())
                self.wfile.flush()

            event({"type": "response.created", "response": {"id": rid}})
            if len(outs) < len(commands) and any(t in tools for t in ("exec_command", "shell_command", "shell")):
                command = commands[len(outs)]
                if "exec_command" in tools:
                    name, args = "exec_command", dict({"cmd": command}, **(tool_args or {}))
                elif "shell_command" in tools:
                    name, args = "shell_command", {"command": command}
                else:
                    name, args = "shell", {"command": ["bash", "-lc", command]}
                event({"type": "response.output_item.done", "item": {
                    "type": "function_call", "name": name, "arguments": json.dumps(args),
                    "call_id": "call_" + uuid.uuid4().hex[:12]}})
            else:
                event({"type": "response.output_item.done", "item": {
                    "type": "message", "role": "assistant", "id": "msg_" + uuid.uuid4().hex[:12],
                    "content": [{"type": "output_text", "text": FINAL_TEXT if outs else "ok"}]}})
            event({"type": "response.completed", "response": {"id": rid, "usage": {
                "input_tokens": 10, "input_tokens_details": None, "output_tokens": 5,
                "output_tokens_details": None, "total_tokens": 15}}})

        # ---- Gemini API (Gemini CLI) -------------------------------------------------------------------------------
        def post_gemini(self, body):
            path = self.path.split("?", 1)[0]
            tools = [f.get("name") for t in body.get("tools") or [] if isinstance(t, dict)
                     for f in t.get("functionDeclarations") or [] if isinstance(f, dict)]
            resps = [p["functionResponse"] for c in body.get("contents") or [] if isinstance(c, dict)
                     for p in c.get("parts") or [] if isinstance(p, dict) and "functionResponse" in p]
            entry = {"method": "POST", "path": path, "tools": tools, "results": len(resps)}
            if resps:
                entry["result"] = json.dumps(resps[-1].get("response"), ensure_ascii=False)[:4000]
            log(entry)
            if path.endswith(":countTokens"):
                return self.send_json(200, {"totalTokens": 10})
            if len(resps) < len(commands) and tools:
                command = commands[len(resps)]
                part = {"functionCall": {"name": "run_shell_command",
                                         "args": {"command": command, "description": "run the case's command"}}}
            else:
                part = {"text": FINAL_TEXT if resps else "ok"}
            chunk = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
                                     "index": 0}],
                     "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}}
            if path.endswith(":streamGenerateContent"):
                self.sse_start()
                self.wfile.write(("data: " + json.dumps(chunk) + "\r\n\r\n").encode())
                self.wfile.flush()
            else:
                self.send_json(200, chunk)

        # ---- OpenAI Chat Completions (Copilot CLI, custom provider) -----------------------------------------------
        def post_chat(self, body):
            path = self.path.split("?", 1)[0]
            tools = [(t.get("function") or {}).get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
            results = [m for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") == "tool"]
            entry = {"method": "POST", "path": path, "tools": tools, "results": len(results)}
            if results:
                entry["result"] = _text(results[-1].get("content"))[:4000]
            log(entry)
            if not path.endswith("/chat/completions"):
                return self.send_json(404, {"error": {"message": "mock"}})
            if "bash" in tools and len(results) < len(commands):
                command = commands[len(results)]
                msg = {"role": "assistant", "content": None, "tool_calls": [{
                    "id": "call_" + uuid.uuid4().hex[:12], "type": "function",
                    "function": {"name": "bash", "arguments": json.dumps(
                        {"command": command, "description": "run the case's command"})}}]}
                finish = "tool_calls"
            else:
                msg = {"role": "assistant", "content": FINAL_TEXT if results else "ok"}
                finish = "stop"
            cid, now = "chatcmpl-" + uuid.uuid4().hex[:12], int(time.time())
            usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
            if not body.get("stream"):
                return self.send_json(200, {"id": cid, "object": "chat.completion", "created": now,
                                            "model": body.get("model"), "usage": usage,
                                            "choices": [{"index": 0, "message": msg, "finish_reason": finish}]})
            self.sse_start()
            delta = dict(msg)
            if "tool_calls" in delta:
                delta["tool_calls"] = [dict(t, index=i) for i, t in enumerate(delta["tool_calls"])]

            def chunk(d, fin, **extra):
                o = {"id": cid, "object": "chat.completion.chunk", "created": now, "model": body.get("model"),
                     "choices": [{"index": 0, "delta": d, "finish_reason": fin}]}
                o.update(extra)
                self.wfile.write(("data: " + json.dumps(o) + "\n\n").encode())
                self.wfile.flush()

            chunk(delta, None)
            chunk({}, finish, usage=usage)
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _text(content):
    if isinstance(content, list):
        return "\n".join(b.get("text", "") if isinstance(b, dict) else str(b) for b in content)
    return content if isinstance(content, str) else json.dumps(content)
