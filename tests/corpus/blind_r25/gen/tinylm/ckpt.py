"""Checkpointing: rank 0 writes model/optimizer, every rank writes its own rank state
(RNG, data position) to node-local scratch first, then copies it to shared storage."""
import concurrent.futures
import logging
import os
import shutil
import time

import torch
import torch.distributed as dist

log = logging.getLogger("tinylm.ckpt")


class Checkpointer:
    def __init__(self, cfg, rank, world_size):
        self.dir = cfg["dir"]
        self.scratch = os.path.expandvars(cfg.get("scratch", "")) or None
        self.cache = os.path.expandvars(cfg.get("cache", "")) or None
        self.use_async = cfg.get("async", False)
        self.rank = rank
        self.world_size = world_size
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ckpt-writer") if self.use_async else None
        self._pending = None
        self._pending_step = None

    # ---------------------------------------------------------------- save
    def _write(self, step, model_state, rank_state):
        t0 = time.time()
        step_dir = os.path.join(self.dir, f"step_{step:06d}")
        os.makedirs(step_dir, exist_ok=True)
        if model_state is not None:
            tmp = os.path.join(step_dir, "model.pt.tmp")
            torch.save(model_state, tmp)
            os.replace(tmp, os.path.join(step_dir, "model.pt"))
        name = f"rank{self.rank:03d}.pt"
        if self.scratch:
            local_dir = os.path.join(self.scratch, f"step_{step:06d}")
            os.makedirs(local_dir, exist_ok=True)
            local = os.path.join(local_dir, name)
            torch.save(rank_state, local)
            shutil.copyfile(local, os.path.join(step_dir, name))
        else:
            torch.save(rank_state, os.path.join(step_dir, name))
        return time.time() - t0

    def save(self, step, model, optimizer, scheduler, rank_state, final=False):
        model_state = None
        if self.rank == 0:
            model_state = {"step": step, "model": model.state_dict(), "optimizer": optimizer.state_dict(),
                           "scheduler": scheduler.state_dict()}
        if self.use_async:
            if self._pending is not None:
                if not self._pending.done():
                    log.info("waiting for previous async checkpoint (step %d) to finish", self._pending_step)
                secs = self._pending.result()
                log.info("async checkpoint step %d committed in %.2fs", self._pending_step, secs)
            # snapshot tensors before handing them to the writer thread
            if model_state is not None:
                model_state = {k: (_clone(v)) for k, v in model_state.items()}
            log.info("saving checkpoint step %d (async) -> %s", step, self.dir)
            self._pending = self._pool.submit(self._write, step, model_state, rank_state)
            self._pending_step = step
            if final:
                self.wait()
            return
        log.info("saving checkpoint step %d -> %s", step, self.dir)
        secs = self._write(step, model_state, rank_state)
        dist.barrier()
        if self.rank == 0:
            with open(os.path.join(self.dir, "latest"), "w") as f:
                f.write(f"step_{step:06d}\n")
        log.info("checkpoint step %d saved in %.2fs", step, secs)

    def save_local_only(self, step, model, optimizer, scheduler, rank_state):
        """Emergency save on a stop signal: no collectives."""
        model_state = None
        if self.rank == 0:
            model_state = {"step": step, "model": model.state_dict(), "optimizer": optimizer.state_dict(),
                           "scheduler": scheduler.state_dict()}
        secs = self._write(step, model_state, rank_state)
        log.warning("emergency checkpoint step %d written in %.2fs", step, secs)

    def wait(self):
        if self._pending is not None:
            secs = self._pending.result()
            log.info("async checkpoint step %d committed in %.2fs", self._pending_step, secs)
            self._pending = None

    # ---------------------------------------------------------------- load
    def latest(self):
        p = os.path.join(self.dir, "latest")
        if not os.path.exists(p):
            return None
        with open(p) as f:
            return os.path.join(self.dir, f.read().strip())

    def load(self, model, optimizer, scheduler):
        step_dir = self.latest()
        if step_dir is None:
            log.info("no checkpoint found in %s, starting from scratch", self.dir)
            return 0, None
        model_path = os.path.join(step_dir, "model.pt")
        if self.cache:
            cached = os.path.join(self.cache, os.path.basename(self.dir.rstrip("/")), os.path.basename(step_dir), "model.pt")
            if os.path.exists(cached):
                log.info("using node-local cached checkpoint %s", cached)
            else:
                os.makedirs(os.path.dirname(cached), exist_ok=True)
                shutil.copyfile(model_path, cached)
                log.info("cached checkpoint to %s", cached)
            model_path = cached
        log.info("resuming from %s", model_path)
        state = torch.load(model_path, map_location="cpu", weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        rank_state = torch.load(os.path.join(step_dir, f"rank{self.rank:03d}.pt"), map_location="cpu",
                                weights_only=False)
        log.info("restored step %d (rank state: %s)", state["step"], sorted(rank_state))
        return state["step"], rank_state


def _clone(v):
    if isinstance(v, torch.Tensor):
        return v.detach().clone()
    if isinstance(v, dict):
        return {k: _clone(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_clone(x) for x in v]
    return v
