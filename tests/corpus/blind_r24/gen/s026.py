# 026: every node's local rank 0 stages the checkpoint on node-local scratch before upload;
# node 1's scratch is almost full (old job leftovers), so rank 2's save fails with ENOSPC.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from tqdm import tqdm
from torch.distributed.elastic.multiprocessing.errors import record

SCRATCH = os.environ["SCRATCH"]

@record
def main():
    rank, world = lib.init(timeout=30)
    m = torch.nn.Sequential(torch.nn.Linear(32, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 1))
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)
    bar = tqdm(range(1, 41), desc="train", disable=lib.LOCAL_RANK != 0, mininterval=0.3)
    for step in bar:
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        bar.set_postfix(loss=f"{loss.item():.4f}")
        if step % 20 == 0:
            if lib.LOCAL_RANK == 0:
                path = os.path.join(SCRATCH, f"ckpt_step{step}.pt")
                print(f"\nstaging checkpoint to {path}", flush=True)
                torch.save({"model": m.state_dict(), "optim": opt.state_dict(), "step": step}, path)
                print(f"staged {os.path.getsize(path)/1e6:.1f} MB", flush=True)
            torch.distributed.barrier()
        time.sleep(0.1)
    print("finished", flush=True)

if __name__ == "__main__":
    main()
