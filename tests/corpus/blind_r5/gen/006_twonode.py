import os, time, torch, torch.distributed as dist
from datetime import timedelta
dist.init_process_group("gloo", timeout=timedelta(seconds=12))
rank, lrank = dist.get_rank(), int(os.environ["LOCAL_RANK"])
host = os.environ.get("NODE_NAME", "node")
model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.Adam(ddp.parameters(), lr=1e-3)
print(f"{host} global={rank} local={lrank} up", flush=True)
for step in range(1, 13):
    loss = ddp(torch.randn(8, 32)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    print(f"{host} it {step} loss={loss.item():.4f}", flush=True)
    if step % 6 == 0 and lrank == 0:
        # node-local checkpoint (one writer per node)
        out = os.path.join(os.environ["CKPT_ROOT"], f"step_{step:06d}")
        os.makedirs(out, exist_ok=True)
        torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, os.path.join(out, f"model_r{rank}.pt"))
        print(f"{host} saved {out}", flush=True)
    time.sleep(0.1)
dist.destroy_process_group()
