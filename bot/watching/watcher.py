"""A watch over growing logs: each poll reads what was written since the last one, runs the detectors,
and returns the alerts that are new.

The state is a dict of plain values (JSON): the bot stores it after each poll and a restarted watch
resumes where it stopped, without saying anything twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.config import WatchSection, seconds
from signatures import Matcher, default_matcher, source_from_bytes

from .alerts import Alert, span
from .detectors import FailureWatch, LossWatch, ProgressWatch, SaveWatch
from .lines import recognisers_of
from .tail import Chunk, Tails

STATE_VERSION = 1
CATCH_UP_POLLS = 3  # resumed after more than this many intervals: what was written meanwhile is backlog


class Watcher:
    """Follows the logs of one run (files, and log files in directories, including ones that appear later)."""

    def __init__(
        self,
        paths: list[str],
        config: WatchSection | None = None,
        matcher: Matcher | None = None,
        clock: Callable[[], float] = time.time,
        state: dict | None = None,
    ):
        config = config or WatchSection()
        if state is not None and state.get("version") != STATE_VERSION:
            raise ValueError(f"watch state version {state.get('version')!r} is not {STATE_VERSION}")
        saved = state or {}
        self.clock = clock
        self.interval = seconds(config.interval)
        self.idle_exit = seconds(config.idle_exit)
        self.matcher = matcher or default_matcher()
        self.lines = recognisers_of(self.matcher)
        self.tails = Tails(paths, saved.get("files") if state is not None else None)
        self.saves = SaveWatch(config.save_slow_factor, seconds(config.save_warn_after))
        self.progress = ProgressWatch(seconds(config.stall_after), config.slow_factor, config.window)
        self.failures = FailureWatch(self.matcher)
        self.losses = LossWatch(self.matcher)
        self.polls: int = saved.get("polls", 0)
        self.last_poll: float | None = saved.get("last_poll")
        self.completion: dict | None = saved.get("completion")
        self.outcome: str | None = saved.get("outcome")  # "completed" or "failed" once the run has ended
        self.bytes_read = 0  # by the last poll
        self._file_ranks: dict[str, int | None] = {}
        if state is not None:
            self.saves.restore(saved["saves"])
            self.progress.restore(saved["progress"])
            self.failures.restore(saved["failures"])
            self.losses.restore(saved.get("losses", {}))
            if self.last_poll is not None and clock() - self.last_poll > CATCH_UP_POLLS * self.interval:
                self.tails.catch_up()

    @property
    def ended(self) -> bool:
        return self.outcome is not None

    def missing(self) -> list[str]:
        """Watched paths that do not exist (yet)."""
        return self.tails.missing()

    def state(self) -> dict:
        return {
            "version": STATE_VERSION,
            "paths": self.tails.roots,
            "polls": self.polls,
            "last_poll": self.last_poll,
            "files": self.tails.state(),
            "saves": self.saves.state(),
            "progress": self.progress.state(),
            "failures": self.failures.state(),
            "losses": self.losses.state(),
            "completion": self.completion,
            "outcome": self.outcome,
        }

    def poll(self) -> list[Alert]:
        """Read what is new, and return what is to be said now (notices first)."""
        now = self.clock()
        self.polls += 1
        notices = [
            Alert("file_new", f"following {path}, a log file that appeared", now, path)
            for path in self.tails.discover()
        ]
        alerts: list[Alert] = []
        self.bytes_read = 0
        self.saves.begin_poll()
        for tail in list(self.tails.files.values()):
            before = tail.read_to
            for chunk in tail.read(now):
                if self._feed(chunk, now):
                    alerts += self.failures.add(chunk, now, self.polls)
            self.bytes_read += tail.read_to - (0 if tail.reset else before)
            if tail.reset:
                notices.append(
                    Alert("file_reset", f"{tail.path} {tail.reset}: reading it again from the start", now, tail.path)
                )
        alerts += self.failures.flush(now, self.polls)
        alerts += self.losses.check(now, self._rank_files())
        self.progress.settle(now, measured=not self.saves.saved_this_poll)
        failure = self.failures.failure
        if (
            failure
            and failure["rank"] is not None
            and failure["poll"] < self.polls
            and str(failure["rank"]) in self.progress.advanced
        ):
            self.failures.failure = None  # the rank went on training: it survived what it printed
        saving = self.saves.check(now)
        if saving:
            alerts.append(saving)
        over = self.ended or self.completion is not None or self.failures.failure is not None
        alerts += self.progress.check(now, self.saves.running or over, self._last_output())
        end = self._end(now)
        if end:
            alerts.append(end)
        self.last_poll = now
        return notices + alerts

    def _feed(self, chunk: Chunk, now: float) -> bool:
        """Steps, saves and the end in a chunk; True when it may hold a failure, to be diagnosed."""
        if chunk.path not in self._file_ranks:
            self._file_ranks[chunk.path] = source_from_bytes(chunk.path, b"").rank_hint  # rank3.log, attempt_0/3/
        rank = self._file_ranks[chunk.path]
        self.losses.feed(chunk, rank)
        known = self.progress.known.get(chunk.path, set())
        self.progress.feed(chunk, self.lines.last_steps(chunk.data, chunk.tail, rank, known))
        kinds = self.lines.present(chunk.data)
        saves = self.lines.saves(chunk.data, rank) if "save" in kinds else []
        self.saves.feed(chunk, saves, self.lines.progress_between, now, self.last_poll)
        marker = self.lines.completed(chunk.data) if "completion" in kinds else None
        if marker:
            self.completion = {"file": chunk.path, "text": marker, "poll": self.polls}
        return "failure" in kinds

    def _rank_files(self) -> dict[int | None, str]:
        """A file each rank's lines were read from, for alerts that name a rank (a file named for its rank first)."""
        files: dict[int | None, str] = {}
        for path, rank in self._file_ranks.items():
            files.setdefault(rank, path)
        return files

    def _last_output(self) -> float | None:
        return max((t.last_growth for t in self.tails.files.values() if t.last_growth is not None), default=None)

    def _end(self, now: float) -> Alert | None:
        """Every file idle for `idle_exit`, and the run's end known: a completion marker, or a failure after it."""
        last = self._last_output()
        if self.ended or last is None or now - last < self.idle_exit:
            return None
        failure, completion = self.failures.failure, self.completion
        idle = f"no new output for {span(now - last)}"
        if failure and (completion is None or failure["poll"] >= completion["poll"]):
            self.outcome = "failed"
            on = f" on rank {failure['rank']}" if failure["rank"] is not None else ""
            message = f"run failed: {failure['title']}{on}, {failure['file']}:{failure['line']}; {idle}"
            where, rank = failure["file"], failure["rank"]
        elif completion:
            self.outcome = "completed"
            message = f"run completed: {completion['text'][:200]} ({completion['file']}); {idle}"
            where, rank = completion["file"], None
        else:
            return None
        return Alert(
            "end",
            message,
            now,
            where,
            rank,
            {
                "outcome": self.outcome,
                "idle_seconds": round(now - last, 3),
                "failure": failure,
                "completion": completion,
            },
        )
