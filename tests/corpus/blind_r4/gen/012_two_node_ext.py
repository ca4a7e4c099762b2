import os, socket, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

try:
    import fused_ops                      # optional fast path, built per node image
    HAVE_FUSED = True
except ModuleNotFoundError:
    HAVE_FUSED = False

def main():
    r = int(os.environ["RANK"])
    print(f"{socket.gethostname()}:{os.environ['GROUP_RANK']} rank {r} fused_ops={'yes' if HAVE_FUSED else 'no (fallback to torch)'}", flush=True)
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    m = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(32, 32), nn.LayerNorm(32)))
    o = torch.optim.Adam(m.parameters())
    for s in range(30):
        l = m(torch.randn(8, 32)).pow(2).mean(); o.zero_grad(); l.backward(); o.step()
        if r == 0 and s % 10 == 0: print(f"step {s} loss {l.item():.4f}", flush=True)
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
