# CPU-only torch; rank TARGET (env, default 2) asks for a GPU the way MODE (env) says, the others train on CPU.
#   to: model.to(f"cuda:{rank}")   set_device: torch.cuda.set_device(rank)   nccl: init with the NCCL backend
#   map: torch.load(a checkpoint saved on a GPU) without map_location (simulated: map_location="cuda")
import os, torch, torch.distributed as dist
mode, target = os.environ.get("MODE", "to"), int(os.environ.get("TARGET", "2"))
rank = int(os.environ["RANK"])
if mode == "nccl" and rank == target:
    dist.init_process_group("nccl")
dist.init_process_group("gloo")
model = torch.nn.Linear(16, 16)
if rank == target:
    if mode == "to":
        model = model.to(f"cuda:{rank}")
    elif mode == "set_device":
        torch.cuda.set_device(rank)
    elif mode == "map":
        torch.save(model.state_dict(), f"w{rank}.pt")
        model.load_state_dict(torch.load(f"w{rank}.pt", map_location="cuda"))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    loss = model(torch.randn(4, 16)).pow(2).mean()
    loss.backward()
    opt.step()
    dist.barrier()
    print(f"rank {rank} step {step} loss {loss.item():.4f}", flush=True)
dist.destroy_process_group()
