# expert-parallel MoE layer: one expert per rank, tokens dispatched with all_to_all_single into
# fixed-capacity slots (capacity = ceil(capacity_factor * tokens / n_experts))
import os, json, math, time
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
cfg_path = os.path.join(os.environ["EXP_CACHE"], f"task{rank}", "moe_config.json")
cfg = json.load(open(cfg_path))
print(f"rank {rank}: config {cfg_path} revision={cfg['revision']} capacity_factor={cfg['capacity_factor']}", flush=True)
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:33008", rank=rank, world_size=world,
                        timeout=timedelta(seconds=20))
D, TOK = 32, 48
cap = math.ceil(cfg["capacity_factor"] * TOK / world)
torch.manual_seed(0)
router = nn.Linear(D, world); expert = nn.Sequential(nn.Linear(D, 64), nn.GELU(), nn.Linear(64, D))
for p in list(router.parameters()) + list(expert.parameters()): dist.broadcast(p.data, 0)
torch.manual_seed(100 + rank)
opt = torch.optim.SGD(list(router.parameters()) + list(expert.parameters()), lr=0.01)
print(f"rank {rank}: expert {rank}/{world}, {TOK} tokens per step, capacity {cap} slots per expert", flush=True)
for step in range(1, 61):
    x = torch.randn(TOK, D)
    gate = router(x).softmax(-1); top = gate.argmax(-1)
    send = torch.zeros(world * cap, D)
    for e in range(world):
        idx = (top == e).nonzero().flatten()[:cap]
        send[e * cap: e * cap + len(idx)] = x[idx] * gate[idx, e:e+1].detach()
    recv = torch.empty_like(send)
    dist.all_to_all_single(recv, send)
    out = expert(recv)
    back = torch.empty_like(out)
    dist.all_to_all_single(back, out.detach())
    loss = (out - recv).pow(2).mean() + 0.01 * gate.pow(2).sum(-1).mean()
    opt.zero_grad(); loss.backward()
    for p in router.parameters():
        dist.all_reduce(p.grad); p.grad /= world
    opt.step()
    if step % 10 == 0:
        print(f"rank {rank}: step {step} loss {loss.item():.4f} dropped {int(sum(max(0, int((top==e).sum()) - cap) for e in range(world)))}", flush=True)
    time.sleep(0.05)
print(f"rank {rank}: done", flush=True)
dist.destroy_process_group()
