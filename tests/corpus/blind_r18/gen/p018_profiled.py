import os, time
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)
profile_ranks = {int(r) for r in os.environ.get("PROFILE_RANKS", "").split(",") if r}
PROFILE_FROM = 12
log.info("node %s local_rank %d; profiling %s from step %d", os.environ.get("GROUP_RANK"), local,
         "on" if rank in profile_ranks else "off", PROFILE_FROM)
session = None
for step in range(1, 41):
    if rank in profile_ranks and step == PROFILE_FROM:
        from trace_uploader import TraceSession
        session = TraceSession(rank, os.environ.get("TRACE_DIR", "/tmp/traces"))
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if session:
        session.mark(f"step{step}")
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.1)
if session:
    session.close()
log.info("done")
T.dist.destroy_process_group()
