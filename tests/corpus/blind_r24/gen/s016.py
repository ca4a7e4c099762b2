# 016: sharded checkpoint written by a background writer per rank, each guarded by an flock on its
# shard directory. On rank 3 the lock is still held by a leftover uploader from the previous job,
# so rank 3's writer never starts writing; the commit barrier times out on the others.
import fcntl, os, sys, threading, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
import torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

CKPT = os.environ["CKPT_DIR"]

def writer(state, step, rank, t0):
    d = os.path.join(CKPT, f"step_{step}", f"rank{rank}"); os.makedirs(d, exist_ok=True)
    lockf = open(os.path.join(CKPT, f"rank{rank}.lock"), "a+")
    fcntl.flock(lockf, fcntl.LOCK_EX)           # serialize with the uploader
    try:
        torch.save(state, os.path.join(d, "model.pt"))
        print(f"ckpt writer: step {step} shard written in {time.time()-t0:.2f}s", flush=True)
    finally:
        fcntl.flock(lockf, fcntl.LOCK_UN)

@record
def main():
    rank, world = lib.init(timeout=25)
    m = lib.model(hidden=256); opt = torch.optim.SGD(m.parameters(), lr=0.01)
    w = None
    for step in range(1, 31):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        print(f"it {step} loss={loss.item():.4f}", flush=True)
        if step == 10:
            print("checkpoint: starting async save of step 10", flush=True)
            w = threading.Thread(target=writer, args=({k: v.clone() for k, v in m.state_dict().items()}, step, rank, time.time()), name="ckpt-writer")
            w.start()
        if step == 14:
            print("checkpoint: waiting for writer to finish step 10", flush=True)
            w.join()
            dist.barrier()
            if rank == 0:
                open(os.path.join(CKPT, "step_10", "COMMITTED"), "w").write("ok")
            print("checkpoint: step 10 committed", flush=True)
        time.sleep(0.2)
    print("training finished", flush=True)

if __name__ == "__main__":
    main()
