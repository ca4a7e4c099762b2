# rank 0 writes the epoch checkpoint to shared storage; the eval rank (first rank of node 1)
# polls for the file and evaluates it -- no barrier between the save and the load
import os, io, sys, time, datetime
import torch, torch.distributed as dist

CKPT_DIR = os.environ["CKPT_DIR"]

def p(msg):
    print(f"[{datetime.datetime.now():%H:%M:%S}] {msg}", flush=True)

def slow_save(obj, path, chunk=1 << 16):
    buf = io.BytesIO(); torch.save(obj, buf); data = buf.getvalue()
    with open(path, "wb") as f:          # written in place on the shared FS, chunk by chunk
        for i in range(0, len(data), chunk):
            f.write(data[i:i + chunk]); f.flush(); time.sleep(0.15)
    return len(data)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank, ws = dist.get_rank(), dist.get_world_size()
    local_ws = int(os.environ["LOCAL_WORLD_SIZE"])
    eval_rank = local_ws           # first rank of the second node hosts the eval harness
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(), torch.nn.Linear(512, 256)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for epoch in range(2):
        for step in range(20):
            x = torch.randn(16, 256, generator=g)
            loss = (model(x) - x).pow(2).mean()
            opt.zero_grad(); loss.backward(); opt.step()
            if step % 10 == 0:
                p(f"rank {rank} epoch {epoch} step {step} loss {loss.item():.4f}")
        path = os.path.join(CKPT_DIR, f"epoch_{epoch}.pt")
        if rank == 0:
            n = slow_save({"model": model.module.state_dict(), "opt": opt.state_dict(), "epoch": epoch}, path)
            p(f"rank 0 saved checkpoint {path} ({n/1e6:.1f} MB)")
        if rank == eval_rank:
            while not os.path.exists(path):
                time.sleep(0.2)
            p(f"rank {rank} found {path}, running eval")
            sd = torch.load(path, map_location="cpu")
            p(f"rank {rank} eval of epoch {sd['epoch']} ok")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
