"""What a watch measures between polls: checkpoint saves, training progress, failures.

A line's time is when a poll first saw it: logs rarely agree on a clock, and stalls are measured
on the poll's clock anyway. A line read by poll k was written after poll k-1, so a finished save is
recorded as an upper bound (from the poll before its start was seen) and a running one's age as a
lower bound (from the poll that saw it start): an alert never comes from the polls' resolution.
What was already in a file when the watch first looked (its backlog) has no timing at all: it sets
the state (the last step, a save under way) but adds no duration. Every detector's state is a dict
of plain values, so a watch survives a restart.
"""

from __future__ import annotations

from functools import lru_cache
from statistics import median
from typing import Any

from signatures import Diagnosis, Diverged, Evidence, Matcher, TrendFollower, diagnose_sources, source_from_bytes

from .alerts import Alert, ranks_text, span, span_range
from .lines import SaveLine, diagnosed
from .tail import Chunk

HISTORY_SAVES = 50  # completed saves kept for the median
HISTORY_WINDOWS = 20  # step-time samples kept per rank, in windows
ALERTED_KEPT = 1000  # (signature, file, line) keys remembered


def _key(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


def _rank(key: str) -> int | None:
    return None if key == "-" else int(key)


class SaveWatch:
    """A checkpoint save that lasts too long, compared with this run's earlier saves.

    A save runs from its first start line to its last completion line, across every rank and file
    that announced it; it is over when training progress follows (Lightning prints no completion:
    its next step is one) or when a new save starts after it completed in an earlier poll.
    """

    def __init__(self, slow_factor: float, warn_after: float):
        self.slow_factor = slow_factor
        self.warn_after = warn_after
        self.episode: dict | None = None
        self.durations: list[float] = []
        self.saved_this_poll = False  # a save was under way at some point of this poll

    def begin_poll(self) -> None:
        self.saved_this_poll = self.episode is not None

    @property
    def running(self) -> bool:
        return bool(self.episode and self.episode["pending"])

    def state(self) -> dict:
        return {"episode": self.episode, "durations": self.durations}

    def restore(self, saved: dict) -> None:
        self.episode, self.durations = saved["episode"], saved["durations"]

    def feed(
        self, chunk: Chunk, saves: list[SaveLine], progress_between, now: float, previous_poll: float | None
    ) -> None:
        if chunk.backlog and self.episode:
            self.episode["after"] = None  # it went on while nobody looked: its duration is unknown
        pos = 0
        for line in saves:
            if self.episode and progress_between(chunk.data, pos, line.start):
                self._close(now)
            self._apply(chunk, line, now, None if chunk.backlog else previous_poll)
            pos = line.end
        if self.episode and progress_between(chunk.data, pos, len(chunk.data)):
            self._close(now)

    def _apply(self, chunk: Chunk, line: SaveLine, now: float, after: float | None) -> None:
        key = f"{chunk.path}|{_key(line.rank)}"
        self.saved_this_poll = True
        episode = self.episode
        if not line.done:
            if episode and not episode["pending"] and episode["last_done"] is not None and episode["last_done"] < now:
                self._close(now)
                episode = None
            if episode is None:
                episode = self.episode = {
                    "started": now,
                    "after": after,
                    "what": line.what,
                    "step": line.step,
                    "pending": [],
                    "done": [],
                    "last_done": None,
                    "alerted": False,
                }
            if key not in episode["pending"]:
                episode["pending"].append(key)
            episode["what"] = episode["what"] or line.what
            episode["step"] = episode["step"] if episode["step"] is not None else line.step
        elif episode:
            pending = episode["pending"]
            # a completion without a rank (or one whose rank announced nothing) finishes what its file started
            cleared = [k for k in pending if k == key] or [
                k for k in pending if k.startswith(chunk.path + "|") and (line.rank is None or k.endswith("|-"))
            ]
            episode["pending"] = [k for k in pending if k not in cleared]
            episode["done"] += [k for k in cleared if k not in episode["done"]]
            episode["last_done"] = now
        if episode and after is None:
            episode["after"] = None

    def _close(self, now: float) -> None:
        episode, self.episode = self.episode, None
        if episode is None:
            return
        finished = episode["last_done"] if episode["last_done"] is not None and not episode["pending"] else now
        if episode["after"] is not None:
            self.durations = (self.durations + [round(finished - episode["after"], 3)])[-HISTORY_SAVES:]

    def check(self, now: float) -> Alert | None:
        episode = self.episode
        if not episode or episode["alerted"] or not episode["pending"]:
            return None
        running = now - episode["started"]
        history = self.durations
        if len(history) >= 2:
            limit = self.slow_factor * median(history)
            basis = f"this run's previous {len(history)} saves took {span_range(history)}"
        else:
            limit = self.warn_after
            basis = (
                f"only 1 earlier save to compare with ({span(history[0])})"
                if history
                else "no earlier save of this run to compare with"
            ) + f"; warning after {span(limit)}"
        if running <= limit:
            return None
        episode["alerted"] = True
        step, what = episode["step"], episode["what"]
        subject = f"save of step {step}" if step is not None else f"save to {what}" if what else "checkpoint save"
        at_least = "at least " if episode["after"] is None else ""
        message = f"{subject} has been running {at_least}{span(running)}; {basis}"
        participants = episode["pending"] + episode["done"]
        stuck = [_rank(k.rsplit("|", 1)[1]) for k in episode["pending"]]
        named = [r for r in stuck if r is not None]
        if episode["done"] and named:
            message += f"; not finished on {ranks_text(named)} ({len(episode['done'])} of {len(participants)} finished)"
        files = sorted({k.rsplit("|", 1)[0] for k in episode["pending"]})
        return Alert(
            "slow_save",
            message,
            now,
            files[0] if len(files) == 1 else None,
            named[0] if len(named) == 1 else None,
            {
                "step": step,
                "what": what,
                "running_seconds": round(running, 3),
                "limit_seconds": round(limit, 3),
                "previous_seconds": list(history),
                "not_finished": list(episode["pending"]),
            },
        )


class ProgressWatch:
    """Training steps: a stall (no new step for `stall_after`; log silence when no line has a step), and
    step time regressing (the median over the last `window` steps against this run's earlier median)."""

    def __init__(self, stall_after: float, slow_factor: float, window: int):
        self.stall_after = stall_after
        self.slow_factor = slow_factor
        self.window = window
        self.last: dict[str, dict] = {}  # rank -> {"step", "t", "timed"}
        self.samples: dict[str, list[list[float]]] = {}  # rank -> [[seconds per step, steps], ...], oldest first
        self.last_progress: float | None = None
        self.stall_alerted = False
        self.silence_alerted: float | None = None  # the output time the silence alert was about
        self.slow: dict[str, float] = {}  # rank -> the earlier median when its slowdown was reported
        self.advanced: set[str] = set()  # ranks that made progress in the last poll
        self.known: dict[str, set[int | None]] = {}  # file -> ranks whose steps it carries
        self._seen: dict[str, tuple[int | None, bool]] = {}

    @property
    def stepped(self) -> bool:
        return bool(self.last)

    def state(self) -> dict:
        return {
            "last": self.last,
            "samples": self.samples,
            "last_progress": self.last_progress,
            "stall_alerted": self.stall_alerted,
            "silence_alerted": self.silence_alerted,
            "slow": self.slow,
        }

    def restore(self, saved: dict) -> None:
        self.last, self.samples, self.slow = saved["last"], saved["samples"], saved["slow"]
        self.last_progress, self.stall_alerted = saved["last_progress"], saved["stall_alerted"]
        self.silence_alerted = saved["silence_alerted"]

    def feed(self, chunk: Chunk, steps: dict[int | None, int | None]) -> None:
        self.known.setdefault(chunk.path, set()).update(steps)
        for rank, step in steps.items():
            self._seen[_key(rank)] = (step, chunk.backlog)

    def settle(self, now: float, measured: bool = True) -> None:
        """End of a poll: what each rank's newest step says. Not `measured`: the time since the last poll
        holds something else than steps (a checkpoint save), so it is no sample of step time."""
        self.advanced = set()
        for key, (step, untimed) in self._seen.items():
            prev = self.last.get(key)
            if prev and step is not None and step == prev["step"]:
                continue
            if (
                measured
                and step is not None
                and prev
                and prev["step"] is not None
                and step > prev["step"]
                and prev["timed"]
                and not untimed
                and now > prev["t"]
            ):
                self._sample(key, (now - prev["t"]) / (step - prev["step"]), step - prev["step"])
            # a line without a number is progress, but no point to measure the next step's time from
            self.last[key] = {
                "step": step if step is not None else prev and prev["step"],
                "t": now,
                "timed": step is not None and not untimed,
            }
            self.advanced.add(key)
        self._seen = {}
        if self.advanced:
            self.last_progress = now
            self.stall_alerted = False

    def _sample(self, key: str, seconds_per_step: float, steps: int) -> None:
        samples = self.samples.setdefault(key, [])
        samples.append([round(seconds_per_step, 6), steps])
        while sum(w for _, w in samples) - samples[0][1] >= HISTORY_WINDOWS * self.window:
            samples.pop(0)

    def check(self, now: float, quiet: bool, last_output: float | None) -> list[Alert]:
        """`quiet`: a save is under way or the run has ended, so no step is due."""
        alerts = []
        if not quiet:
            alert = self._stall(now) if self.stepped else self._silence(now, last_output)
            if alert:
                alerts.append(alert)
        alert = self._slower(now)
        if alert:
            alerts.append(alert)
        return alerts

    def _stall(self, now: float) -> Alert | None:
        if self.last_progress is None:  # no step yet (check() asks only once there is one)
            return None
        since = now - self.last_progress
        if self.stall_alerted or since < self.stall_after:
            return None
        self.stall_alerted = True
        steps = {_rank(k): v["step"] for k, v in self.last.items() if v["step"] is not None}
        message = f"no new training step for {span(since)}"
        behind: list[int] = []
        if steps:
            top = max(steps.values())
            behind = sorted(r for r, s in steps.items() if s < top and r is not None)
            message += f"; the last was step {top}"
            if behind:
                lows = sorted({steps[r] for r in behind})
                at = f"step {lows[0]}" if len(lows) == 1 else f"steps {lows[0]}–{lows[-1]}"
                message += f"; {ranks_text(behind)} stopped earlier, at {at}"
        return Alert(
            "stall",
            message,
            now,
            None,
            behind[0] if len(behind) == 1 else None,
            {
                "seconds_since_step": round(since, 3),
                "last_steps": {_key(r): s for r, s in steps.items()},
                "behind": behind,
            },
        )

    def _silence(self, now: float, last_output: float | None) -> Alert | None:
        if last_output is None or self.silence_alerted == last_output or now - last_output < self.stall_after:
            return None
        self.silence_alerted = last_output
        return Alert(
            "silence",
            f"no new output for {span(now - last_output)} (the logs carry no step lines to follow)",
            now,
            facts={"seconds_since_output": round(now - last_output, 3)},
        )

    def _slower(self, now: float) -> Alert | None:
        crossed = []
        for key in list(self.samples):
            medians = self._medians(key)
            if medians is None:
                continue
            recent, earlier = medians
            if key in self.slow:
                if recent < (1 + (self.slow_factor - 1) / 2) * self.slow[key]:
                    del self.slow[key]  # back to normal: a new slowdown is reported again
                continue
            if recent >= self.slow_factor * earlier:
                self.slow[key] = earlier
                crossed.append((recent / earlier, key, recent, earlier))
        if not crossed:
            return None
        ratio, key, recent, earlier = max(crossed)
        ranks = sorted(int(k) for _, k, _, _ in crossed if k != "-")
        where = f" on {ranks_text(ranks)}" if ranks else ""
        message = (
            f"step time rose to {span(recent)} per step{where} (median of the last {self.window} steps), "
            f"from {span(earlier)} earlier in this run ({ratio:.1f}x)"
        )
        return Alert(
            "slow_steps",
            message,
            now,
            None,
            ranks[0] if len(ranks) == 1 else None,
            {
                "seconds_per_step": round(recent, 6),
                "earlier_seconds_per_step": round(earlier, 6),
                "ratio": round(ratio, 2),
                "ranks": ranks,
                "window": self.window,
            },
        )

    def _medians(self, key: str) -> tuple[float, float] | None:
        """(median over the last `window` steps, median over the steps before), weighted by steps."""
        recent: list[list[float]] = []
        weight = 0.0
        samples = self.samples[key]
        while weight < self.window and len(recent) < len(samples):
            recent.append(samples[-1 - len(recent)])
            weight += recent[-1][1]
        earlier = samples[: len(samples) - len(recent)]
        if weight < self.window or sum(w for _, w in earlier) < self.window:
            return None
        return _weighted_median(recent), _weighted_median(earlier)


def _weighted_median(samples: list[list[float]]) -> float:
    ordered = sorted(samples)
    half = sum(w for _, w in ordered) / 2
    total = 0.0
    for value, w in ordered:
        total += w
        if total >= half:
            return value
    return ordered[-1][0]


@lru_cache(maxsize=8)
def diagnosing_matcher(matcher: Matcher) -> Matcher:
    """The matcher of the signatures a watch diagnoses with, compiled once per matcher (not per watch: the bot
    rebuilds a watch from its stored state at every look, and compiling costs ~50 ms)."""
    return Matcher(diagnosed(matcher.library))


class FailureWatch:
    """The library's diagnosis of new output, with the lines before it as context; each root failure
    alerted once per (signature, file, line) and once per (signature, file, rank). Only chunks holding
    a literal of a signature are diagnosed (see Recognisers.present)."""

    BATCH_BYTES = 64 << 20

    def __init__(self, matcher: Matcher):
        self.matcher = diagnosing_matcher(matcher)
        self.alerted: dict[str, None] = {}
        self.failure: dict | None = None  # the first failure seen, for the run's end
        self.batch: list[Chunk] = []

    def state(self) -> dict:
        return {"alerted": list(self.alerted), "failure": self.failure}

    def restore(self, saved: dict) -> None:
        self.alerted = dict.fromkeys(saved["alerted"])
        self.failure = saved["failure"]

    def add(self, chunk: Chunk, now: float, poll: int) -> list[Alert]:
        """Queue a chunk that holds a literal of the library; a full batch is diagnosed at once."""
        alerts = []
        if (
            any(c.path == chunk.path for c in self.batch)
            or sum(len(c.data) for c in self.batch) + len(chunk.data) > self.BATCH_BYTES
        ):
            alerts = self.flush(now, poll)
        self.batch.append(chunk)
        return alerts

    def flush(self, now: float, poll: int) -> list[Alert]:
        batch, self.batch = self.batch, []
        if not batch:
            return []
        report = diagnose_sources([source_from_bytes(c.path, c.context + c.data) for c in batch], self.matcher)
        where = {c.path: (c.context_first_line - 1, c.generation) for c in batch}
        alerts = []
        for d in report.diagnoses:
            facts: dict[str, Any] = {
                "signature": d.signature,
                "class": d.class_,
                "title": d.title,
                "severity": d.severity,
                "role": d.role,
                "host": d.host,
                "values": d.values,
            }
            if d.role != "root":
                seen = d.first_seen
                self.failure = self.failure or {
                    **facts,
                    "file": seen.source,
                    "rank": d.initiating_rank,
                    "line": where.get(seen.source, (0, 0))[0] + seen.line,
                    "poll": poll,
                }
                continue
            new = self._not_yet_said(d, where)
            if not new:
                continue
            first = new[0]
            facts.update(
                file=first.source,
                line=first.line,
                text=first.text,
                ranks=sorted({e.rank for e in new if e.rank is not None}),
            )
            if not self.failure or self.failure["role"] != "root":
                self.failure = {**facts, "rank": first.rank, "poll": poll}
            ranks = facts["ranks"]
            on = f" on {ranks_text(ranks)}" if ranks else ""
            again = " as well" if first.kind != "initiating" else ""
            text = first.text.strip()
            message = f"{d.title} ({d.class_}){on}{again}, {first.source}:{first.line}: {text[:200]}" + (
                "…" if len(text) > 200 else ""
            )
            alerts.append(Alert("diagnosis", message, now, first.source, first.rank, facts, report))
        return alerts

    def _not_yet_said(self, d: Diagnosis, where: dict[str, tuple[int, int]]) -> list[Evidence]:
        """The diagnosis's own lines (the first and the same failure on other ranks) not alerted before, with
        their line numbers in the file; all of them are remembered."""
        new = []
        for e in d.evidence:
            if e.kind not in ("initiating", "same_failure"):
                continue
            base, generation = where.get(e.source, (0, 0))
            e = e.model_copy(update={"line": base + e.line})
            keys = [
                f"{d.signature}|{e.source}|{generation}|line {e.line}",
                f"{d.signature}|{e.source}|{generation}|rank {e.rank}",
            ]
            if not any(k in self.alerted for k in keys):
                new.append(e)
            self.alerted.update(dict.fromkeys(keys))
        while len(self.alerted) > ALERTED_KEPT:
            del self.alerted[next(iter(self.alerted))]
        return new


class LossWatch:
    """The library's trend rules (a loss that fell, climbed back and stayed up) followed as the run goes: each
    divergence of a (rank, loss name) said once, with what was measured, while the run still burns compute."""

    def __init__(self, matcher: Matcher):
        self.follower = TrendFollower(matcher.library)

    def state(self) -> dict:
        return self.follower.state()

    def restore(self, saved: dict) -> None:
        self.follower.restore(saved)

    def feed(self, chunk: Chunk, rank: int | None) -> None:
        if self.follower and chunk.data:
            self.follower.offer_block(chunk.data, chunk.first_line, rank)

    def check(self, now: float, file_of: dict[int | None, str]) -> list[Alert]:
        """One alert per signature and loss name for the ranks whose loss diverged since the last look (a job's
        ranks diverge together: 256 ranks are one alert), described by the rank whose climb began first."""
        grouped: dict[tuple[str, str], list[Diverged]] = {}
        for d in self.follower.diverged():
            grouped.setdefault((d.sig.id, d.name), []).append(d)
        alerts = []
        for (sig_id, name), together in grouped.items():
            first = min(together, key=lambda d: (d.divergence.first_up.step or 0, d.divergence.first_up.line))
            values = first.values
            ranks = sorted(d.rank for d in together if d.rank is not None)
            on = f" on {ranks_text(ranks)}" if ranks else ""
            loss = f"{name} loss" if name else "loss"
            message = (
                f"the {loss} is diverging{on}: it fell to {values['low']} ({values['low_at']}), rose to "
                f"{values['value']} at {values['up_at']} ({values['rise']} the low) and is still {values['last']} "
                f"at {values['last_at']} ({sig_id}): {first.divergence.last.text.strip()[:200]}"
            )
            facts = {"signature": sig_id, "class": first.sig.cls, "series": name, "ranks": ranks, **values}
            files = set(file_of.values())
            where = file_of.get(first.rank) or (files.pop() if len(files) == 1 else None)
            alerts.append(Alert("diverging", message, now, where, first.rank, facts))
        return alerts
