# keypoint sequence model; contiguous per-rank shards of a preprocessed array, JSON-lines logs
import os, json, time, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

BATCH, FRAMES, FEAT = 10, 8, 16

def jlog(**kw):
    kw = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S"), **kw}
    print(json.dumps(kw), flush=True)

def main():
    rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:30111", rank=rank, world_size=world,
                            timeout=timedelta(seconds=20))
    g = torch.Generator().manual_seed(5)
    data = torch.randn(1003, FRAMES * FEAT, generator=g)     # 1003 clips after filtering
    per = len(data) // world
    lo = rank * per
    hi = len(data) if rank == world - 1 else lo + per         # last rank takes the remainder
    mine = data[lo:hi]
    jlog(level="INFO", rank=rank, event="shard", start=lo, end=hi, n=len(mine))
    torch.manual_seed(0)
    gru = nn.GRU(FEAT, 32, batch_first=True); head = nn.Linear(32, FEAT)
    model = nn.parallel.DistributedDataParallel(nn.ModuleList([gru, head]))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for i in range(0, len(mine), BATCH):
            x = mine[i:i + BATCH].view(BATCH, FRAMES, FEAT)
            out, _ = model.module[0](x[:, :-1])
            loss = nn.functional.mse_loss(model.module[1](out), x[:, 1:])
            opt.zero_grad(); loss.backward()
            for p in model.parameters():
                dist.all_reduce(p.grad); p.grad /= world
            opt.step()
            if rank == 0 and (i // BATCH) % 5 == 0:
                jlog(level="INFO", rank=rank, event="train", epoch=epoch, step=i // BATCH, loss=round(loss.item(), 5))
        jlog(level="INFO", rank=rank, event="epoch_end", epoch=epoch)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
