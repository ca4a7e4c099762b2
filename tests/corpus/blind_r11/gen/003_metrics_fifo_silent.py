# Image-classifier style training (synthetic), DDP over gloo. Rank 0 exports Prometheus
# metrics to the node-exporter textfile collector every 10 steps.
import os, sys, time, datetime, inspect
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

RANK = int(os.environ["RANK"])
def log(level, msg):
    fr = inspect.currentframe().f_back
    ts = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    print(f"{ts} | {level:<8} | rank={RANK} | {__name__}:{fr.f_code.co_name}:{fr.f_lineno} - {msg}", flush=True)

METRICS = os.environ.get("PROM_TEXTFILE", "/var/lib/node_exporter/textfile/train.prom")

def export_metrics(step, loss, ips):
    # node exporter textfile collector: the sidecar reads this path
    with open(METRICS, "w") as f:
        f.write(f"train_step {step}\ntrain_loss {loss}\ntrain_images_per_sec {ips}\n")

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    world = dist.get_world_size()
    log("INFO", f"initialized process group backend=gloo world_size={world}")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(128, 10)))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    t0 = time.time()
    for step in range(1, 81):
        x = torch.randn(16, 3, 24, 24); y = torch.randint(0, 10, (16,))
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log("INFO", f"step={step} loss={loss.item():.4f} lr=0.05 imgs/s={step*16/(time.time()-t0):.1f}")
        if RANK == 0 and step % 10 == 0:
            export_metrics(step, loss.item(), step * 16 / (time.time() - t0))
        time.sleep(0.1)
    log("SUCCESS", "training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
