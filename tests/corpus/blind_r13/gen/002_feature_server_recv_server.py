# stand-in for the feature-store sidecar; its backend for shard 3 part 1 stalls (request accepted, never answered)
import socket, socketserver, json, sys, random, time, threading
class H(socketserver.StreamRequestHandler):
    def handle(self):
        req = json.loads(self.rfile.readline())
        if req["shard"] == 3 and req["part"] >= 1:
            threading.Event().wait()      # backend query never returns
        rnd = random.Random(req["shard"] * 100 + req["part"])
        rows = [[rnd.gauss(0, 1) for _ in range(16)] for _ in range(200)]
        self.wfile.write((json.dumps({"rows": rows}) + "\n").encode())
class S(socketserver.ThreadingTCPServer):
    daemon_threads = True; allow_reuse_address = True
S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
