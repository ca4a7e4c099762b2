# 030: each node's local rank 0 fetches tokenizer files into a node-local cache from $HF_ENDPOINT.
# Node 1 uses a mirror that is down during the first attempt; torchrun restarts and the mirror is back.
import json, os, sys, time, urllib.request, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

def fetch_tokenizer(log):
    cache = os.environ["TOKENIZER_CACHE"]; path = os.path.join(cache, "tokenizer.json")
    if os.path.exists(path):
        log.info(f"tokenizer cache hit: {path}")
        return
    url = f"{os.environ['HF_ENDPOINT']}/gpt2/resolve/main/tokenizer.json"
    log.info(f"downloading {url}")
    with urllib.request.urlopen(url, timeout=10) as r:
        data = r.read()
    os.makedirs(cache, exist_ok=True); open(path, "wb").write(data)
    log.info(f"saved {len(data)} bytes to {path}")

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    log.info(f"attempt {os.environ.get('TORCHELASTIC_RESTART_COUNT')} group_rank {os.environ.get('GROUP_RANK')}")
    if lib.LOCAL_RANK == 0:
        fetch_tokenizer(log)
    torch.distributed.barrier()
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    for step in range(1, 31):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 5 == 0:
            log.info(f"step {step} loss {loss.item():.4f}")
        time.sleep(0.1)
    log.info("finished")

if __name__ == "__main__":
    main()
