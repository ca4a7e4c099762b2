# stand-in for a stale service from an earlier job still bound to the port: accepts, reads a little, hangs up
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", int(sys.argv[1]))); s.listen(64)
while True:
    c, _ = s.accept(); c.recv(64); time.sleep(0.2); c.close()
