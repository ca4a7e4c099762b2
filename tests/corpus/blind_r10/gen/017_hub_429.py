# BERT-style classifier fine-tune; every rank pulls config + vocab from the internal hub mirror at start-up
import os, json, urllib.request, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

HUB = os.environ.get("HUB_ENDPOINT", "http://127.0.0.1:30917")
REPO = "tiny-bert-ft"

def hub_download(fname, cache="hub_cache"):
    rank = os.environ["RANK"]
    os.makedirs(f"{cache}/{rank}", exist_ok=True)
    url = f"{HUB}/models/{REPO}/resolve/main/{fname}"
    dst = f"{cache}/{rank}/{fname}"
    with urllib.request.urlopen(url, timeout=10) as r, open(dst, "wb") as f:
        f.write(r.read())
    return dst

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    cfg = json.load(open(hub_download("config.json")))
    vocab = open(hub_download("vocab.txt")).read().split("\n")
    print(f"rank {rank}: loaded {REPO} config={cfg} vocab={len(vocab)}", flush=True)
    emb = nn.Embedding(cfg["vocab"], cfg["hidden"])
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(cfg["hidden"], 4, 64, batch_first=True), cfg["layers"])
    model = nn.parallel.DistributedDataParallel(nn.ModuleList([emb, enc, nn.Linear(cfg["hidden"], 2)]))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
    for step in range(30):
        ids = torch.randint(0, cfg["vocab"], (8, 24))
        h = model.module[1](model.module[0](ids))
        loss = nn.functional.cross_entropy(model.module[2](h[:, 0]), ids[:, 0] % 2)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
