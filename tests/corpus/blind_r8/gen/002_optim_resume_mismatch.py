# Resume with per-rank (ZeRO-1 style) optimizer shards, launched with mp.spawn, 3 ranks.
# Phase "prepare": a previous run (experiment v1) writes model + per-rank optimizer shards.
# The v1 run grouped LayerNorm weights with the decayed params; v2 (this code) puts them
# in no_decay. Every rank's shard was re-saved by a v2 warm-start except rank 1's, whose
# v2 save was lost, so rank 1 picks up the v1 shard -> param-group size mismatch on load.
import glob, logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist, torch.multiprocessing as mp

CK = sys.argv[2]

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(200, 32); self.ln = nn.LayerNorm(32)
        self.ff = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32)); self.out = nn.Linear(32, 200)
    def forward(self, x):
        return self.out(self.ff(self.ln(self.emb(x))))

def groups(model, v):
    decay, nodecay = [], []
    for n, p in model.named_parameters():
        if n.endswith("bias") or (v == 2 and n.startswith("ln")):
            nodecay.append(p)
        else:
            decay.append(p)
    return [{"params": decay, "weight_decay": 0.1}, {"params": nodecay, "weight_decay": 0.0}]

def run(rank, world, mode):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT="29902")
    fh = logging.FileHandler(os.path.join(os.path.dirname(CK), f"train_rank{rank}.log"), mode="a")
    sh = logging.StreamHandler(sys.stdout)
    logging.basicConfig(level=logging.INFO, handlers=[fh, sh],
                        format="%(asctime)s | %(levelname)-7s | rank %(rank)s | %(message)s")
    old = logging.getLogRecordFactory()
    def fac(*a, **k):
        r = old(*a, **k); r.rank = rank; return r
    logging.setLogRecordFactory(fac)
    log = logging.getLogger("lm")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(Net())
    v = 1 if (mode == "prepare" and rank == 1) else 2
    opt = torch.optim.AdamW(groups(model.module, v), lr=3e-4)
    start = 0
    if mode == "resume":
        log.info("resuming: looking for checkpoints in %s", CK)
        sd = torch.load(f"{CK}/model_step200.pt", map_location="cpu")
        model.module.load_state_dict(sd); log.info("loaded model weights model_step200.pt")
        shard = sorted(glob.glob(f"{CK}/optim_rank{rank}_step*.pt"))[-1]
        log.info("loading optimizer shard %s", os.path.basename(shard))
        opt.load_state_dict(torch.load(shard, map_location="cpu"))
        start = 200
        log.info("optimizer state restored, resuming at step %d", start)
    for step in range(start + 1, start + 31):
        x = torch.randint(0, 200, (16, 12))
        loss = nn.functional.cross_entropy(model(x).flatten(0, 1), x.flatten())
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("step %d | loss %.4f | lr %.2e", step, loss.item(), opt.param_groups[0]["lr"])
        time.sleep(0.05)
    if mode == "prepare":
        if rank == 0:
            torch.save(model.module.state_dict(), f"{CK}/model_step200.pt")
        tag = "step150" if rank == 1 else "step200"
        torch.save(opt.state_dict(), f"{CK}/optim_rank{rank}_{tag}.pt")
    dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    mode = sys.argv[1]
    os.makedirs(CK, exist_ok=True)
    mp.spawn(run, args=(3, mode), nprocs=3, join=True)
