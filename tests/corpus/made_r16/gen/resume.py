# Each rank resumes from its own checkpoint file (ckpt/rank{N}.pt); one of them was damaged beforehand
# (gen/make_ckpts.py). LOAD=bytes reads the file into memory first (as code that fetches from object storage does).
import io, os, torch, torch.distributed as dist
dist.init_process_group("gloo")
rank = dist.get_rank()
path = f"ckpt/rank{rank}.pt"
print(f"rank {rank}: resuming from {path}", flush=True)
if os.environ.get("LOAD") == "bytes":
    with open(path, "rb") as f:
        sd = torch.load(io.BytesIO(f.read()), map_location="cpu")
else:
    sd = torch.load(path, map_location="cpu")
model = torch.nn.Linear(64, 64)
model.load_state_dict(sd["model"])
dist.barrier()
print(f"rank {rank}: resumed at step {sd['step']}", flush=True)
dist.destroy_process_group()
