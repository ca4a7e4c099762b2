import os, subprocess, time
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank)
T.init_pg()
model, opt = T.build(rank)
log.info("world=%d local_rank=%d starting training", world, local)

def device_stats(local_rank):
    out = subprocess.run(["gpu-query", "--id", str(local_rank), "--format", "csv"],
                         capture_output=True, text=True, check=True).stdout
    return out.strip().splitlines()[-1]

for step in range(1, 41):
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if step % 5 == 0:
        log.info("step %d loss %.4f", step, loss)
    if step == 15 and local == 0:
        open(os.environ["GPUQ_ARM"], "w").close()
    if step % 10 == 0:
        time.sleep(0.5)
        log.info("telemetry step %d: %s", step, device_stats(local))
    time.sleep(0.1)
log.info("training finished")
T.dist.destroy_process_group()
