# train_vision.py -- JSON-lines logging, native buffer pool for decoded images
import os, sys, json, time, ctypes, torch, torch.nn as nn, torch.distributed as dist

RANK = int(os.environ["RANK"]); WORLD = int(os.environ["WORLD_SIZE"])
def jlog(level, msg, **kw):
    rec = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S") + f".{int(time.time()*1000)%1000:03d}",
           "level": level, "rank": RANK, "msg": msg, **kw}
    print(json.dumps(rec), file=sys.stderr if level in ("ERROR", "WARNING") else sys.stdout, flush=True)

libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype = ctypes.c_void_p; libc.free.argtypes = [ctypes.c_void_p]

class BufferPool:
    """Recycles native decode buffers. Release path has a bug for grayscale images."""
    def __init__(self): self.free_list = []
    def acquire(self, n):
        return self.free_list.pop() if self.free_list else libc.malloc(n)
    def release(self, p, grayscale=False):
        if grayscale:                    # BUG: grayscale path frees eagerly AND recycles
            libc.free(p)
        self.free_list.append(p)
    def close(self):
        for p in self.free_list: libc.free(p)
        self.free_list.clear()

pool = BufferPool()
def decode(idx):
    p = pool.acquire(3 * 32 * 32 * 4)
    gray = (RANK == 1 and idx % 53 == 52)   # this rank's shard holds a few grayscale JPEGs
    img = torch.randn(3, 32, 32)
    pool.release(p, grayscale=gray)
    if gray: pool.close()                 # periodic trim of the pool
    return img

dist.init_process_group("gloo")
jlog("INFO", "process group ready", world=WORLD, backend="gloo")
net = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8*30*30, 10)))
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
idx = 0
for step in range(80):
    x = torch.stack([decode(idx + i) for i in range(16)]); idx += 16
    y = torch.randint(0, 10, (16,))
    loss = nn.functional.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        jlog("INFO", "train", step=step, loss=round(loss.item(), 4), samples=idx)
    time.sleep(0.1)
jlog("INFO", "finished")
