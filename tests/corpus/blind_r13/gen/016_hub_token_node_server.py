# stand-in for the internal model hub: requires a bearer token
import http.server, json, sys
FILES = {"config.json": json.dumps({"vocab_size": 3000, "hidden": 64, "num_labels": 12}).encode(),
         "vocab.json": json.dumps({f"tok{i}": i for i in range(3000)}).encode()}
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.headers.get("Authorization") != "Bearer hub_8f2a61c0e4":
            self.send_response(401); self.send_header("WWW-Authenticate", "Bearer"); self.end_headers()
            self.wfile.write(b'{"error": "Invalid credentials in Authorization header"}'); return
        name = self.path.rsplit("/", 1)[-1]
        self.send_response(200); self.end_headers(); self.wfile.write(FILES[name])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
