# train_dump.py -- one rank is configured as the "inspector" that dumps per-step attention stats
import os, time, datetime, torch, torch.nn as nn, torch.distributed as dist
rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29811", rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=40))
INSPECT_RANK = 2
dump_dir = os.path.join(os.environ["RUN_DIR"], "dumps"); os.makedirs(dump_dir, exist_ok=True)
attn = nn.MultiheadAttention(32, 4, batch_first=True)
model = nn.parallel.DistributedDataParallel(attn)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
handles = []
print(f"{time.strftime('%H:%M:%S')} task {rank}: start (inspector={rank == INSPECT_RANK})", flush=True)
for step in range(400):
    x = torch.randn(4, 10, 32)
    out, w = model(x, x, x)
    loss = out.pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if rank == INSPECT_RANK:
        for h in range(4):  # per-head stats appended to a CSV; handles cached "for speed" and never closed
            f = open(os.path.join(dump_dir, f"step{step:04d}_head{h}.csv"), "w")
            f.write(",".join(f"{v:.4f}" for v in w[0, h % w.shape[1]].tolist()) + "\n"); f.flush()
            handles.append(f)
    if step % 25 == 0:
        print(f"{time.strftime('%H:%M:%S')} step {step} loss {loss.item():.5f}", flush=True)
    time.sleep(0.01)
print("done", flush=True)
