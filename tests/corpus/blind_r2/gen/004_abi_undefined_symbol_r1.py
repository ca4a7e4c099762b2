# Training script importing a compiled fused-ops extension. On "node B" the extension was
# built against a different torch and references a symbol that does not exist -> ImportError.
import os, socket, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
import fastops  # fused kernels (C extension)

def main():
    rank = int(os.environ["RANK"])
    print(f"rank {rank} on {os.environ.get('SIM_NODE')} using fastops {fastops.__version__} from {fastops.__file__}", flush=True)
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    model = DDP(torch.nn.Linear(16, 16))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(1, 30):
        loss = fastops.fused_square_mean(model(torch.randn(8, 16)))
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
