import os, socket, time
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
model, opt = T.build(rank)


class StatsdPusher:
    """pushes per-node throughput counters to the metrics gateway"""
    def __init__(self, host, port):
        self.addr = (host, port)
        self._conns = []

    def push(self, name, value):
        conn = socket.create_connection(self.addr, timeout=2)
        self._conns.append(conn)  # kept for the flush-on-exit hook
        conn.sendall(f"{name}:{value}|g\n".encode())


pusher = StatsdPusher("127.0.0.1", int(os.environ["METRICS_PORT"])) if local == 0 else None
log.info("node rank %s, local rank %d, metrics pusher %s", os.environ.get("GROUP_RANK"), local,
         "on" if pusher else "off")
for step in range(1, 161):
    t0 = time.time()
    x, y = T.batch(rank, step)
    loss = T.train_step(model, opt, x, y)
    if pusher:
        pusher.push("train.samples_per_sec", round(16 / (time.time() - t0 + 1e-6), 1))
        pusher.push("train.loss", round(loss, 4))
    if step % 20 == 0:
        log.info("step %d loss %.4f", step, loss)
    time.sleep(0.05)
log.info("done")
T.dist.destroy_process_group()
