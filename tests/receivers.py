"""Real receivers for tests: an HTTP server on loopback that records every request (raw
body and headers) and answers as it is told, a raw one that answers any bytes at all,
and an SMTP handler that keeps messages."""

import socket
import threading
import time
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    def __init__(self, status=200, body=b"ok", delay=0.0, headers=None, ssl_context=None, keep_alive=False):
        self.status, self.body, self.delay, self.headers = status, body, delay, headers or {}
        self.requests = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"  # 1.0: a connection per request

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": raw,
                                          "at": time.monotonic(), "peer": self.client_address})
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
        # Polled often, so a test that closes its receiver does not wait half a second.
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)

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


class RawReceiver:
    """A receiver on loopback that answers every request with exactly the bytes it is
    given (`answer`, set between requests), then closes the connection: status lines,
    headers and bodies no HTTP library would write, for the hostile-receiver tests."""

    def __init__(self, answer=b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"):
        self.answer, self.requests = answer, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.01)
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self):
        while self.running:
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                try:
                    self._answer(conn)
                except OSError:
                    pass  # the sender gave up first

    def _answer(self, conn):
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                       if line.lower().startswith(b"content-length:")), 0)
        while len(body) < length:
            chunk = conn.recv(65536)
            if not chunk:
                return
            body += chunk
        self.requests += 1
        conn.sendall(self.answer)
        conn.shutdown(socket.SHUT_RDWR)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}/hook"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()
        self.listener.close()
