# recommender two-tower (ranks over 2 nodes); interface pinned through GLOO_SOCKET_IFNAME by the site env module
import os, socket, logging, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s rank=" + os.environ.get("RANK", "?") + " %(message)s")
log = logging.getLogger("recsys")

def main():
    log.info("host=%s GLOO_SOCKET_IFNAME=%s", socket.gethostname(), os.environ.get("GLOO_SOCKET_IFNAME"))
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    log.info("process group up (world=%d)", world)
    user = nn.EmbeddingBag(2000, 32); item = nn.EmbeddingBag(2000, 32)
    model = nn.parallel.DistributedDataParallel(nn.ModuleDict({"u": user, "i": item}))
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05)
    for step in range(60):
        u = torch.randint(0, 2000, (64, 5)); i = torch.randint(0, 2000, (64, 5))
        s = (model.module["u"](u) * model.module["i"](i)).sum(1)
        loss = nn.functional.binary_cross_entropy_with_logits(s, (u[:, 0] % 2 == i[:, 0] % 2).float())
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0:
            log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
