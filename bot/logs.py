"""The bot's own log: masked always, one JSON object per line on request (DENPEX_LOG_FORMAT=json).

Secrets reach the log the same ways they reach Slack (a pasted log quoted in an exception,
a request body Bolt logs when it refuses one), so every record is masked before any handler
formats it out.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from bot.redact import redact

# attributes every LogRecord has: whatever else a record carries came from `extra=` and goes into the JSON
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


class MaskingFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        for key, value in list(vars(record).items()):
            if key not in _STANDARD and isinstance(value, str):
                setattr(record, key, redact(value))
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, default=str)


def setup_logging(level: str = "INFO", fmt: str = "text") -> None:
    """Configure the root logger for `denpex serve`: masked records, text or JSON lines on stderr."""
    handler = logging.StreamHandler()
    handler.addFilter(MaskingFilter())
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # Bolt logs the whole body of a request it refuses at INFO/DEBUG (pasted logs, secrets and all)
    logging.getLogger("slack_bolt").setLevel(max(logging.WARNING, root.level))
    # APScheduler says "Running job … executed successfully" at every tick
    logging.getLogger("apscheduler").setLevel(max(logging.WARNING, root.level))
    # waitress warns "Task queue depth is 1" for every request that waits for a thread: hundreds a burst
    # (the backlog is on /metrics: denpex_ack_seconds)
    logging.getLogger("waitress.queue").setLevel(max(logging.ERROR, root.level))
