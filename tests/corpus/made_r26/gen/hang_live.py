"""A job that hangs without an error: rank STUCK_RANK blocks on a lock its own helper thread never releases after
step STUCK_AT, the others wait in the next all_reduce (the process group's timeout is long); a status thread on
every rank prints the step it is at every 5 s. The console is copied while it hangs (hang_live.sh)."""
import datetime
import os
import threading
import time

import torch
import torch.distributed as dist

STUCK_RANK, STUCK_AT = int(os.environ.get("STUCK_RANK", "1")), int(os.environ.get("STUCK_AT", "40"))


def now() -> str:
    return datetime.datetime.now().isoformat(timespec="milliseconds")


def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=1800))
    rank = dist.get_rank()
    state = {"step": 0, "at": time.time()}
    lock = threading.Lock()

    def status():
        while True:
            time.sleep(5)
            print(f"{now()} [rank{rank}] status: step: {state['step']} idle {time.time() - state['at']:.0f}s", flush=True)

    threading.Thread(target=status, daemon=True).start()
    model = torch.nn.Linear(16, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(1, 100000):
        if rank == STUCK_RANK and step == STUCK_AT + 1:
            lock.acquire()
            threading.Thread(target=lock.acquire, daemon=True).start()  # takes it and never gives it back
            time.sleep(0.1)
            lock.release()
            lock.acquire()  # the helper holds it now: blocks for good
        x, y = torch.randn(8, 16), torch.randn(8, 1)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad)
        opt.step()
        state["step"], state["at"] = step, time.time()
        if step % 10 == 0:
            print(f"{now()} [rank{rank}] it {step} loss={loss.item():.4f}", flush=True)
        time.sleep(0.05)


if __name__ == "__main__":
    main()
