# 031: elastic job (--nnodes 1:2). A second node joins while training; the agents
# re-rendezvous, workers restart with the larger world and resume from the last checkpoint.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    ck = os.path.join(os.environ["CKPT_DIR"], "last.pt")
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02); start = 0
    if os.path.exists(ck):
        sd = torch.load(ck); m.load_state_dict(sd["model"]); start = sd["step"]
    log.info(f"world_size {world}, restart {os.environ.get('TORCHELASTIC_RESTART_COUNT')}, resuming at step {start}")
    for step in range(start + 1, 81):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        if step % 5 == 0:
            log.info(f"step {step} loss {loss.item():.4f}")
            if rank == 0:
                torch.save({"model": m.state_dict(), "step": step}, ck + ".tmp"); os.replace(ck + ".tmp", ck)
        time.sleep(0.15)
    log.info("training finished")

if __name__ == "__main__":
    main()
