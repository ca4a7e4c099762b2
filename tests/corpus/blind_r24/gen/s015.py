# 015: each rank writes its optimizer shard in a background thread; rank 1's shard directory was
# created by root in an earlier debugging session, so the (non-root) job cannot write there.
# The thread dies with PermissionError at step 10; the main thread notices at the next save (step 20).
import os, sys, threading, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

CKPT = os.environ["CKPT_DIR"]

def write_shard(state, step, rank, done):
    d = os.path.join(CKPT, "shards", f"rank{rank}")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, f"optim_step{step:06d}.pt")
    torch.save(state, path + ".tmp"); os.replace(path + ".tmp", path)
    done[step] = path

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    m = lib.model(hidden=128); opt = torch.optim.AdamW(m.parameters(), lr=1e-3)
    done, writer, pending = {}, None, None
    for step in range(1, 41):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        log.info(f"step {step} loss {loss.item():.4f}")
        if step % 10 == 0:
            if writer is not None:
                writer.join()
                if pending not in done:
                    raise RuntimeError(f"async checkpoint of step {pending} did not complete on rank {rank}; refusing to continue without a restorable state")
            state = {k: v.clone() if torch.is_tensor(v) else v for k, v in opt.state_dict().items()}
            writer = threading.Thread(target=write_shard, args=(state, step, rank, done), name=f"ckpt-writer-{step}")
            writer.start(); pending = step
            log.info(f"checkpoint step {step}: optimizer shard write started in background")
        time.sleep(0.15)
    log.info("done")

if __name__ == "__main__":
    main()
