"""The bot's heavy work (downloads, fetches, scans) runs here, apart from Bolt's listener threads.

Listeners only ack and hand work over, so help, status and button presses are answered at
once however many diagnoses are running. A fixed number of workers take work first come,
first served; whoever waits is told how many are ahead of them. Nothing is dropped: the
queue is unbounded, and what has not finished at shutdown is recorded for the next start.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.metrics import Metrics

log = logging.getLogger("denpex.work")


class ShuttingDown(RuntimeError):
    """The queue takes no new work: the process is stopping."""


@dataclass
class Task:
    name: str  # for the log: what is being diagnosed
    run: Callable[[], None]
    on_start: Callable[[], None] | None = None  # e.g. turn "queued" into "diagnosing" in Slack
    key: str | None = None  # the request it answers
    message: tuple[str, str] | None = None  # (channel, ts) of the message it will turn into its answer
    queued_at: float = field(default_factory=time.monotonic)


class WorkQueue:
    def __init__(self, workers: int, metrics: Metrics | None, name: str = "diagnose"):
        self.workers = workers
        self.metrics = metrics or Metrics()  # a queue that is not a diagnosis queue keeps its numbers to itself
        self._cv = threading.Condition()
        self._waiting: deque[Task] = deque()
        self._active: list[Task] = []
        self._running = 0
        self._closed = False
        self._threads = [threading.Thread(target=self._loop, name=f"{name}-{i}", daemon=True) for i in range(workers)]
        for t in self._threads:
            t.start()

    def ahead(self) -> int | None:
        """How many tasks a new one would wait behind; None when a worker is free to start it now."""
        with self._cv:
            if self._running + len(self._waiting) < self.workers:
                return None
            return len(self._waiting)

    def submit(self, task: Task) -> None:
        with self._cv:
            if self._closed:
                raise ShuttingDown("the bot is shutting down")
            self._waiting.append(task)
            self.metrics.queue_depth.set(len(self._waiting))
            self._cv.notify()

    def _loop(self) -> None:
        while True:
            with self._cv:
                while not self._waiting and not self._closed:
                    self._cv.wait()
                if self._closed:
                    return
                task = self._waiting.popleft()
                self._active.append(task)
                self._running += 1
                self.metrics.queue_depth.set(len(self._waiting))
                self.metrics.running.set(self._running)
            waited = time.monotonic() - task.queued_at
            if waited > 1:
                log.info("%s started after waiting %.1f s", task.name, waited)
            try:
                if task.on_start:
                    task.on_start()
                task.run()
            except Exception:  # a task reports its own failures; this is the last resort
                log.exception("%s failed", task.name)
            finally:
                with self._cv:
                    self._active.remove(task)
                    self._running -= 1
                    self.metrics.running.set(self._running)
                    self._cv.notify_all()

    def unfinished(self) -> list[Task]:
        """Tasks still running (after close: the ones its grace did not cover)."""
        with self._cv:
            return list(self._active)

    def close(self, grace: float) -> list[Task]:
        """Take no new work, let running tasks finish for up to `grace` seconds; return the tasks never started."""
        deadline = time.monotonic() + grace
        with self._cv:
            self._closed = True
            left = list(self._waiting)
            self._waiting.clear()
            self.metrics.queue_depth.set(0)
            self._cv.notify_all()
            while self._running and time.monotonic() < deadline:
                self._cv.wait(timeout=max(0.0, deadline - time.monotonic()))
            if self._running:
                log.warning("shutting down with %d diagnosis(es) still running after %.0f s", self._running, grace)
        return left
