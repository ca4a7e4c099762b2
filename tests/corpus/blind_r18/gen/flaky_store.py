# stand-in object store: resets the first N connections (like a flaky load balancer), then accepts PUTs
import http.server, socket, struct, sys
N = int(sys.argv[2]); seen = {"n": 0}


class H(http.server.BaseHTTPRequestHandler):
    def do_PUT(self):
        seen["n"] += 1
        if seen["n"] <= N:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            return
        n = int(self.headers.get("Content-Length", 0)); self.rfile.read(n)
        self.send_response(200); self.send_header("ETag", '"9f2c"'); self.end_headers()

    def log_message(self, *a):
        pass


http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
