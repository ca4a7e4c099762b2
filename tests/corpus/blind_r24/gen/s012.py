# 012: a tokenizer thread feeds a queue; on rank 1 it hits a record without "text" and dies;
# the main thread waits on queue.get() forever, peers wait in all_reduce (long PG timeout);
# Slurm's time limit ends the job.
import json, os, queue, sys, threading, time, torch
os.environ.setdefault("RANK", os.environ.get("SLURM_PROCID", "0"))
os.environ.setdefault("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1"))
sys.path.insert(0, os.path.dirname(__file__))
import lib

def tokenizer_thread(path, q):
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            ids = [hash(w) % 32000 for w in rec["text"].split()]
            q.put(torch.tensor(ids[:32] + [0] * (32 - len(ids[:32])), dtype=torch.float32))

def main():
    rank, world = lib.init(timeout=300)
    log = lib.Log("logging_norank", name="pretrain")
    path = os.path.join(os.environ["DATA_DIR"], f"part-{rank:05d}.jsonl")
    log.info(f"tokenizing {path} in background")
    q = queue.Queue(maxsize=64)
    threading.Thread(target=tokenizer_thread, args=(path, q), name="tokenizer", daemon=True).start()
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=1e-4)
    for step in range(1, 200):
        xs = torch.stack([q.get() for _ in range(8)]) / 32000
        y = xs.mean(1, keepdim=True)
        loss = torch.nn.functional.mse_loss(m(xs), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 5 == 0:
            log.info(f"step {step} loss {loss.item():.5f}")
        time.sleep(0.1)
    log.info("done")

if __name__ == "__main__":
    main()
