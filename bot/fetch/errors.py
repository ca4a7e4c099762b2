"""How a fetch fails: one exception class per way, each message fit to show a user.

Every class keeps the `kind` string callers have always matched on (and that labels the fetch
metrics), so `except FetchError as exc: if exc.kind == "pending"` and `except Pending` say the same.
The older form `FetchError("pending", message)` still builds a `Pending` (injected Slurm runners use it).
"""

from __future__ import annotations

_BY_KIND: dict[str, type[FetchError]] = {}


class FetchError(Exception):
    """A fetch failed; the subclass says how, `str(exc)` is the user-facing message."""

    kind = ""  # set by every subclass: class Pending(FetchError, kind="pending")
    status: int | None = None  # the HTTP status, when an API answered with one (see bot.fetch.http)
    detail = ""  # what that API's error body said

    def __init_subclass__(cls, kind: str | None = None, **kwargs):
        super().__init_subclass__(**kwargs)
        if kind is not None:  # a new kind; subclasses without one refine their parent's
            cls.kind = kind
            _BY_KIND[kind] = cls

    def __new__(cls, *args):
        if cls is FetchError:  # the older FetchError(kind, message): the subclass for that kind
            if len(args) != 2 or args[0] not in _BY_KIND:
                raise TypeError(f"FetchError(kind, message) needs a kind among {sorted(_BY_KIND)}, got {args!r}")
            cls = _BY_KIND[args[0]]
        return super().__new__(cls, *args)

    def __init__(self, *args: str):
        if len(args) == 2:  # FetchError(kind, message)
            if args[0] != self.kind:
                raise ValueError(f"{type(self).__name__} is kind {self.kind!r}, not {args[0]!r}")
            args = args[1:]
        if len(args) != 1:
            raise TypeError(f"{type(self).__name__} takes one message")
        super().__init__(args[0])


class InvalidJobId(FetchError, kind="invalid_id"):
    """The job reference is not one this cluster's scheduler could have issued (or it answered for other jobs)."""


class UnknownCluster(FetchError, kind="unknown_cluster"):
    """The reference names a cluster the configuration does not have."""


class NotConfigured(FetchError, kind="not_configured"):
    """The configuration (or the environment it points at) cannot serve this fetch."""


class UnknownJob(FetchError, kind="unknown_job"):
    """The scheduler does not know the job (any more)."""


class NotFound(UnknownJob):
    """An API answered 404. It is an unknown job unless the caller knows better (an optional object, a gone pod)."""


class Pending(FetchError, kind="pending"):
    """The job has not started: no log to diagnose yet."""


class PermissionDenied(FetchError, kind="permission"):
    """The scheduler refused the bot's credentials (401) or their rights (403)."""


class Unreachable(FetchError, kind="unreachable"):
    """The scheduler or its API cannot be asked right now, or answered with an error or nonsense."""


class CannotConnect(Unreachable):
    """No connection could be made at all (refused, no route, no such host)."""


class RateLimited(Unreachable):
    """An API answered 429; `retry_after` is the seconds its Retry-After asked for, when it said."""

    retry_after: float | None = None


class LogMissing(FetchError, kind="log_missing"):
    """The job ran, but none of its logs can be read from here."""


class FetchTimeout(FetchError, kind="timeout"):
    """The fetch ran out of its time budget, or the scheduler did not answer within it."""


KINDS = frozenset(_BY_KIND)
