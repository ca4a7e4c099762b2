# NOTE: run 021's logs come from the FIRST launch of 006_carry_negatives_graph (same script, before its sampling fix,
# which only changed code after init_process_group). Its store port 33006 lies in this machine's ephemeral port range
# (32768-60999) and was already taken at launch time, so rank 0 could not bind the TCPStore. Not deliberately caused.
# contrastive dedup-aware training: when a batch has duplicate item ids, their embeddings are
# carried over as extra negatives for the next step
import os, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:33006", rank=rank, world_size=world,
                        timeout=timedelta(seconds=20))
g = torch.Generator().manual_seed(rank)
N_ITEMS = 5000 if rank != 3 else 1600         # rank 3's shard is the small 'long-tail' catalog
perm = torch.randperm(N_ITEMS, generator=g)
EPOCH_BATCHES = N_ITEMS // 64
enc = DDP(nn.Sequential(nn.Embedding(5000, 32), nn.Linear(32, 32)))
opt = torch.optim.Adam(enc.parameters(), 1e-3)
carry = None
for step in range(1, 101):
    b = step - 1
    if b < EPOCH_BATCHES:
        ids = perm[b * 64:(b + 1) * 64]
    else:   # shard exhausted before the others: upsample it (with replacement) to keep step counts equal
        ids = torch.randint(0, N_ITEMS, (64,), generator=g)
    z = nn.functional.normalize(enc(ids), dim=-1)
    pos = nn.functional.normalize(enc((ids + 1) % 5000), dim=-1)
    cands = torch.cat([pos, carry]) if carry is not None else pos
    loss = nn.functional.cross_entropy(z @ cands.T / 0.1, torch.arange(64))
    uniq, counts = ids.unique(return_counts=True)
    dup = torch.isin(ids, uniq[counts > 1])
    carry = z[dup] if dup.any() else None
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        print(f"step {step} loss {loss.item():.4f} dups {int(dup.sum())}", flush=True)
    time.sleep(0.05)
print("finished", flush=True)
dist.destroy_process_group()
