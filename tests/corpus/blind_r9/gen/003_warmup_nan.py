# regression model with linear LR warmup; peak LR is mistyped (3e1 instead of 3e-4)
import os, json, time, datetime, sys, math
import torch, torch.distributed as dist

def jlog(**kw):
    kw = {"ts": datetime.datetime.now().isoformat(timespec="milliseconds"), "rank": int(os.environ["RANK"]), **kw}
    print(json.dumps(kw), flush=True)

CFG = {"peak_lr": 3e1, "warmup_steps": 50, "steps": 200, "batch": 32}

def lr_at(step):
    if step < CFG["warmup_steps"]:
        return CFG["peak_lr"] * (step + 1) / CFG["warmup_steps"]
    return CFG["peak_lr"] * 0.5 * (1 + math.cos(math.pi * (step - CFG["warmup_steps"]) / (CFG["steps"] - CFG["warmup_steps"])))

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    jlog(event="config", **CFG, world_size=dist.get_world_size())
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.Tanh(), torch.nn.Linear(64, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=lr_at(0), momentum=0.9)
    g = torch.Generator().manual_seed(rank)
    w_true = torch.randn(16, 1, generator=torch.Generator().manual_seed(42))
    for step in range(CFG["steps"]):
        for pg in opt.param_groups:
            pg["lr"] = lr_at(step)
        x = torch.randn(CFG["batch"], 16, generator=g)
        y = x @ w_true + 0.1 * torch.randn(CFG["batch"], 1, generator=g)
        loss = torch.nn.functional.mse_loss(model(x), y)
        if not torch.isfinite(loss):
            jlog(event="nonfinite_loss", step=step, loss=str(loss.item()), lr=lr_at(step))
            raise FloatingPointError(f"Loss is {loss.item()} at step {step}, stopping training")
        opt.zero_grad(); loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
        opt.step()
        jlog(event="train", step=step, loss=round(loss.item(), 5), grad_norm=round(gn.item(), 4), lr=round(lr_at(step), 6))
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
