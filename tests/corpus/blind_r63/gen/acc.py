# accelerate training loop with optional faults.
import os, torch, torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger
import logging
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
MODE = os.environ.get("MODE", "ok")
acc = Accelerator()
log = get_logger(__name__)
if MODE == "hub":
    from transformers import AutoModelForSequenceClassification, AutoTokenizer
    with acc.main_process_first():
        log.info("loading pretrained backbone distilbert-base-uncased", main_process_only=False)
        tok = AutoTokenizer.from_pretrained("distilbert-base-uncased")
        model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2)
else:
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(0)
x = torch.randn(512, 16, generator=g)
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, x.sum(1, keepdim=True)), batch_size=16, shuffle=True)
model, opt, dl = acc.prepare(model, opt, dl)
step = 0
for epoch in range(int(os.environ.get("EPOCHS", "2"))):
    for xb, yb in dl:
        loss = nn.functional.mse_loss(model(xb), yb)
        acc.backward(loss)
        opt.step(); opt.zero_grad(); step += 1
        if step % 4 == 0:
            log.info(f"epoch {epoch} step {step} loss {acc.gather(loss.detach()).mean().item():.4f}")
    if MODE == "disk_full" or MODE == "ok":
        out = os.environ.get("CKPT_DIR", "/tmp/acc63") + f"/epoch_{epoch}"
        log.info(f"saving state to {out}")
        acc.save_state(out)
acc.wait_for_everyone()
log.info("training complete")
acc.end_training()
