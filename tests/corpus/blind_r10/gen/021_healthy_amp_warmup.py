# fp16 autocast + GradScaler fine-tune; the first steps overflow while the loss scale calibrates
import os, logging, warnings, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s | rank {rank} | %(levelname)s | %(message)s")
    log = logging.getLogger("ft")
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 10)))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 24)
    g = torch.Generator().manual_seed(rank)
    W = torch.randn(64, 10, generator=torch.Generator().manual_seed(9))
    skipped = 0
    for step in range(1, 301):
        x = torch.randn(32, 64, generator=g)
        y = (x @ W).argmax(1)
        with torch.autocast("cpu", dtype=torch.float16):
            loss = nn.functional.cross_entropy(model(x), y)
        scale_before = scaler.get_scale()
        scaler.scale(loss).backward()
        scaler.step(opt); scaler.update(); opt.zero_grad(set_to_none=True)
        if scaler.get_scale() < scale_before:
            skipped += 1
            if rank == 0:
                log.warning("step %d: gradient overflow (inf/nan in fp16 grads), optimizer step skipped; "
                            "loss scale %.0f -> %.0f", step, scale_before, scaler.get_scale())
        if rank == 0 and step % 50 == 0:
            log.info("step %d loss %.4f scale %.0f skipped_total %d", step, loss.item(), scaler.get_scale(), skipped)
    if rank == 0:
        log.info("finished 300 steps, %d overflow-skipped steps (all during loss-scale warm-up)", skipped)
        log.info("final loss %.4f", loss.item())
    dist.barrier()
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
