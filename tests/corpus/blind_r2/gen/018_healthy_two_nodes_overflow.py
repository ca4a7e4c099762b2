# Healthy 2-node run with a hand-written dynamic loss scaler (fp16-style): the first few steps
# overflow at the initial scale and the scale is reduced, as is normal during warm-up. Finishes OK.
import os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

FP16_MAX = 65504.0

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    scale, good_steps = 2.0 ** 24, 0
    for step in range(1, 81):
        x = torch.randn(16, 32); y = x[:, :4].sum(1, keepdim=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); (loss * scale).backward()
        overflow = any((p.grad.abs().max() > FP16_MAX) or not torch.isfinite(p.grad).all() for p in model.parameters())
        if overflow:
            scale /= 2
            good_steps = 0
            if rank == 0:
                print(f"[step {step}] Gradient overflow. Skipping step, attempted loss scale: {scale*2:.1f}, reducing to {scale:.1f}", flush=True)
            continue
        for p in model.parameters():
            p.grad /= scale
        opt.step()
        good_steps += 1
        if good_steps % 50 == 0:
            scale *= 2
        if step % 20 == 0:
            print(f"node={os.environ['SIM_NODE']} rank={rank} step={step} loss={loss.item():.4f} loss_scale={scale:.0f}", flush=True)
        time.sleep(0.05)
    dist.barrier()
    if rank == 0:
        print("training finished successfully", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
