"""`denpex watch PATH...`: follow the growing logs of a running job and print alerts as they happen.

A thin layer over `bot.watching.Watcher`. `add_cli(subparsers)` registers the subcommand on the
main parser and `cmd_watch(args)` runs it; `python -m bot.watch PATH...` is the same command.

Exit codes: 0 the run completed cleanly, 1 a failure was found, 2 bad input (a path that never
appears within --wait, a bad duration, an unreadable state file), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

import signatures
from bot.config import DURATION, Config, ConfigError, WatchSection, load_config, seconds
from bot.watching import STATE_VERSION, Alert, Watcher

if TYPE_CHECKING:
    from bot.fetch import JobFacts, JobRef, LogFollow

EXIT_COMPLETED = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


class _BadInput(Exception):
    """What the user gave cannot be watched; the message says what and what to do."""


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Register `watch` on an argparse subparsers object (the `denpex` command's)."""
    w = subparsers.add_parser(
        "watch",
        help="follow a running job's growing logs and print alerts as they happen",
        description="Follow growing log files (and new log files in directories) and print, once each: a "
        "failure the library recognises, a checkpoint save that takes too long, a stall or slower "
        "steps, and the run's end. Exits 0 when the run completed, 1 when it failed, 2 on bad "
        "input, 130 on Ctrl-C. Thresholds come from [watch] in DENPEX_CONFIG.",
    )
    w.add_argument("paths", nargs="*", metavar="PATH", help="log files, or directories of logs")
    w.add_argument(
        "--job",
        metavar="REF",
        help="a Slurm job (812345, NAME/812345) of a [clusters.*] in DENPEX_CONFIG: its logs, found by asking "
        "the scheduler, followed until it ends (then exit 0 when it completed, 1 when it failed)",
    )
    w.add_argument("--interval", help="how often the logs are read, e.g. 5s (default: [watch] interval)")
    w.add_argument(
        "--wait", default="0s", help="how long a PATH that does not exist yet may take to appear, e.g. 10m (default 0s)"
    )
    w.add_argument("--json", action="store_true", help="one JSON object per alert and line")
    w.add_argument(
        "--state",
        metavar="FILE",
        help="resume from FILE (offsets, what was already said) and write the state to it after each poll",
    )
    w.set_defaults(func=cmd_watch)
    return w


