# periodic validation: only rank 0 evaluates; the author put the synchronising barrier inside the rank-0 branch
import os, sys, time, datetime
import torch, torch.distributed as dist
def say(rank, msg):
    print(f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S} [Rank {rank}] {msg}", flush=True)
def validate(model):
    with torch.no_grad():
        x = torch.randn(256, 32); return torch.nn.functional.mse_loss(model(x), x[:, :8]).item()
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(32, 8))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(1, 201):
        x = torch.randn(16, 32)
        loss = torch.nn.functional.mse_loss(model(x), x[:, :8])
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            say(rank, f"step {step} loss {loss.item():.4f}")
        if step % 50 == 0 and rank == 0:
            say(rank, f"running validation at step {step}")
            v = validate(model.module)
            say(rank, f"val_loss {v:.4f}, saving best")
            dist.barrier()          # wait for the other ranks before continuing
        time.sleep(0.03)
    dist.destroy_process_group()
    say(rank, "done")
if __name__ == "__main__":
    main()
