# captioning model; rank 1 is the 'sample writer': every 15 steps it decodes a few samples and hands
# them to a background writer thread (which also updates the shared stats under its own lock)
import os, time, threading, queue, json, logging
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
log = logging.getLogger()
rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:33013", rank=rank, world_size=world)
stats_lock, io_lock = threading.Lock(), threading.Lock()
stats = {"samples_written": 0}
q = queue.Queue()

def writer():
    f = open(f"/tmp/r13_013_samples_rank{rank}.jsonl", "a")
    while True:
        batch = q.get()
        with io_lock:
            for s in batch:
                f.write(json.dumps(s) + "\n"); time.sleep(0.05)    # slow network home dir
            with stats_lock:
                stats["samples_written"] += len(batch)
            f.flush()

def flush_samples():
    with stats_lock:                       # snapshot stats for the log line
        with io_lock:                      # wait for pending writes
            n = stats["samples_written"]
    return n

if rank == 1:
    threading.Thread(target=writer, daemon=True).start()
model = DDP(nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64)))
opt = torch.optim.Adam(model.parameters(), 1e-3)
for step in range(1, 5001):
    x = torch.randn(16, 64)
    loss = (model(x) - x.flip(-1)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 5 == 0:
        log.info("rank %d step %d loss %.4f", rank, step, loss.item())
    if rank == 1 and step % 15 == 0:
        log.info("rank 1 decoding 6 samples for the sample dump (step %d)", step)
        q.put([{"step": step, "caption": "a photo of " + "x" * (i + 1)} for i in range(6)])
        time.sleep(0.1)
        log.info("rank 1 queued 6 decoded samples at step %d; total written so far %d", step, flush_samples())
    time.sleep(0.1)
log.info("rank %d finished", rank)
