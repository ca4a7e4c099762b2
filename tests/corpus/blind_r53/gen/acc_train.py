#!/usr/bin/env python3
"""HF accelerate on CPU under torchrun. env MODE, CULPRIT, FSTEP."""
import os
import torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
import logging
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
MODE = os.environ.get("MODE", "none"); CUL = int(os.environ.get("CULPRIT", "-1")); FSTEP = int(os.environ.get("FSTEP", "5"))
acc = Accelerator(cpu=True)
logger = get_logger(__name__)
logger.info(f"state: {acc.state}", main_process_only=False)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
ds = torch.utils.data.TensorDataset(torch.randn(256, 16), torch.randn(256, 1))
dl = torch.utils.data.DataLoader(ds, batch_size=16, shuffle=True)
model, opt, dl = acc.prepare(model, opt, dl)
for step, (x, y) in enumerate(dl):
    if MODE == "dtype" and acc.process_index == CUL and step == FSTEP:
        x = x.double()
    out = model(x)
    loss = nn.functional.mse_loss(out, y)
    acc.backward(loss)
    opt.step(); opt.zero_grad()
    if step % 4 == 0:
        logger.info(f"step {step} loss {loss.item():.4f}", main_process_only=False)
acc.wait_for_everyone()
logger.info("finished")
acc.end_training()
