# tiny MLP DDP job started on two "nodes" by a per-node launcher script
import os, time, datetime
import torch, torch.distributed as dist
def main():
    print(f"[worker] host node{os.environ.get('NODE_ID')} RANK={os.environ['RANK']} LOCAL_RANK={os.environ['LOCAL_RANK']} WORLD_SIZE={os.environ['WORLD_SIZE']} GROUP_RANK={os.environ['GROUP_RANK']}", flush=True)
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=25))
    rank = dist.get_rank()
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(8, 8))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(50):
        loss = model(torch.randn(4, 8)).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
