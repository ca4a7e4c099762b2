# 025: fine-tuning resumes from a checkpoint; model width comes from the YAML named by $MODEL_CONFIG.
# Node 1's environment still exports the previous experiment's config (hidden 96 instead of 128).
import json, os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("logging")
    cfg = json.load(open(os.environ["MODEL_CONFIG"]))
    log.info(f"model config {os.environ['MODEL_CONFIG']}: {cfg}")
    m = lib.model(hidden=cfg["hidden"])
    sd = torch.load(os.environ["INIT_CKPT"], map_location="cpu")
    log.info(f"loading {os.environ['INIT_CKPT']} (step {sd['step']})")
    m.load_state_dict(sd["model"])
    opt = torch.optim.SGD(m.parameters(), lr=0.005)
    for step in range(sd["step"] + 1, sd["step"] + 31):
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        log.info(f"step {step} loss {loss.item():.4f}")
        time.sleep(0.15)
    log.info("done")

if __name__ == "__main__":
    main()
