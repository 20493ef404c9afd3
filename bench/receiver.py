"""A fast local webhook receiver for bench/delivery: answers every POST 200 at once,
except paths under /slow/, which it holds for `--slow` seconds. Each request's arrival
(monotonic-free wall time, path) is appended to `--log`."""

import argparse
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--slow", type=float, default=10.0)
    options = parser.parse_args()
    log, lock = open(options.log, "a", buffering=1), threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a real receiver would
        disable_nagle_algorithm = True  # the answer's two writes go out at once

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            arrived = time.time()
            with lock:
                log.write(f"{arrived:.6f} {self.path}\n")
            if self.path.startswith("/slow/"):
                time.sleep(options.slow)
            try:
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the sender stopped waiting (a hanging path, or the bench ended)

        def log_message(self, *args):
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            if not isinstance(sys.exc_info()[1], ConnectionResetError):  # a sender that stopped (the bench ended)
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
