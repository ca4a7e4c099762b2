"""plain accelerate loop"""
import os, sys, time, datetime
import torch
from tqdm.auto import tqdm
from accelerate import Accelerator
from accelerate.utils import InitProcessGroupKwargs, set_seed
sys.path.insert(0, os.path.dirname(__file__))
from common import *


def main():
    acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(backend="gloo", timeout=datetime.timedelta(seconds=30))])
    set_seed(0)
    torch.set_num_threads(1)
    model = tiny_gpt2()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    ds = SeqDataset(rank=acc.process_index)
    dl = torch.utils.data.DataLoader(ds, batch_size=8, shuffle=True, num_workers=int(os.environ.get("WORKERS", "0")))
    model, opt, dl = acc.prepare(model, opt, dl)
    if os.environ.get("RESUME"):
        acc.load_state(os.environ["RESUME"])
    steps = int(os.environ.get("STEPS", "60")); step = 0
    bar = tqdm(total=steps, disable=not acc.is_local_main_process, desc="train")
    rank = acc.process_index
    while step < steps:
        for batch in dl:
            batch = data_fault(step, rank, batch)
            batch = step_fault(step, rank, batch)
            lr_fault(step, opt)
            out = forward(model, batch)
            acc.backward(out.loss)
            gn = acc.clip_grad_norm_(model.parameters(), 1e9)
            opt.step(); opt.zero_grad()
            loss = acc.gather(out.loss.detach()).mean().item()
            if step % 2 == 0:
                acc.print({"loss": round(loss, 4), "grad_norm": round(float(gn), 4), "learning_rate": opt.param_groups[0]["lr"], "epoch": round(step / len(dl), 2), "step": step})
            bar.update(1); step += 1
            time.sleep(float(os.environ.get("SLEEP", "0")))
            if step >= steps:
                break
    bar.close()
    if os.environ.get("SAVE_STATE"):
        acc.save_state(os.environ["SAVE_STATE"])
    acc.wait_for_everyone()
    acc.print("training finished")
    acc.end_training()


if __name__ == "__main__":
    main()
