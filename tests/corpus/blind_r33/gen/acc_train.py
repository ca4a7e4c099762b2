import os, torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import set_seed
import logging
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = get_logger("acc_train")
acc = Accelerator()
set_seed(0)
log.info(f"state: {acc.state}", main_process_only=True)
model = nn.Sequential(nn.Embedding(100, 16), nn.Flatten(), nn.Linear(16 * 4, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
ds = torch.utils.data.TensorDataset(torch.randint(0, 100, (256, 4)), torch.randn(256, 1))
dl = torch.utils.data.DataLoader(ds, batch_size=8)
model, opt, dl = acc.prepare(model, opt, dl)
out_dir = os.environ.get("OUT", "/tmp/r33acc")
for epoch in range(2):
    for step, (x, y) in enumerate(dl):
        loss = nn.functional.mse_loss(model(x), y)
        acc.backward(loss); opt.step(); opt.zero_grad()
        if step % 5 == 0:
            log.info(f"epoch {epoch} step {step} loss {acc.gather(loss.detach()).mean().item():.4f}")
    log.info(f"epoch {epoch} done, saving state to {out_dir}/epoch{epoch}")
    acc.save_state(f"{out_dir}/epoch{epoch}")
acc.wait_for_everyone()
log.info("training finished")
