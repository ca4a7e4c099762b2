# 028 (healthy): a best-effort metrics uploader thread on rank 1 cannot reach the metrics service,
# retries, then dies with a traceback; training is unaffected and completes.
import json, os, queue, socket, sys, threading, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

def uploader(q, log):
    for attempt in range(1, 4):
        try:
            s = socket.create_connection(("127.0.0.1", 29128), timeout=2)
            break
        except ConnectionRefusedError:
            log.warning("metrics service unreachable, retrying", attempt=attempt, max_attempts=3)
            time.sleep(1)
    else:
        s = socket.create_connection(("127.0.0.1", 29128), timeout=2)   # last try raises
    while True:
        s.sendall(json.dumps(q.get()).encode() + b"\n")

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("json")
    q = queue.Queue()
    if rank == 1:   # rank 1 ships metrics
        threading.Thread(target=uploader, args=(q, log), name="metrics-uploader", daemon=True).start()
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    for step in range(1, 51):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        log.info("train", step=step, loss=round(loss.item(), 5))
        if rank == 1: q.put({"step": step, "loss": loss.item()})
        time.sleep(0.12)
    log.info("run complete", steps=50)

if __name__ == "__main__":
    main()
