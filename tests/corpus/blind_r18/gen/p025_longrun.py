import os, signal, sys, time
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, os.environ.get("LOGFMT", "bare"))
T.init_pg(rank, world)
model, opt = T.build(rank)
stop = {"sig": None}


def on_signal(signum, frame):
    stop["sig"] = signum
    log.warning("received %s, will stop after the current step", signal.Signals(signum).name)


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGUSR1, on_signal)
total = int(os.environ.get("TOTAL_STEPS", "20000"))
log.info("training for %d steps", total)
for step in range(1, total + 1):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 25 == 0:
        log.info("step %d/%d loss %.4f", step, total, loss)
    if step % 100 == 0 and rank == 0:
        log.info("saved checkpoint step_%06d", step)
    if stop["sig"]:
        log.warning("exiting at step %d on %s", step, signal.Signals(stop["sig"]).name)
        sys.exit(128 + stop["sig"])
    time.sleep(0.05)
log.info("finished")
T.dist.destroy_process_group()
