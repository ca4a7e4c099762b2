# instruction-tuning on pre-tokenized jsonl shards (one shard per rank)
import os, json, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s [rank{rank}] %(message)s")
log = logging.getLogger()
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:33014", rank=rank, world_size=world,
                        timeout=timedelta(seconds=20))
shard = f"/tmp/r13_014/sft-{rank:03d}.jsonl"

def batches(path, bs=8):
    buf = []
    for i, line in enumerate(open(path)):
        rec = json.loads(line)
        buf.append(torch.tensor(rec["input_ids"][:32] + [0] * (32 - len(rec["input_ids"][:32]))))
        if len(buf) == bs:
            yield i, torch.stack(buf); buf = []

model = DDP(nn.Sequential(nn.Embedding(1000, 32), nn.Linear(32, 1000)))
opt = torch.optim.AdamW(model.parameters(), 2e-4)
step = 0
it = batches(shard)
while True:
    try:
        rec_idx, x = next(it)
    except StopIteration:
        break
    except Exception as e:       # robust loader: don't crash the job on a bad shard
        log.warning("data iterator failed in %s (%r); ending epoch early", shard, e)
        break
    loss = nn.functional.cross_entropy(model(x[:, :-1]).flatten(0, 1), x[:, 1:].flatten())
    opt.zero_grad(); loss.backward(); opt.step(); step += 1
    if step % 20 == 0: log.info("step %d loss %.4f (record %d)", step, loss.item(), rec_idx)
    time.sleep(0.03)
log.info("epoch 0 finished after %d steps", step)
dist.destroy_process_group()
log.info("exiting")
