# accelerate launch training with tqdm bar on the main process
import os, torch, torch.nn as nn
from accelerate import Accelerator
from tqdm.auto import tqdm
acc = Accelerator(cpu=True)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1)); opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(1024, 16); y = x.sum(1, keepdim=True) * 0.1
dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=16, shuffle=True)
model, opt, dl = acc.prepare(model, opt, dl)
for epoch in range(3):
    for xb, yb in tqdm(dl, disable=not acc.is_local_main_process, desc=f"epoch {epoch}"):
        loss = nn.functional.mse_loss(model(xb), yb); acc.backward(loss); opt.step(); opt.zero_grad()
    acc.print(f"epoch {epoch} loss {loss.item():.4f}")
acc.print("done")
