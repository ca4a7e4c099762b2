"""Trainer with asynchronous checkpoint upload to a storage gateway (background thread)."""
import io, os, socket, time
from concurrent.futures import ThreadPoolExecutor
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from common import init, Net, make_batch, reduce_loss

rank, world, log = init()
model = DDP(Net(hidden=512))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
host, port = os.environ["CKPT_GATEWAY"].split(":")
pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ckpt-upload")

def upload(step, payload):
    with socket.create_connection((host, int(port)), timeout=None) as s:
        s.sendall(f"PUT ckpt/step{step}/rank{rank}.pt {len(payload)}\n".encode())
        s.sendall(payload)
    return len(payload)

pending = None
for step in range(16):
    x, y = make_batch(rank, step)
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad(); loss.backward(); opt.step()
    log(f"step {step} loss={reduce_loss(loss, world):.4f}")
    if step % 6 == 5:
        if pending is not None:
            log("waiting for previous checkpoint upload to finish")
            nbytes = pending.result(timeout=8)
            log(f"previous checkpoint upload finished ({nbytes} bytes)")
        buf = io.BytesIO()
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, buf)
        payload = buf.getvalue() * 150  # optimizer + replicas packed for upload
        log(f"async checkpoint upload started for step {step} ({len(payload) / 1e6:.1f} MB)")
        pending = pool.submit(upload, step, payload)
    time.sleep(0.4)
if pending is not None:
    pending.result(timeout=8)
dist.barrier()
log("done")
dist.destroy_process_group()
