# 032 (healthy): rank 2's shard index is still being synced when training starts; the loader logs
# the FileNotFoundError with its traceback, retries, succeeds, and the run completes.
import json, logging, os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

def load_index(path, lg, tries=5):
    for i in range(1, tries + 1):
        try:
            with open(path) as f:
                return json.load(f)
        except FileNotFoundError:
            lg.exception(f"could not read shard index {path} (attempt {i}/{tries}), retrying in 2s")
            time.sleep(2)
    raise RuntimeError(f"shard index {path} unavailable")

@record
def main():
    rank, world = lib.init(timeout=60)
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
                        format="[%(asctime)s][%(name)s][%(levelname)s] - %(message)s")
    lg = logging.getLogger("data")
    idx = load_index(os.path.join(os.environ["DATA_DIR"], f"rank{rank}", "index.json"), lg)
    lg.info(f"shard index ok: {idx['num_samples']} samples")
    torch.distributed.barrier()
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    tl = logging.getLogger("trainer")
    for step in range(1, 41):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 4 == 0:
            tl.info(f"global_step={step} train/loss={loss.item():.4f}")
        time.sleep(0.1)
    tl.info("Training completed.")

if __name__ == "__main__":
    main()
