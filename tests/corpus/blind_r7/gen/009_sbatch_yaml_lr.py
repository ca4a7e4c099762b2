# pretrain.py -- config-driven trainer launched as: sbatch -> srun -> torchrun
import os, sys, time, argparse, yaml, torch, torch.nn as nn, torch.distributed as dist

def build_optimizer(params, cfg):
    name = cfg["name"].lower()
    kw = dict(lr=cfg["lr"], weight_decay=cfg.get("weight_decay", 0.0))
    if name == "adamw":
        return torch.optim.AdamW(params, betas=tuple(cfg["betas"]), **kw)
    if name == "sgd":
        return torch.optim.SGD(params, momentum=0.9, **kw)
    raise ValueError(f"unknown optimizer {name}")

def main():
    ap = argparse.ArgumentParser(); ap.add_argument("--config", required=True); args = ap.parse_args()
    cfg = yaml.safe_load(open(args.config))
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    if rank == 0:
        print(f"config: {cfg}", flush=True)
    torch.manual_seed(1234)
    m = cfg["model"]
    layers = [nn.Linear(m["d_model"], m["d_model"]) for _ in range(m["n_layers"])]
    model = nn.parallel.DistributedDataParallel(nn.Sequential(*layers))
    print(f"[rank {rank}] model ready: {sum(p.numel() for p in model.parameters())} params", flush=True)
    opt = build_optimizer(model.parameters(), cfg["optim"])
    for step in range(cfg["train"]["steps"]):
        x = torch.randn(cfg["train"]["batch_size"], m["d_model"])
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % cfg["train"]["log_every"] == 0:
            print(f"step {step} loss {loss.item():.4f}", flush=True)

if __name__ == "__main__":
    main()
