# dev_train.py -- started by hand in three tmux panes (RANK set per pane)
import os, time, torch, torch.nn as nn, torch.distributed as dist
rank = int(os.environ["RANK"])
dist.init_process_group("gloo", timeout=__import__("datetime").timedelta(seconds=30))
print(f"hello from rank {rank} of {dist.get_world_size()}")
m = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1)))
o = torch.optim.SGD(m.parameters(), lr=0.01)
for it in range(2000):
    x = torch.randn(16, 32)
    l = m(x).pow(2).mean(); o.zero_grad(); l.backward(); o.step()
    if it % 20 == 0:
        print(f"it {it} loss {l.item():.4f}")
    time.sleep(0.02)
print("done")
