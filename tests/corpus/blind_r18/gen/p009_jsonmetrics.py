import json, os, sys, time
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "json")


def main():
    T.init_pg()
    model, opt = T.build(rank)
    mpath = os.path.join(os.environ["METRICS_DIR"], f"metrics.r{rank}.jsonl")
    mfile = open(mpath, "a", buffering=1 << 16)
    log.info("writing step metrics to %s", mpath)
    for step in range(1, 61):
        x, y = T.batch(rank, step)
        loss = T.train_step(model, opt, x, y)
        mfile.write(json.dumps({"step": step, "loss": loss, "lr": 0.05}) + "\n")
        if step % 10 == 0:
            mfile.flush()
            log.info("step %d loss %.4f", step, loss)
        time.sleep(0.1)
    mfile.close()
    log.info("training complete")
    T.dist.destroy_process_group()


if __name__ == "__main__":
    try:
        main()
    except Exception:
        log.exception("unhandled error in training loop, exiting")
        sys.exit(1)
