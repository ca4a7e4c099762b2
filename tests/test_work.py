"""The work queue: first come first served on a fixed number of workers, places said, nothing dropped."""

import threading
import time

from bot.metrics import Metrics
from bot.work import Task, WorkQueue


def test_tasks_beyond_the_workers_wait_in_order_and_know_their_place():
    metrics = Metrics()
    queue = WorkQueue(2, metrics)
    release = threading.Event()
    order: list[int] = []
    started: list[int] = []
    assert queue.ahead() is None
    for n in range(6):

        def work(n: int = n) -> None:
            release.wait(10)
            order.append(n)

        def start(n: int = n) -> None:
            started.append(n)

        queue.submit(Task(f"t{n}", work, on_start=start))
        if n == 1:
            time.sleep(0.2)  # both workers have taken theirs
    assert queue.ahead() == 4  # a new one would wait behind the 4 not yet started
    assert metrics.queue_depth._value.get() == 4 and metrics.running._value.get() == 2
    release.set()
    deadline = time.monotonic() + 10
    while len(order) < 6 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(order) == list(range(6)) and started[2:] == [2, 3, 4, 5]
    assert queue.close(grace=1) == []


def test_a_failing_task_does_not_stop_its_worker():
    queue = WorkQueue(1, Metrics())
    done = threading.Event()

    def boom() -> None:
        raise ZeroDivisionError("division by zero")

    queue.submit(Task("boom", boom))
    queue.submit(Task("after", done.set))
    assert done.wait(5)
    queue.close(grace=1)


def test_close_gives_running_tasks_their_grace_and_returns_the_unstarted():
    queue = WorkQueue(1, Metrics())
    finished = threading.Event()

    def running() -> None:
        time.sleep(0.5)
        finished.set()

    queue.submit(Task("running", running))
    time.sleep(0.1)
    queue.submit(Task("waiting", lambda: None))
    started = time.monotonic()
    left = queue.close(grace=5)
    assert finished.is_set() and time.monotonic() - started < 3
    assert [t.name for t in left] == ["waiting"]


def test_close_does_not_wait_past_the_grace():
    queue = WorkQueue(1, Metrics())
    queue.submit(Task("stuck", lambda: time.sleep(5)))
    time.sleep(0.1)
    started = time.monotonic()
    queue.close(grace=0.3)
    assert time.monotonic() - started < 1
