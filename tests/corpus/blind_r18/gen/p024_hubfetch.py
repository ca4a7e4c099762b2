import json, os, time, urllib.request
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "hostpid")
T.init_pg()
model, opt = T.build(rank)
HUB = os.environ["HUB_URL"]
CACHE = os.environ["NODE_CACHE"]
ARTIFACT = "tokenizers/bpe-32k-v5/vocab.json"


def fetch_artifact(name, retries=3):
    dest = os.path.join(CACHE, name)
    if os.path.exists(dest):
        log.info("artifact %s found in node cache", name)
        return dest
    url = f"{HUB}/{name}"
    for attempt in range(1, retries + 1):
        try:
            log.info("downloading %s (attempt %d/%d)", url, attempt, retries)
            with urllib.request.urlopen(url, timeout=10) as r:
                data = r.read()
            break
        except OSError as e:
            log.warning("download of %s failed: %s", url, e)
            if attempt == retries:
                raise
            time.sleep(1.5 * attempt)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    open(dest, "wb").write(data)
    return dest


if local == 0:
    vocab_path = fetch_artifact(ARTIFACT)
dist.barrier()
vocab = json.load(open(os.path.join(CACHE, ARTIFACT)))
log.info("vocab size %d", len(vocab))
for step in range(1, 31):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 10 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.05)
dist.destroy_process_group()
