"""Small helpers the generator uses around the runs (not part of the training job)."""
import fcntl, json, os, socket, sys, time

def hold_lock(path, seconds):
    f = open(path, "a+")
    fcntl.flock(f, fcntl.LOCK_EX)
    time.sleep(float(seconds))

def squat(port, seconds):
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("0.0.0.0", int(port))); s.listen(16)
    conns = []
    end = time.time() + float(seconds)
    s.settimeout(1)
    while time.time() < end:
        try:
            conns.append(s.accept()[0])
        except socket.timeout:
            pass

def feature_server(port, delay, seconds):
    time.sleep(float(delay))
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", int(port))); s.listen(64); s.settimeout(1)
    end = time.time() + float(seconds)
    while time.time() < end:
        try:
            c, _ = s.accept()
        except socket.timeout:
            continue
        line = c.recv(64).decode().strip()
        c.sendall(f"{(int(line or 0) * 7) % 50}\n".encode()); c.close()

def shard(path, n):
    import numpy as np
    np.arange(int(n), dtype=np.int32).tofile(path)

if __name__ == "__main__":
    globals()[sys.argv[1]](*sys.argv[2:])
