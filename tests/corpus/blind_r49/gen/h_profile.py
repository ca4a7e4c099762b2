"""A profiled training run: torch.profiler tables and a memory-summary style table at the end."""
import os, sys
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.profiler import profile, record_function, ProfilerActivity, schedule
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

rank, world = init()
model = DDP(MLP(d_h=256)); opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x, y = make_data(seed=5)
peak = {"alloc": 0, "n_alloc": 0}
with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=1, warmup=1, active=3, repeat=1),
             record_shapes=True, profile_memory=True) as prof:
    for step in range(8):
        with record_function("train_step"):
            i = (step * 32) % 448
            with record_function("forward"):
                loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32])
            with record_function("backward"):
                opt.zero_grad(); loss.backward()
            with record_function("optimizer"):
                opt.step()
        prof.step()
        print(f"[{rank}] step {step} loss {loss.item():.4f}", flush=True)
if rank == 0:
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=15), flush=True)
    print(prof.key_averages(group_by_input_shape=True).table(sort_by="cpu_memory_usage", row_limit=8), flush=True)
    nparam = sum(p.numel() * 4 for p in model.parameters())
    kb = lambda b: f"{b / 1024:8.1f} KiB"
    rows = [
        ("Allocated memory", kb(nparam * 3), kb(nparam * 4), kb(nparam * 40), kb(nparam * 37)),
        ("Active memory", kb(nparam * 3), kb(nparam * 4), kb(nparam * 40), kb(nparam * 37)),
        ("Requested memory", kb(nparam * 3), kb(nparam * 4), kb(nparam * 40), kb(nparam * 37)),
        ("Reserved memory", kb(nparam * 4), kb(nparam * 5), kb(nparam * 5), kb(0)),
        ("Non-releasable memory", kb(1024), kb(4096), kb(nparam * 2), kb(nparam * 2)),
    ]
    print("|" + "=" * 75 + "|")
    print("|                  PyTorch CPU memory management summary (host), rank 0                  |")
    print("|---------------------------------------------------------------------------|")
    print("|            OOMs: 0            |        allocator retries: 0                |")
    print("|===========================================================================|")
    print("|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |")
    print("|---------------------------------------------------------------------------|")
    for r in rows:
        print("| %-21s | %s | %s | %s | %s |" % r)
    print("|===========================================================================|")
dist.barrier(); dist.destroy_process_group()
print(f"[{rank}] profiling run finished", flush=True)
