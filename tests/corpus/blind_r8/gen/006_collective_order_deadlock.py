# 4 ranks, torchrun without tee (unprefixed console). Every 8 steps each rank evaluates on
# its eval shard and reduces metrics. There are 3 eval files for 4 ranks, so rank 3's eval
# shard is empty; the "empty shard" branch was written to barrier() first and all_reduce()
# after, while the normal branch does all_reduce() then barrier(). Ranks 0-2 sit in
# all_reduce, rank 3 in barrier -> collectives issued in different order -> hang until the
# gloo timeout fires.
import datetime, logging, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(filename)s:%(lineno)d] %(message)s")
log = logging.getLogger()

def evaluate(model, shard):
    if not shard:
        log.info("no eval data on this rank, waiting for peers")
        dist.barrier()
        m = torch.zeros(2)
        dist.all_reduce(m)
        return m
    with torch.no_grad():
        tot = sum(((model(x) - x) ** 2).mean().item() for x in shard)
    m = torch.tensor([tot, float(len(shard))])
    dist.all_reduce(m)
    dist.barrier()
    return m

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    torch.manual_seed(0)
    files = ["eval-00000.pt", "eval-00001.pt", "eval-00002.pt"]
    mine = files[rank::world]
    log.info("rank %d eval files: %s", rank, mine)
    shard = [torch.randn(8, 16) for _ in mine for _ in range(4)]
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 16)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(1, 41):
        x = torch.randn(8, 16)
        loss = ((model(x) - x) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 4 == 0:
            log.info("step %d train_loss %.4f", step, loss.item())
        if step % 8 == 0:
            m = evaluate(model.module, shard)
            log.info("step %d eval_loss %.4f (n=%d)", step, m[0] / max(m[1], 1), int(m[1]))
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
