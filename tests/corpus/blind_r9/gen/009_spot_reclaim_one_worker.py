# DDP training of a small conv net; logging via the logging module to stdout (files) and warnings to stderr
import os, sys, time, datetime, logging, warnings
import torch, torch.distributed as dist, torch.nn as nn
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(asctime)s [%(levelname)s] %(message)s")
log = logging.getLogger()
def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(128, 10))
    model = nn.parallel.DistributedDataParallel(net)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, 50)
    g = torch.Generator().manual_seed(rank)
    for step in range(400):
        x = torch.randn(16, 3, 32, 32, generator=g); y = torch.randint(0, 10, (16,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step(); sched.step()
        if step % 20 == 0:
            log.info("rank=%d step=%d loss=%.4f lr=%.4g", rank, step, loss.item(), sched.get_last_lr()[0])
        time.sleep(0.08)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
