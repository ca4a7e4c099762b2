"""Training that resumes from a checkpoint and prints the previous run's saved state."""
import json, os, signal, sys, time
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

ckdir = sys.argv[1]; phase = sys.argv[2]; max_steps = int(sys.argv[3])
rank, world = init()
model = DDP(MLP()); opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
x, y = make_data(seed=1)
step = 0; history = []; stop = {"flag": False, "why": None}
def on_term(sig, frm):
    stop["flag"] = True; stop["why"] = "SIGTERM"
signal.signal(signal.SIGTERM, on_term)
path = os.path.join(ckdir, "last.pt")
if phase == "resume" and os.path.exists(path):
    ck = torch.load(path, weights_only=False)
    model.module.load_state_dict(ck["model"]); opt.load_state_dict(ck["opt"]); step = ck["step"]; history = ck["history"]
    if rank == 0:
        print(f"[resume] loaded {path}: step={ck['step']} epoch={ck['epoch']} saved_at={ck['saved_at']}", flush=True)
        print(f"[resume] previous run stopped because: {ck['stop_reason']}", flush=True)
        print("[resume] previous run's last log lines:", flush=True)
        for h in history[-6:]:
            print("[resume]   | " + h, flush=True)
        print(f"[resume] optimizer state restored (lr={opt.param_groups[0]['lr']}); continuing to step {max_steps}", flush=True)
while step < max_steps and not stop["flag"]:
    i = (step * 32) % 480
    loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32])
    opt.zero_grad(); loss.backward(); opt.step(); step += 1
    if step % 10 == 0:
        line = f"step {step} loss {loss.item():.4f}"
        history.append(line)
        if rank == 0:
            print(f"[rank0] {line}", flush=True)
    if phase == "first":
        time.sleep(0.05)
flag = torch.tensor([1.0 if stop["flag"] else 0.0]); dist.all_reduce(flag)
if rank == 0:
    reason = "SIGTERM received at step %d (handler saved and exited)" % step if flag.item() else "max_steps reached"
    if flag.item():
        history.append(f"Received SIGTERM at step {step}; saving checkpoint and exiting")
    torch.save({"model": model.module.state_dict(), "opt": opt.state_dict(), "step": step, "epoch": step // 15,
                "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S"), "stop_reason": reason, "history": history}, path)
    print(f"[rank0] saved checkpoint {path} at step {step} ({reason})", flush=True)
dist.barrier(); dist.destroy_process_group()
if rank == 0:
    print("[rank0] training finished", flush=True)