def cmd_watch(args: argparse.Namespace) -> int:
    if args.job is not None:
        if args.paths:
            print("denpex: watch takes either --job or PATHs, not both", file=sys.stderr)
            return EXIT_BAD_INPUT
        return _watch_job(args)
    if not args.paths:
        print("denpex: watch needs PATHs (log files or directories) or --job REF", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        config, wait, state = _inputs(args)
        watcher = Watcher(
            args.paths,
            config.watch,
            signatures.cached_matcher([signatures.LIBRARY_DIR, *config.signatures.extra_dirs]),
            state=state,
        )
    except (_BadInput, ConfigError) as exc:
        print(f"denpex: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    interval = seconds(config.watch.interval)
    deadline = time.monotonic() + wait
    seen: set[str] = set()
    try:
        while True:
            started = time.monotonic()
            missing = watcher.missing()
            seen |= set(args.paths) - set(missing)
            never = [p for p in missing if p not in seen]
            if never and started >= deadline:
                print(
                    f"denpex: {never[0]}: no such file or directory"
                    + (f" (waited {args.wait})" if wait else " (--wait 10m waits for a log to appear)"),
                    file=sys.stderr,
                )
                return EXIT_BAD_INPUT
            for alert in watcher.poll():
                _print(alert, args.json)
            if args.state:
                _write_state(args.state, watcher.state())
            if watcher.ended:
                return EXIT_COMPLETED if watcher.outcome == "completed" else EXIT_FAILED
            time.sleep(max(0.0, interval - (time.monotonic() - started)))
    except KeyboardInterrupt:
        print("denpex: watch interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _watch_job(args: argparse.Namespace) -> int:
    """`denpex watch --job REF`: the scheduler names the logs (and says when the job ended) at every look."""
    from bot.fetch import FetchError, LogFollow, job_status, parse_job_ref

    follow: LogFollow | None = None
    try:
        config, _, state = _inputs(args)
        ref = parse_job_ref(args.job, config)
        if ref.kind == "kubernetes":  # its logs come from the API: spooled, next to --state when there is one
            spool = Path(args.state + ".spool") if args.state else Path(tempfile.mkdtemp(prefix="denpex-watch-"))
            follow = LogFollow(spool, (state or {}).pop("cursors", {}))
        facts, paths = job_status(ref, config, follow=follow)
    except (_BadInput, ConfigError, FetchError) as exc:
        print(f"denpex: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return _follow_job(args, config, ref, facts, paths, state, follow)
    finally:
        if follow is not None and not args.state:
            shutil.rmtree(follow.spool, ignore_errors=True)


def _follow_job(
    args: argparse.Namespace,
    config: Config,
    ref: JobRef,
    facts: JobFacts,
    paths: list,
    state: dict | None,
    follow: LogFollow | None,
) -> int:
    from bot.fetch import FetchError, job_status
    from bot.jobs import fetched_report
    from bot.render import watch_closing
    from bot.watching.jobs import LOST_AFTER_POLLS, RUNNING, WAITING, state_of

    matcher = signatures.cached_matcher([signatures.LIBRARY_DIR, *config.signatures.extra_dirs])
    interval = seconds(config.watch.interval)
    job = f"{ref.cluster}/{ref.job_id}"
    failures = 0
    try:
        while True:
            started = time.monotonic()
            current = state_of(facts)
            if current not in WAITING:
                watcher = Watcher([str(p) for p in paths], config.watch, matcher, state=state)
                for alert in watcher.poll():
                    if not (alert.kind == "end" and current not in RUNNING):
                        _print(alert, args.json)
                state = watcher.state()
                if follow is not None:
                    state["cursors"] = follow.cursors
                if args.state:
                    _write_state(args.state, state)
                if follow is not None:
                    state.pop("cursors")
            if current not in WAITING | RUNNING:
                budget = config.inputs.budget()
                report = None
                if follow is not None:  # the whole job from the API: its spool holds only what was written since
                    try:
                        report = fetched_report(ref, config, matcher)
                    except FetchError as exc:
                        print(f"denpex: {exc}", file=sys.stderr)
                else:
                    readable = [str(p) for p in paths if os.path.isfile(p)]
                    report = signatures.diagnose(readable, matcher=matcher, budget=budget) if readable else None
                closing = watch_closing(job, "COMPLETED" if current == "COMPLETED" else facts.state or current, report)
                print(
                    json.dumps({"kind": "job_end", "state": facts.state, "message": closing}) if args.json else closing
                )
                completed = current == "COMPLETED" and (report is None or report.top is None)
                return EXIT_COMPLETED if completed else EXIT_FAILED
            time.sleep(max(0.0, interval - (time.monotonic() - started)))
            try:
                facts, paths = job_status(ref, config, follow=follow)
                failures = 0
            except FetchError as exc:  # the scheduler did not answer this time: look again, a few times
                failures += 1
                print(f"denpex: {exc}", file=sys.stderr)
                if failures >= LOST_AFTER_POLLS:
                    print(f"denpex: gave up watching {job} after {failures} failed looks", file=sys.stderr)
                    return EXIT_FAILED
    except KeyboardInterrupt:
        print("denpex: watch interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _inputs(args: argparse.Namespace):
    """The configuration with --interval applied, --wait in seconds, and the state to resume from."""
    config = load_config()
    if args.interval is not None:
        _duration("--interval", args.interval)
        try:
            watch = WatchSection.model_validate({**config.watch.model_dump(), "interval": args.interval})
        except ValidationError as exc:
            raise _BadInput(f"--interval: {exc.errors()[0]['msg']}") from None
        config = config.model_copy(update={"watch": watch})
    wait = _duration("--wait", args.wait)
    for path in args.paths:
        if os.path.exists(path) and not (os.path.isfile(path) or os.path.isdir(path)):
            raise _BadInput(f"{path}: not a regular file or a directory")
    state = None
    if args.state and os.path.exists(args.state):
        try:
            with open(args.state, encoding="utf-8") as fh:
                state = json.load(fh)
            if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
                raise ValueError(f"not version {STATE_VERSION}")
        except (OSError, ValueError) as exc:
            raise _BadInput(f"--state {args.state}: not a watch state ({exc}); remove it to start afresh") from None
    return config, wait, state


def _duration(flag: str, value: str) -> float:
    if not re.match(DURATION, value):
        raise _BadInput(f"{flag} {value!r}: not a duration like 30s, 10m or 2h")
    return seconds(value)


def _print(alert: Alert, as_json: bool) -> None:
    if alert.notice:
        print(f"denpex: {alert.message}", file=sys.stderr)
        return
    if as_json:
        print(json.dumps(alert.to_json(), ensure_ascii=False), flush=True)
    else:
        local = datetime.fromtimestamp(alert.time, UTC).astimezone()
        print(f"{local:%H:%M:%S} {alert.kind:<10} {alert.message}", flush=True)


def _write_state(path: str, state: dict) -> None:
    """Replaced whole, so a watch killed while writing leaves the previous state."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(state, fh)
    os.replace(tmp, path)


def main(argv: list[str] | None = None) -> int:
    """`python -m bot.watch PATH...`: the parser built as `denpex` builds it."""
    parser = argparse.ArgumentParser(prog="denpex")
    add_cli(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["watch", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
