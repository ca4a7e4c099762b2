# srun --label, 3 tasks. Gradients are flattened into one bucket and all-reduced manually.
# Each task reads its fine-tuning config from a node-local cache; task 1's cached config is
# stale (freeze_embeddings=True), so its flat gradient is shorter -> all_reduce sizes differ.
import os, time, json, datetime, logging
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="[%(asctime)s] %(levelname)s - %(message)s")
log = logging.getLogger()

def main():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29705")
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=30))
    cfg = {"freeze_embeddings": rank == 1, "lr": 3e-4, "source": f"/local/cache/ft_cfg.{rank}.json"}
    log.info("fine-tune config: %s", json.dumps(cfg))
    emb = nn.Embedding(1000, 64); head = nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1000))
    torch.manual_seed(0)
    emb.weight.requires_grad_(not cfg["freeze_embeddings"])
    params = [p for p in list(emb.parameters()) + list(head.parameters()) if p.requires_grad]
    log.info("trainable params: %d", sum(p.numel() for p in params))
    opt = torch.optim.Adam(params, lr=cfg["lr"])
    for step in range(30):
        tok = torch.randint(0, 1000, (16, 32))
        logits = head(emb(tok))
        loss = nn.functional.cross_entropy(logits.view(-1, 1000), tok.view(-1))
        opt.zero_grad(); loss.backward()
        flat = torch.cat([p.grad.reshape(-1) for p in params])
        dist.all_reduce(flat)
        flat /= world
        off = 0
        for p in params:
            n = p.numel(); p.grad.copy_(flat[off:off+n].view_as(p)); off += n
        opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
