# char-level LM; rank 2 is the designated "sample logger" that writes a generation every 10 steps.
# A stall watchdog thread aborts the process if no training step finishes for WATCHDOG_S seconds.
import os, sys, time, threading, faulthandler
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
WATCHDOG_S = 8.0
last_step = [time.monotonic(), 0]

def watchdog():
    while True:
        time.sleep(1.0)
        idle = time.monotonic() - last_step[0]
        if idle > WATCHDOG_S:
            print(f"[watchdog] rank {rank}: no training step completed for {idle:.1f}s (last step {last_step[1]}); dumping stacks and aborting", flush=True)
            faulthandler.dump_traceback(file=sys.stdout, all_threads=True)
            sys.stdout.flush()
            os.abort()

V, EOS = 64, 0
class CharLM(nn.Module):
    def __init__(self):
        super().__init__(); self.emb = nn.Embedding(V, 48); self.rnn = nn.GRU(48, 48, batch_first=True); self.out = nn.Linear(48, V)
    def forward(self, x, h=None):
        o, h = self.rnn(self.emb(x), h); return self.out(o), h

@torch.no_grad()
def sample(m):
    x, h, outs = torch.tensor([[1]]), None, []
    while True:                                   # generate until EOS
        logits, h = m(x, h)
        nxt = int(logits[0, -1, 1:].argmax()) + 1 if len(outs) % 2 else int(logits[0, -1].argmax())
        if nxt == EOS: break
        outs.append(nxt); x = torch.tensor([[nxt]])
    return outs

dist.init_process_group("gloo", init_method="tcp://127.0.0.1:32116", rank=rank, world_size=world,
                        timeout=timedelta(seconds=15))
threading.Thread(target=watchdog, daemon=True, name="stall-watchdog").start()
model = DDP(CharLM()); opt = torch.optim.Adam(model.parameters(), 2e-3)
g = torch.Generator().manual_seed(rank)
for step in range(1, 61):
    x = torch.randint(1, V, (16, 33), generator=g)
    logits, _ = model(x[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, V), x[:, 1:].reshape(-1))
    opt.zero_grad(); loss.backward(); opt.step()
    last_step[:] = [time.monotonic(), step]
    print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
    if rank == 2 and step % 10 == 0:
        s = sample(model.module)
        print(f"rank {rank} sample: {s[:40]}", flush=True)
    time.sleep(0.05)
dist.destroy_process_group()
