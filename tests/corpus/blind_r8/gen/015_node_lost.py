# Two torchrun agents as two nodes: node A runs 2 workers, node B 1 worker (world 3).
# ~20 s in, node B "loses power": its agent and worker are SIGKILLed together (no log line,
# no traceback, the agent never reports). Node A's workers lose their peer.
import datetime, os, socket, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); node = os.environ.get("NODE_NAME", socket.gethostname())

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} [{node}] rank {rank}/{dist.get_world_size()} up (local_rank {os.environ['LOCAL_RANK']})", flush=True)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 128)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(1, 2000):
        x = torch.randn(32, 128)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0:
            print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} [{node}] rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
