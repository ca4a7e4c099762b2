"""Accelerate custom loop on CPU. Modes: train (healthy), nan (rank --bad-rank's loss goes NaN: abort), scaler."""
import argparse, math, time
import torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed
import logging

p = argparse.ArgumentParser()
p.add_argument("--mode", default="train")
p.add_argument("--steps", type=int, default=80)
p.add_argument("--bad-rank", type=int, default=1)
p.add_argument("--bad-step", type=int, default=47)
args = p.parse_args()
logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s", level=logging.INFO)
log = get_logger("acc_train")

acc = Accelerator(cpu=True)
set_seed(0)
model = nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
ds = torch.utils.data.TensorDataset(torch.randn(4096, 16), torch.randn(4096, 1))
dl = torch.utils.data.DataLoader(ds, batch_size=32, shuffle=True)
model, opt, dl = acc.prepare(model, opt, dl)
log.info(f"world={acc.num_processes} device={acc.device} mixed_precision={acc.mixed_precision}", main_process_only=True)
step = 0
scale = 2.0 ** 32
for epoch in range(10):
    for x, y in dl:
        y = x[:, :2].sum(1, keepdim=True)
        out = model(x)
        if args.mode == "nan" and acc.process_index == args.bad_rank and step >= args.bad_step:
            out = out * float("inf") - out * float("inf")  # a feature blew up on this rank's shard
        loss = nn.functional.mse_loss(out, y)
        if args.mode == "nan" and not torch.isfinite(loss):
            log.error(f"rank {acc.process_index}: non-finite loss {loss.item()} at step {step}", main_process_only=False)
            raise FloatingPointError(f"Loss became {loss.item()} at step {step} (rank {acc.process_index})")
        if args.mode == "scaler":
            # dynamic loss scaling by hand: overflow -> skip step and halve scale (healthy warm-up behaviour)
            acc.backward(loss * scale)
            gn = sum(p.grad.float().norm() ** 2 for p in model.parameters() if p.grad is not None) ** 0.5
            overflow = (not torch.isfinite(gn)) or gn.item() > 6.5e4 * 1e3
            if overflow:
                scale /= 2
                log.warning(f"[step {step}] Gradient overflow. Skipping step, attempting to lower loss scale to {scale:.0f}", main_process_only=True)
                opt.zero_grad(); step += 1
                continue
            for p in model.parameters():
                p.grad /= scale
        else:
            acc.backward(loss)
        opt.step(); opt.zero_grad()
        if step % 10 == 0:
            l = acc.gather(loss.detach()[None]).mean().item()
            log.info(f"epoch {epoch} step {step} loss {l:.4f}", main_process_only=True)
        step += 1
        time.sleep(0.02)
        if step >= args.steps:
            break
    if step >= args.steps:
        break
acc.wait_for_everyone()
log.info("finished training", main_process_only=True)
acc.end_training()
