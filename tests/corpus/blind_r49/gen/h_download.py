"""Rank 0 downloads and extracts the dataset with retries (tqdm bars); the others wait at a barrier."""
import os, sys, tarfile, time, urllib.request
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from tqdm import tqdm
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

url, root = sys.argv[1], sys.argv[2]
rank, world = init(timeout_s=60)
if rank == 0:
    os.makedirs(root, exist_ok=True)
    dst = os.path.join(root, "toyset.tar.gz")
    for attempt in range(1, 6):
        try:
            print(f"Downloading {url} to {dst} (attempt {attempt}/5)", flush=True)
            with urllib.request.urlopen(url, timeout=10) as r:
                total = int(r.headers.get("Content-Length", 0))
                got = 0
                with open(dst, "wb") as f, tqdm(total=total, unit="B", unit_scale=True, desc="toyset.tar.gz", mininterval=0) as bar:
                    while True:
                        chunk = r.read(65536)
                        if not chunk:
                            break
                        f.write(chunk); got += len(chunk); bar.update(len(chunk))
                if got != total:
                    raise IOError(f"incomplete download: got {got} of {total} bytes")
            break
        except Exception as e:
            print(f"WARNING: download failed ({type(e).__name__}: {e}); retrying in {attempt}s", flush=True)
            time.sleep(attempt)
    print("Extracting toyset.tar.gz", flush=True)
    with tarfile.open(dst) as tf:
        for m in tqdm(tf.getmembers(), desc="extract", unit="file", mininterval=0):
            tf.extract(m, root, filter="data")
    print(f"dataset ready at {root}/toyset", flush=True)
dist.barrier()
shards = sorted(os.listdir(os.path.join(root, "toyset")))
print(f"rank {rank}: found {len(shards)} shards", flush=True)
model = DDP(MLP()); opt = torch.optim.SGD(model.parameters(), lr=0.05)
x, y = make_data(seed=10)
for step in range(30):
    i = (step * 32) % 448
    loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32]); opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        print(f"rank {rank}: step {step} loss {loss.item():.4f}", flush=True)
dist.barrier(); dist.destroy_process_group()
print(f"rank {rank}: done", flush=True)
