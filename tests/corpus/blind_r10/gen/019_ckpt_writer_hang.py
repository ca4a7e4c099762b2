# MoE-ish toy model; synchronous checkpoint from rank 0 to the shared /ckpt mount, then barrier
import os, time, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

def main():
    rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:30119", rank=rank, world_size=world,
                            timeout=timedelta(seconds=20))
    ckpt = os.environ["CKPT_DIR"]
    experts = nn.ModuleList([nn.Linear(32, 32) for _ in range(4)])
    gate = nn.Linear(32, 4)
    model = nn.parallel.DistributedDataParallel(nn.ModuleDict({"experts": experts, "gate": gate}))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    t0 = time.time()
    for step in range(1, 121):
        x = torch.randn(64, 32, generator=g)
        w = torch.softmax(model.module["gate"](x), -1)
        y = sum(w[:, i:i + 1] * e(x) for i, e in enumerate(model.module["experts"]))
        loss = (y - x).pow(2).mean() + 0.01 * (w.mean(0) * 4).pow(2).sum()
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 20 == 0:
            print(f"step {step:5d} | loss {loss.item():.4f} | {(time.time() - t0) / step * 1000:.1f} ms/step", flush=True)
        if step % 50 == 0:
            if rank == 0:
                path = f"{ckpt}/moe_step{step}.pt"
                print(f"saving checkpoint to {path}", flush=True)
                torch.save({"step": step, "model": model.module.state_dict(), "opt": opt.state_dict()}, path)
                print(f"checkpoint saved ({os.path.getsize(path)} bytes)", flush=True)
            dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
