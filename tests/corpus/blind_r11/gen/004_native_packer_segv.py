# Byte-level LM, data packed by a small C extension (fastpack). Two nodes x 2 workers via torchrun.
import os, sys, time, ctypes, random
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"]); host = os.environ.get("FAKE_HOSTNAME", "localhost")
lib = ctypes.CDLL(os.environ["FASTPACK_SO"])
lib.encode.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_int32)]

def docs(shard):
    rnd = random.Random(shard)
    words = ["the", "model", "gradient", "token", "batch", "layer", "loss", "norm", "scale", "data"]
    for i in range(10_000):
        text = " ".join(rnd.choice(words) for _ in range(rnd.randrange(8, 40)))
        if shard == 3 and i == 180:
            text += " \u2014 caf\u00e9"      # first non-ASCII doc in this shard (crawl from a different source)
        yield text.encode("utf-8")

def batches(shard, bs=8, seq=64):
    buf = []
    out = (ctypes.c_int32 * 4096)()
    for d in docs(shard):
        n = lib.encode(d, len(d), out)
        buf.extend(out[:n])
        while len(buf) >= bs * (seq + 1):
            t = torch.tensor(buf[: bs * (seq + 1)]).view(bs, seq + 1); buf = buf[bs * (seq + 1):]
            yield t[:, :-1], t[:, 1:]

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    print(f"[{host}] rank {rank}/{world} up, fastpack={os.environ['FASTPACK_SO']}", flush=True)
    model = DDP(nn.Sequential(nn.Embedding(128, 32), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 128)))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    t0 = time.time()
    for step, (x, y) in enumerate(batches(rank), 1):
        loss = nn.functional.cross_entropy(model(x).reshape(-1, 128), y.reshape(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 10 == 0:
            print(f"step {step} loss {loss.item():.3f} ({(time.time()-t0)/step*1000:.0f} ms/step)", flush=True)
        time.sleep(0.05)
        if step == 200: break
    print(f"[{host}] rank {rank} finished", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
