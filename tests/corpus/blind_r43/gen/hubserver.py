#!/usr/bin/env python3
"""A stand-in model hub: hubserver.py PORT SPEC; SPEC '503' answers 503 always, '503:N' the first N requests only."""
import http.server, json, sys
port, spec = int(sys.argv[1]), sys.argv[2]
code, _, n = spec.partition(":")
left = int(n) if n else 10**9
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        global left
        if left > 0:
            left -= 1
            self.send_response(int(code)); self.end_headers(); self.wfile.write(b"upstream unavailable"); return
        body = json.dumps({"hidden": 64, "layers": 2}).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers()
        self.wfile.write(body)
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
