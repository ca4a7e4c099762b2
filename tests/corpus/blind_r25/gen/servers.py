"""Tiny local services used by the scenarios.
  servers.py gateway PORT   - metrics gateway that answers 200 to POSTs
  servers.py blackhole PORT - accepts TCP connections and never answers (a wedged proxy)
  servers.py hub PORT DIR   - serves files under DIR over HTTP GET
"""
import http.server
import socket
import sys
import threading
import time


class Gateway(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'{"ok":true}')

    def log_message(self, *a):
        pass


def main():
    kind, port = sys.argv[1], int(sys.argv[2])
    if kind == "gateway":
        http.server.ThreadingHTTPServer(("127.0.0.1", port), Gateway).serve_forever()
    elif kind == "blackhole":
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        s.listen(64)
        held = []
        while True:
            c, _ = s.accept()
            held.append(c)
    elif kind == "hub":
        import functools
        h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[3])
        http.server.ThreadingHTTPServer(("127.0.0.1", port), h).serve_forever()


if __name__ == "__main__":
    main()
