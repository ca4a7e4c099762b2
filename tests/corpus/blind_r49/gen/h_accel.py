"""An Accelerate run (accelerate launch --cpu) with gradient accumulation and its usual output."""
import torch, torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset
from tqdm.auto import tqdm
import sys
sys.path.insert(0, __file__.rsplit("/", 1)[0])
from common import MLP, make_data

acc = Accelerator(gradient_accumulation_steps=2, cpu=True)
set_seed(0)
x, y = make_data(n=1024, seed=14)
dl = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
model = MLP(); opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
model, opt, dl = acc.prepare(model, opt, dl)
acc.print(f"state: {acc.state}")
for epoch in range(2):
    bar = tqdm(dl, disable=not acc.is_local_main_process, desc=f"epoch {epoch}")
    for xb, yb in bar:
        with acc.accumulate(model):
            loss = F.cross_entropy(model(xb), yb)
            acc.backward(loss); opt.step(); opt.zero_grad()
        bar.set_postfix(loss=f"{loss.item():.3f}")
    l = acc.gather(loss.detach()[None]).mean()
    acc.print(f"epoch {epoch}: mean loss over processes {l.item():.4f}")
acc.wait_for_everyone()
acc.save_state(sys.argv[1])
acc.print("done")
acc.end_training()
