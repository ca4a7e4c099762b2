"""Rank 0 fetches the vocab from an artifact server (a local flaky HTTP server here) with retries, then trains."""
import os, sys, time, logging, threading, urllib.request, urllib.error, http.server
sys.path.insert(0, os.path.dirname(__file__))
logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("artifacts")
rank = int(os.environ.get("RANK", "0")); port = int(os.environ.get("ART_PORT", "29890"))
if rank == 0:
    hits = {"n": 0}
    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits["n"] += 1
            if hits["n"] <= 3:
                self.send_response(503); self.end_headers(); self.wfile.write(b"Service Unavailable"); return
            self.send_response(200); self.end_headers(); self.wfile.write(b'{"<pad>": 0, "<unk>": 1}')
        def log_message(self, *a): pass
    srv = http.server.HTTPServer(("127.0.0.1", port), H); threading.Thread(target=srv.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{port}/artifacts/tokenizer/vocab.json"
    for attempt in range(1, 8):
        try:
            data = urllib.request.urlopen(url, timeout=5).read(); print(f"downloaded {url} ({len(data)} bytes)", flush=True); break
        except urllib.error.HTTPError as e:
            log.warning("Download of %s failed (attempt %d/7): %s; retrying in %.1fs", url, attempt, e, 0.5 * attempt); time.sleep(0.5 * attempt)
import train
train.main()
