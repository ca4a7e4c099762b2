# healthy run with noisy, handled failures: metrics push retries, scratch-disk fallback, a skipped corrupt sample
import os, sys, time, datetime, logging, urllib.request, errno
import torch, torch.distributed as dist
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(asctime)s %(levelname)s [%(name)s] %(message)s")
log = logging.getLogger("run")

def push_metrics(step, loss, attempt):
    # the metrics gateway is flaky on the first attempts
    if attempt < 2:
        urllib.request.urlopen("http://127.0.0.1:9/metrics", timeout=1)   # port 9: nothing listens -> refused
    return True

def save(state, step, rank):
    scratch = "/nonexistent_local_ssd/ckpt"
    try:
        if step == 60:
            raise OSError(errno.ENOSPC, "No space left on device", f"{scratch}/step{step}.pt")
        return f"{scratch}/step{step}.pt (simulated)"
    except OSError:
        log.exception("rank %d: could not write checkpoint to local scratch, falling back to shared FS", rank)
        path = os.path.join(os.environ["OUT"], f"step{step}_rank{rank}.pt")
        torch.save(state, path)
        return path

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(16, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(1, 101):
        x = torch.randn(8, 16)
        if rank == 1 and step == 33:
            try:
                raise ValueError("sample 1289: malformed record (expected 16 features, got 15)")
            except ValueError:
                log.exception("rank %d: skipping bad sample at step %d", rank, step)
        loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 20 == 0:
            log.info("rank %d step %d loss %.4f", rank, step, loss.item())
            if rank == 0:
                for attempt in range(3):
                    try:
                        push_metrics(step, loss.item(), attempt); break
                    except Exception as e:
                        log.warning("metrics push failed (attempt %d/3): %r; retrying in 0.2s", attempt + 1, e, exc_info=(attempt == 0))
                        time.sleep(0.2)
        if step % 60 == 0:
            p = save(model.module.state_dict(), step, rank)
            log.info("rank %d checkpoint saved to %s", rank, p)
        time.sleep(0.03)
    dist.barrier()
    dist.destroy_process_group()
    log.info("rank %d: training complete", rank)

if __name__ == "__main__":
    main()
