# 008: each rank streams its own list of shard files; rank 1's second shard path is a FIFO left
# behind by a preprocessing job (no writer), so open() blocks forever. Plain prints, no rank prefix.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

DATA = os.environ["DATA_DIR"]

def shard_batches(path):
    with open(path, "rb") as f:
        raw = f.read()
    t = torch.frombuffer(bytearray(raw), dtype=torch.float32).view(-1, 33)
    for i in range(0, len(t), 16):
        yield t[i:i + 16, :32], t[i:i + 16, 32:]

@record
def main():
    rank, world = lib.init(timeout=25)
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    shards = sorted(os.listdir(os.path.join(DATA, f"rank{rank}")))
    step = 0
    for sh in shards:
        path = os.path.join(DATA, f"rank{rank}", sh)
        print(f"opening shard {path}", flush=True)
        for x, y in shard_batches(path):
            step += 1
            loss = torch.nn.functional.mse_loss(m(x), y)
            opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
            print(f"step {step:03d} | loss {loss.item():.4f}", flush=True)
            time.sleep(0.1)
    print("all shards done", flush=True)

if __name__ == "__main__":
    main()
