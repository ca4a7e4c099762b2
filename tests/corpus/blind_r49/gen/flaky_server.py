"""A local HTTP server that fails the first requests (503, then a dropped connection), then serves a tarball."""
import http.server, io, os, sys, tarfile
port = int(sys.argv[1]); state = {"n": 0}
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz") as tf:
    for k in range(6):
        data = os.urandom(200_000)
        ti = tarfile.TarInfo(f"toyset/shard-{k:05d}.bin"); ti.size = len(data)
        tf.addfile(ti, io.BytesIO(data))
BLOB = buf.getvalue()
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_GET(self):
        state["n"] += 1
        if state["n"] == 1:
            self.send_response(503); self.end_headers(); return
        if state["n"] == 2:
            self.send_response(200); self.send_header("Content-Length", str(len(BLOB))); self.end_headers()
            self.wfile.write(BLOB[:300_000]); self.wfile.flush()
            self.connection.shutdown(2); return
        self.send_response(200); self.send_header("Content-Length", str(len(BLOB))); self.end_headers()
        self.wfile.write(BLOB)
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
