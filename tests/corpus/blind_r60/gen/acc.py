# accelerate-based trainer; AMODE selects failure
import os, logging, torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
from torch.utils.data import DataLoader, TensorDataset

AMODE = os.environ.get("AMODE", "healthy")
FR = int(os.environ.get("FAIL_RANK", "2"))
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", datefmt="%m/%d/%Y %H:%M:%S", level=logging.INFO)
logger = get_logger("train_acc")
acc = Accelerator(cpu=True)
logger.info(acc.state, main_process_only=False)
g = torch.Generator().manual_seed(0)
x = torch.randn(512, 16, generator=g)
dl = DataLoader(TensorDataset(x, x.sum(1, keepdim=True)), batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
model, opt, dl = acc.prepare(model, opt, dl)
for step, (xb, yb) in enumerate(dl):
    if step == 12:
        break
    if AMODE == "kv" and acc.process_index == FR and step == 5:
        cache = {"layer0": xb, "layer1": xb}
        xb = cache[f"layer{step}"]
    loss = nn.functional.mse_loss(model(xb), yb)
    acc.backward(loss)
    opt.step(); opt.zero_grad()
    avg = acc.gather(loss.detach()).mean()
    if step % 2 == 0:
        logger.info(f"step={step} loss={avg.item():.4f} grad_error_feedback=off")
acc.wait_for_everyone()
if AMODE == "save_exc":
    # every rank writes its own RNG state file; rank FR has a bad path template
    d = f"/tmp/b60acc/ckpt_step12"
    acc.save_state(d)
    logger.info("state saved", main_process_only=False)
logger.info("done")
acc.end_training()
