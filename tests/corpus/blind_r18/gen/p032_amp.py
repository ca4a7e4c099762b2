import os, time
import torch
import torch.distributed as dist
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "json")
T.init_pg()
model, opt = T.build(rank, lr=0.05)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 20, growth_interval=2000)
log.info("node %s local_rank %d: fp16 autocast with dynamic loss scaling (init scale %.0f)",
         os.environ.get("GROUP_RANK"), local, scaler.get_scale())
for step in range(1, 81):
    x, y = T.batch(rank, step)
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = torch.nn.functional.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    before = scaler.get_scale()
    scaler.step(opt)
    scaler.update()
    after = scaler.get_scale()
    if after < before:
        log.warning("gradient overflow at step %d, skipping optimizer step; loss scale %.0f -> %.0f", step, before, after)
    if step % 20 == 0:
        with torch.no_grad():
            err = (model(x).argmax(-1) != y).float().mean().item()
        log.info("step %d loss %.4f eval_error_rate %.3f loss_scale %.0f", step, loss.item(), err, after)
    time.sleep(0.05)
dist.barrier()
log.info("run complete")
dist.destroy_process_group()
