import os, time, datetime
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

R = int(os.environ["RANK"])
def rlog(level, msg, where):
    ts = datetime.datetime.now().strftime("%H:%M:%S")
    print(f"[{ts}] {level:<8} {msg:<70} {where}", flush=True)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(384, 768), nn.ReLU(), nn.Linear(768, 384)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    out = os.environ["OUT_DIR"]
    if R == 0:
        rlog("INFO", f"output_dir={out} save_every=20", "train.py:31")
    for step in range(1, 41):
        x = torch.randn(16, 384)
        loss = (model(x) - x).abs().mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if R == 0 and step % 10 == 0:
            rlog("INFO", f"step {step:>4} | loss {loss.item():.4f} | lr 5.00e-02", "train.py:40")
        if step % 20 == 0:
            if R == 0:
                path = os.path.join(out, f"ckpt-{step}.pt")
                rlog("INFO", f"Saving checkpoint to {path}", "train.py:44")
                torch.save({"model": model.module.state_dict(), "opt": opt.state_dict()}, path)
                rlog("INFO", "Checkpoint saved", "train.py:46")
            dist.barrier()
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
