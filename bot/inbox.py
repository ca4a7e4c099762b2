"""Requests from arrival to answer, so that nothing is lost and nothing is answered twice.

A request (an event, a slash command) is recorded as *accepted* before it is acknowledged,
and as *done* when its answer is posted. While a process works on it, it holds a lease and
renews it; a request whose lease ran out (its process was killed, or handed it over at
shutdown) is taken over by whichever process looks next, which finishes it in the same
message. The first duplicate check is in memory, so a retry costs no database round trip;
when the database cannot take the write in time (a long lock, a full disk) the request is
still answered, and the failure is logged and shown on /healthz.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import partial

from bot.store import PROCESS_OWNER, Store, StoreBusy, StoreError

log = logging.getLogger("denpex.inbox")

SEEN_IN_MEMORY = 20000
MAX_ATTEMPTS = 3  # a request whose process died this often while working on it is given up (and said so)


class Inbox:
    def __init__(self, store: Store, lease_seconds: float):
        self.store = store
        self.lease = lease_seconds
        self.owner = PROCESS_OWNER
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._mine: set[str] = set()  # accepted here and not yet done: their leases are renewed
        self._deferred: list[tuple[str, str, dict]] = []  # accepted while the database was busy: still to record
        self.resume: Callable[[dict], None] | None = None  # how to redo a request taken over (set by the app)

    def accept(self, key: str, kind: str, body: dict) -> bool:
        """True for a new request (answer it); False for a duplicate (Slack's retry, a second delivery)."""
        with self._lock:
            if key in self._seen:
                return False
            self._seen[key] = None
            while len(self._seen) > SEEN_IN_MEMORY:
                self._seen.popitem(last=False)
        try:
            first = self.store.accept(key, kind, body, self.owner, self.lease)
        except StoreBusy as exc:  # ack now, record right after (the next tick, or the next request)
            log.warning("request %s: %s; recording it after the ack", key, exc)
            with self._lock:
                self._deferred.append((key, kind, body))
                self._mine.add(key)
            return True
        except StoreError as exc:
            log.error("request %s answered without being recorded: %s", key, exc)
            return True
        if first:
            with self._lock:
                self._mine.add(key)
        return first

    def answering(self, key: str | None, channel: str, ts: str) -> None:
        if key:
            self._quietly("answering", key, lambda: self.store.answering(key, channel, ts))

    def done(self, key: str | None, state: str = "done") -> None:
        if not key:
            return
        with self._lock:
            self._mine.discard(key)
            unrecorded = [d for d in self._deferred if d[0] == key]
            self._deferred = [d for d in self._deferred if d[0] != key]

        def record() -> None:
            # answered before it was ever recorded: record it now, done, so that Slack's retry of it delivered to
            # another process (or after a restart) is still known as answered
            for _, kind, body in unrecorded:
                self.store.accept(key, kind, body, self.owner, self.lease)
            self.store.finish(key, state)

        self._quietly("finish", key, record)

    def finish_unless_handed(self, key: str | None, route: Callable[[], bool]) -> None:
        """Run `route`; a request it did not hand on (to the responder, which finishes it) is finished here."""
        handed = False
        try:
            handed = route()
        finally:
            if not handed:
                self.done(key)

    def first_time(self, claim: str, key: str | None) -> bool:
        """Claim `claim` (an upload) for request `key`: True the first time, or again for the same request.
        When the database cannot say, answer anyway (an answer twice beats none)."""
        try:
            return self.store.first_time(claim, owner=key)
        except StoreError as exc:
            log.error("cannot record %s: %s; answering anyway", claim, exc)
            return True

    def retry_later(self, key: str) -> None:
        """Not finished here (Slack did not take the answer): any process, this one too, takes it over once a
        lease has passed."""
        with self._lock:
            self._mine.discard(key)
        self._quietly("retry", key, lambda: self.store.retry_later(key, self.owner, time.time() + self.lease))

    def handed_over(self, keys: list[str]) -> None:
        """At shutdown: these are not finished here; let the next process take them at once."""
        keys = [k for k in keys if k]
        with self._lock:
            self._mine.difference_update(keys)
        self._quietly("release", ",".join(keys), lambda: self.store.release(keys, self.owner))

    def tick(self) -> None:
        """Record what was accepted while the database was busy, renew this process's leases, then take over
        and redo requests whose process is gone."""
        with self._lock:
            deferred, self._deferred = self._deferred, []
        for key, kind, body in deferred:
            self._quietly("accept", key, partial(self.store.accept, key, kind, body, self.owner, self.lease))
        with self._lock:
            mine = list(self._mine)
        self._quietly("renew", f"{len(mine)} requests", lambda: self.store.renew(mine, self.owner, self.lease))
        try:
            stale = self.store.claim_stale_requests(self.owner, self.lease)
        except StoreError as exc:
            log.error("cannot look for unfinished requests: %s", exc)
            return
        for row in stale:
            log.info(
                "resuming request %s (attempt %d), left unfinished by %s",
                row["key"],
                row["attempts"],
                row.get("owner") or "a stopped process",
            )
            with self._lock:
                self._mine.add(row["key"])
                self._seen[row["key"]] = None
            try:
                if self.resume is None:
                    raise RuntimeError("no resume handler")
                self.resume(row)
            except Exception:
                log.exception("resuming request %s failed", row["key"])

    def _quietly(self, what: str, key: str, write: Callable[[], object]) -> None:
        try:
            write()
        except StoreError as exc:  # the answer matters more than its bookkeeping: say so and go on
            log.error("could not record %s of %s: %s", what, key, exc)
