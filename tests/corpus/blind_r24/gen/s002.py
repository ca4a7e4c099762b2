# 002: rank 2's eval hits a CPU allocator failure while rank 0 is writing a checkpoint;
# the agent's SIGTERM tears rank 0's non-atomic save; the restart dies loading it on every rank.
import io, os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

CKPT = os.environ["CKPT_DIR"]

def slow_save(obj, path, log):
    buf = io.BytesIO(); torch.save(obj, buf); data = buf.getvalue()
    log.info(f"writing checkpoint {path} ({len(data)/1e6:.1f} MB)")
    with open(path, "wb") as f:              # written in place, not via a temp file
        for i in range(0, len(data), 1 << 18):
            f.write(data[i:i + (1 << 18)]); f.flush(); os.fsync(f.fileno())
            time.sleep(0.25)                   # network filesystem, ~1 MB/s
    log.info(f"checkpoint written: {path}")

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("print")
    m = torch.nn.Sequential(torch.nn.Linear(32, 768), torch.nn.ReLU(), torch.nn.Linear(768, 768), torch.nn.ReLU(), torch.nn.Linear(768, 1))
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)
    path = os.path.join(CKPT, "model_latest.pt")
    start = 0
    if os.path.exists(path):
        log.info(f"found checkpoint {path}, resuming")
        sd = torch.load(path, map_location="cpu")
        m.load_state_dict(sd["model"]); opt.load_state_dict(sd["optim"]); start = sd["step"]
    for step in range(start + 1, 31):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 2 == 0:
            log.info(f"iter {step:4d} | loss {loss.item():.5f} | lr 1.0e-03")
        if step % 10 == 0:
            torch.distributed.barrier()
            if rank == 0:
                slow_save({"model": m.state_dict(), "optim": opt.state_dict(), "step": step}, path, log)
            else:
                n_docs = 512
                seq = 50257 if rank == 2 else 512   # rank 2's eval shard header reports vocab size as length
                log.info(f"eval: {n_docs} docs, max_len {seq}")
                for b in range(0, n_docs, 8):
                    logits = torch.empty(8, seq, 50257)   # eval batch of 8 docs x max_len x vocab
                    del logits
                log.info("eval: done")
            torch.distributed.barrier()
        time.sleep(0.1)
    log.info("finished")

if __name__ == "__main__":
    main()
