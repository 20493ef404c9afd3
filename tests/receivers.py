"""Real receivers for tests: an HTTP server on loopback that records every request (raw
body and headers) and answers as it is told, and an SMTP handler that keeps messages."""

import threading
import time
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    def __init__(self, status=200, body=b"ok", delay=0.0, headers=None, ssl_context=None):
        self.status, self.body, self.delay, self.headers = status, body, delay, headers or {}
        self.requests = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": raw,
                                          "at": time.monotonic()})
                if receiver.delay:
                    time.sleep(receiver.delay)
                try:
                    self.send_response(receiver.status)
                    for name, value in receiver.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(receiver.body)))
                    self.end_headers()
                    self.wfile.write(receiver.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the sender gave up waiting, as it should after its time limit

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if ssl_context is not None:
            self.server.socket = ssl_context.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def port(self):
        return self.server.server_address[1]

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/hook"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


class Inbox:
    """An aiosmtpd handler that keeps every message it receives (a real SMTP server for
    tests of the emails the service sends)."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"
