"""A stand-in for the Anthropic Messages API, for driving Claude Code offline on 127.0.0.1.

serve(command, log_path) starts a threaded HTTP server on 127.0.0.1 (a free port) and returns it; the port is
server.server_address[1]. The model it plays does one thing: asked with the Bash tool on offer, it answers with one
Bash tool_use holding `command`; asked again once the conversation carries a tool_result, it answers with plain
text and stop_reason end_turn, so the print-mode session ends. Requests without the Bash tool (titles, summaries
and other side queries) get a short text. POST .../count_tokens answers a fixed count; HEAD answers 200.

Streaming requests get server-sent events in the order the real API sends them: message_start, content_block_start,
content_block_delta (input_json_delta for the tool input, text_delta for text), content_block_stop, message_delta
(with the stop reason), message_stop. Every request is summarised, one JSON line each, in log_path, with the
tool_result the client sent back.
"""
import json
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "claude-sonnet-4-5"
FINAL_TEXT = "Done."


def _tool_results(messages):
    """The tool_result blocks of the user turns in a Messages API conversation."""
    found = []
    for m in messages if isinstance(messages, list) else []:
        if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), list):
            found += [b for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
    return found


def _text(content):
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    return content if isinstance(content, str) else json.dumps(content)


def serve(command, log_path):
    """Starts the mock on 127.0.0.1 in a daemon thread; returns the server (call shutdown() to stop it)."""
    lock = threading.Lock()

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

        def do_HEAD(self):
            self.send_response(200)
            self.send_header("content-length", "0")
            self.end_headers()

        def do_GET(self):
            log({"method": "GET", "path": self.path})
            self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "mock"}})

        def do_POST(self):
            size = int(self.headers.get("content-length") or 0)
            try:
                body = json.loads(self.rfile.read(size) or b"{}")
            except ValueError:
                body = {}
            body = body if isinstance(body, dict) else {}
            path = self.path.split("?", 1)[0]
            tools = [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]
            results = _tool_results(body.get("messages"))
            entry = {"method": "POST", "path": path, "stream": bool(body.get("stream")), "tools": len(tools),
                     "bash": "Bash" in tools, "tool_results": len(results)}
            if results:
                entry["tool_result"] = _text(results[-1].get("content"))[:4000]
                entry["is_error"] = bool(results[-1].get("is_error"))
            log(entry)
            if path.endswith("/count_tokens"):
                self.send_json(200, {"input_tokens": 1000})
            elif not path.endswith("/v1/messages"):
                self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "mock"}})
            elif "Bash" in tools and not results:
                self.answer(body, {"type": "tool_use", "id": "toolu_e2e_" + uuid.uuid4().hex[:16], "name": "Bash",
                                   "input": {"command": command, "description": "run the case's command"}},
                            "tool_use")
            else:
                self.answer(body, {"type": "text", "text": FINAL_TEXT if results else "ok"}, "end_turn")

        def answer(self, body, block, stop_reason):
            msg_id = "msg_e2e_" + uuid.uuid4().hex[:16]
            model = body.get("model") or MODEL
            usage = {"input_tokens": 10, "output_tokens": 5, "cache_creation_input_tokens": 0,
                     "cache_read_input_tokens": 0}
            if not body.get("stream"):
                self.send_json(200, {"id": msg_id, "type": "message", "role": "assistant", "model": model,
                                     "content": [block], "stop_reason": stop_reason, "stop_sequence": None,
                                     "usage": usage})
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.send_header("connection", "close")
            self.end_headers()

            def event(data):
                self.wfile.write(("event: %s\ndata: %s\n\n" % (data["type"], json.dumps(data))).encode())
                self.wfile.flush()

            event({"type": "message_start", "message": {
                "id": msg_id, "type": "message", "role": "assistant", "model": model, "content": [],
                "stop_reason": None, "stop_sequence": None, "usage": usage}})
            if block["type"] == "tool_use":
                event({"type": "content_block_start", "index": 0, "content_block": dict(block, input={})})
                js = json.dumps(block["input"])
                for part in (js[:len(js) // 2], js[len(js) // 2:]):   # in two pieces, as a real stream would
                    event({"type": "content_block_delta", "index": 0,
                           "delta": {"type": "input_json_delta", "partial_json": part}})
            else:
                event({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
                event({"type": "content_block_delta", "index": 0,
                       "delta": {"type": "text_delta", "text": block["text"]}})
            event({"type": "content_block_stop", "index": 0})
            event({"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                   "usage": {"output_tokens": 5}})
            event({"type": "message_stop"})
            self.close_connection = True

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
                super().handle_error(request, client_address)   # a client hanging up is no error of ours

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
