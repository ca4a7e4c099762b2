# a stand-in for a metrics gateway: accepts connections, reads and discards lines
import socket, sys, threading
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[1]))); srv.listen(512)
conns = []
def drain(c):
    try:
        while c.recv(4096):
            pass
    except OSError:
        pass
while True:
    c, _ = srv.accept(); conns.append(c)
    threading.Thread(target=drain, args=(c,), daemon=True).start()
