# torchrun --tee 3 (console only), 4 ranks. The usual "download on rank 0, others wait at a
# barrier" pattern: rank 0 fetches the tokenizer vocab from the hub, the node has no route to it
# (DNS fails); rank 0 retries with backoff then raises; ranks 1-3 sitting in the barrier see
# the connection drop.
import os, sys, time, datetime, logging, urllib.request, urllib.error
import torch, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="%(asctime)s | %(levelname)-8s | %(module)s:%(funcName)s:%(lineno)d - %(message)s")
log = logging.getLogger()
URL = "https://huggingface.co/bert-base-uncased/resolve/main/vocab.txt"

def fetch(url, dest, tries=4):
    for i in range(1, tries + 1):
        try:
            with urllib.request.urlopen(url, timeout=5) as r, open(dest, "wb") as f:
                f.write(r.read()); return dest
        except urllib.error.URLError as e:
            if i == tries: raise
            wait = 2 ** i
            log.warning("download of %s failed (%s), retry %d/%d in %ds", url, e.reason, i, tries - 1, wait)
            time.sleep(wait)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=60))
    rank = dist.get_rank()
    cache = os.environ.get("HF_HOME", "/tmp/hfcache")
    os.makedirs(cache, exist_ok=True)
    if rank == 0:
        log.info("fetching tokenizer files into %s", cache)
        fetch(URL, os.path.join(cache, "vocab.txt"))
    else:
        log.info("rank %d waiting for rank 0 to populate the cache", rank)
    dist.barrier()
    vocab = open(os.path.join(cache, "vocab.txt")).read().split()
    log.info("vocab size %d", len(vocab))
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
