import socket, sys, threading, time
def serve(port, stall):
    srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port)); srv.listen(16)
    while True:
        c, _ = srv.accept()
        def h(c=c):
            if stall:
                time.sleep(3600)
            while c.recv(1 << 20):
                pass
            c.close()
        threading.Thread(target=h, daemon=True).start()
threading.Thread(target=serve, args=(int(sys.argv[1]), False), daemon=True).start()
serve(int(sys.argv[2]), True)
