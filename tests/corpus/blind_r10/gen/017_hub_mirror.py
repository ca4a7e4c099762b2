# tiny "internal model hub" mirror with a per-file rate limit (what the platform team runs in front of the bucket)
import http.server, json, sys, threading, time
HITS = {}; LOCK = threading.Lock(); LIMIT = 3
FILES = {"/models/tiny-bert-ft/resolve/main/config.json": json.dumps({"hidden": 32, "vocab": 500, "layers": 2}).encode(),
         "/models/tiny-bert-ft/resolve/main/vocab.txt": "\n".join(f"tok{i}" for i in range(500)).encode()}
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with LOCK:
            HITS[self.path] = HITS.get(self.path, 0) + 1
            n = HITS[self.path]
        if self.path not in FILES:
            self.send_response(404); self.end_headers(); return
        if n > LIMIT:
            self.send_response(429); self.send_header("Retry-After", "30"); self.end_headers()
            self.wfile.write(b'{"error":"rate limit exceeded"}'); return
        time.sleep(0.3)
        self.send_response(200); self.end_headers(); self.wfile.write(FILES[self.path])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
