# srun --label, 3 tasks, each under `ulimit -f 4096` (4 MiB per file, like a per-job scratch
# quota). Model is split in stages (rank 0: blocks, rank 1: blocks, rank 2: final blocks +
# the big output projection), each rank saves its own stage through a Python file object.
# Only rank 2's stage file exceeds the limit -> OSError [Errno 27] File too large on rank 2.
import datetime, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
CK = os.environ["CKPT_DIR"]

def ts():
    return datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3]

def main():
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29910", rank=rank, world_size=world,
                            timeout=datetime.timedelta(seconds=40))
    torch.manual_seed(rank)
    stage = nn.Sequential(nn.Linear(128, 128), nn.GELU(), nn.Linear(128, 128))
    if rank == world - 1:
        stage.append(nn.Linear(128, 12000))  # output projection to the vocabulary (~6 MB fp32)
    n = sum(p.numel() for p in stage.parameters())
    print(f"{ts()} stage {rank}: {n/1e6:.2f}M params", flush=True)
    opt = torch.optim.SGD(stage.parameters(), lr=0.01, momentum=0.9)
    for step in range(1, 61):
        x = torch.randn(8, 128)
        loss = stage(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        t = torch.tensor([loss.item()]); dist.all_reduce(t)
        if step % 10 == 0:
            print(f"{ts()} step {step} mean_loss {t.item() / world:.4f}", flush=True)
        if step % 30 == 0:
            path = os.path.join(CK, f"stage{rank}-step{step}.pt")
            t0 = time.time()
            with open(path, "wb") as f:
                torch.save({"stage": stage.state_dict()}, f)
            print(f"{ts()} saved {path} in {time.time() - t0:.2f}s", flush=True)
            dist.barrier()
        time.sleep(0.05)
    print(f"{ts()} done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
