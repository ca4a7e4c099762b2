# elastic-style job: checkpoints every 25 steps and resumes on restart; rank 1's object-store fetch is reset once
import os, sys, time, datetime, socket
import torch, torch.distributed as dist
def p(rank, m): print(f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S,%f}"[:-3] + f" [rank{rank}] {m}", flush=True)
def fetch_shard(rank, step, restart):
    if rank == 1 and step == 40 and restart == 0:
        raise ConnectionResetError(104, "Connection reset by peer (while reading s3://corpus/shards/00040.tar)")
    return torch.randn(16, 32)
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank(); restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0))
    ck = os.path.join(os.environ["CKPT"], "last.pt")
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(32, 32))
    opt = torch.optim.SGD(model.parameters(), lr=0.02)
    start = 0
    if os.path.exists(ck):
        sd = torch.load(ck); model.module.load_state_dict(sd["model"]); opt.load_state_dict(sd["opt"]); start = sd["step"]
        p(rank, f"restart {restart}: resumed from {ck} at step {start}")
    for step in range(start + 1, 101):
        x = fetch_shard(rank, step, restart)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0: p(rank, f"step {step} loss {loss.item():.4f}")
        if step % 25 == 0:
            if rank == 0:
                torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step}, ck + ".tmp"); os.replace(ck + ".tmp", ck)
                p(rank, f"checkpoint step {step} -> {ck}")
            dist.barrier()
        time.sleep(0.03)
    dist.destroy_process_group()
    p(rank, "finished 100 steps")
if __name__ == "__main__":
    main()
