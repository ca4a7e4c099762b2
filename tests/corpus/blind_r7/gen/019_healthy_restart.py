# elastic_train.py -- checkpoints every 10 steps, resumes after torchrun restarts the group
import os, time, torch, torch.nn as nn, torch.distributed as dist
rank = int(os.environ["RANK"]); restart = int(os.environ.get("TORCHELASTIC_RESTART_COUNT", 0))
CK = os.environ["CKPT"]
# workaround: gloo re-reads stale peer addresses from the agent store after a restart,
# so namespace the rendezvous keys by restart count
_store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), is_master=False)
dist.init_process_group("gloo", store=dist.PrefixStore(f"attempt{restart}", _store),
                        rank=rank, world_size=int(os.environ["WORLD_SIZE"]))
model = nn.Linear(16, 16); opt = torch.optim.SGD(model.parameters(), lr=0.01)
start = 0
if os.path.exists(CK):
    st = torch.load(CK, weights_only=True); model.load_state_dict(st["model"]); start = st["step"] + 1
    print(f"[rank{rank}] restart #{restart}: resumed from {CK} at step {start}", flush=True)
ddp = nn.parallel.DistributedDataParallel(model)
for step in range(start, 60):
    if rank == 1 and restart == 0 and step == 27:
        # transient failure talking to the feature server
        raise ConnectionError("feature-server 10.3.1.7:7070 reset connection during batch fetch (ECONNRESET)")
    loss = ddp(torch.randn(8, 16)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    if step % 10 == 0:
        print(f"[rank{rank}] step {step} loss {loss.item():.4f}", flush=True)
        if rank == 0:
            torch.save({"model": model.state_dict(), "step": step}, CK)
    time.sleep(0.05)
print(f"[rank{rank}] finished 60 steps", flush=True)
dist.destroy_process_group()
