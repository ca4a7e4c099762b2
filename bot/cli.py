"""`denpex`: the command line. A thin layer over the `signatures` library."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import signatures
from bot import terminal
from bot.config import ConfigError, load_config
from bot.watch import add_cli as add_watch_cli
from signatures import InputError, SignatureFileError

if TYPE_CHECKING:
    from bot.store import Store

EXIT_OK = 0
EXIT_FAILED_CHECKS = 1
EXIT_BAD_INPUT = 2
EXIT_DIAGNOSED, EXIT_UNRECOGNISED = 1, 3  # `diagnose --exit-code`: 0 healthy, 1 a failure named, 3 one unnamed
# not_a_log: the input reads like no training log (/etc/passwd, a README): said, and no failure to report
OUTCOME_EXITS = {
    "healthy": EXIT_OK,
    "diagnosed": EXIT_DIAGNOSED,
    "unrecognised": EXIT_UNRECOGNISED,
    "not_a_log": EXIT_OK,
}
PROGRESS_MIN_BYTES = 64 << 20


def _diagnose_job(args: argparse.Namespace) -> int:
    from bot.fetch import FetchError
    from bot.jobs import diagnose_job

    if args.paths:
        print("denpex: give either --job or log paths, not both", file=sys.stderr)
        return EXIT_BAD_INPUT
    if _timeline_path_refused(args.timeline):
        return EXIT_BAD_INPUT
    try:
        report = diagnose_job(args.job, load_config(), _matcher(args))
    except (FetchError, InputError) as exc:
        print(f"denpex: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    _print_report(report, args)
    _write_timeline(report, args.timeline)
    return OUTCOME_EXITS[report.outcome] if args.exit_code else EXIT_OK


def _timeline_path_refused(path: str | None) -> bool:
    """--timeline's file cannot be written where it is asked for: said before the logs are read."""
    if path is None or Path(path).resolve().parent.is_dir():
        return False
    print(f"denpex: --timeline {path}: there is no directory {Path(path).resolve().parent}", file=sys.stderr)
    return True


def _write_timeline(report: signatures.Report, path: str | None) -> None:
    """--timeline: the picture of the diagnosis as a PNG, or on stderr why there is none (the exit status is the
    diagnosis's either way)."""
    if path is None:
        return
    timeline = report.timeline if isinstance(report, signatures.ScannedReport) else None
    if timeline is None:
        if report.top is None:
            why = "no failure was diagnosed"
        elif report.top.first_seen.time is None:
            why = "the line where the failure started has no time"
        else:
            why = "it needs at least two ranks that reported something with a time"
        print(f"denpex: no timeline drawn: {why}", file=sys.stderr)
        return
    from bot.timeline import HEIGHT, WIDTH, render

    try:
        Path(path).write_bytes(render(timeline))
    except OSError as exc:
        print(f"denpex: --timeline {path}: {exc.strerror or exc}", file=sys.stderr)
        return
    print(f"denpex: timeline written to {path} ({WIDTH} x {HEIGHT} px)", file=sys.stderr)


def _print_report(report: signatures.Report, args: argparse.Namespace) -> None:
    if args.json:
        json.dump(report.to_json(), sys.stdout, indent=2, ensure_ascii=not terminal.is_unicode(sys.stdout))
        sys.stdout.write("\n")
        return
    out = terminal.Printer(sys.stdout, _color(args))
    if args.brief:
        out.lines(("text", line) for line in signatures.brief_lines(report))
        return
    job = report.job
    if job:
        out.line(f"{job.cluster}: {job.summary}")
        for note in job.notes:
            out.line(f"  note: {note}")
    out.lines(signatures.render_lines(report, out.width))


def _color(args: argparse.Namespace) -> str:
    return getattr(args, "color", None) or "auto"


def cmd_diagnose(args: argparse.Namespace) -> int:
    if args.job:
        return _diagnose_job(args)
    if not args.paths and not sys.stdin.isatty():
        args.paths = ["-"]  # `cat x.log | denpex diagnose`, as ripgrep reads a pipe
    if not args.paths:
        print("denpex: diagnose needs log paths (files, directories, archives, or - for stdin)", file=sys.stderr)
        return EXIT_BAD_INPUT
    if _timeline_path_refused(args.timeline):
        return EXIT_BAD_INPUT
    progress = None
    if sys.stderr.isatty() and not args.quiet:
        console = terminal.console(sys.stderr, _color(args))
        progress = terminal.ReadProgress.for_inputs(args.paths, PROGRESS_MIN_BYTES, console)
    try:
        matcher = _matcher(args)
        budget = load_config().inputs.budget()
        with progress or contextlib.nullcontext():  # the bar is cleared however the scan ends (Ctrl-C too)
            report = signatures.diagnose(args.paths, matcher=matcher, progress=progress, budget=budget)
    except InputError as exc:
        print(f"denpex: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if report.stats.bytes == 0 and report.flight_recorder is None:
        named = ", ".join("stdin" if p == "-" else p for p in args.paths)
        print(f"denpex: {named}: empty, nothing to diagnose", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.baseline:
        if "-" in args.paths:
            print("denpex: --baseline compares files: stdin is read once, by the diagnosis", file=sys.stderr)
            return EXIT_BAD_INPUT
        try:
            report = signatures.compare_with_baseline(
                report, args.baseline, args.paths, budget=load_config().inputs.budget()
            )
        except InputError as exc:
            print(f"denpex: --baseline: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
    _print_report(report, args)
    _write_timeline(report, args.timeline)
    return OUTCOME_EXITS[report.outcome] if args.exit_code else EXIT_OK


def _library_dirs(args: argparse.Namespace) -> list[Path]:
    """--library replaces the bundled library; the config's extra_dirs add to it."""
    if args.library:
        return [Path(d) for d in args.library]
    return [signatures.LIBRARY_DIR, *load_config().signatures.extra_dirs]


def _matcher(args: argparse.Namespace) -> signatures.Matcher:
    return signatures.cached_matcher(_library_dirs(args))


def _library(args: argparse.Namespace) -> signatures.Library:
    dirs = _library_dirs(args)
    return signatures.default_library() if dirs == [signatures.LIBRARY_DIR] else signatures.load_library(dirs)


def cmd_list(args: argparse.Namespace) -> int:
    lib = _library(args)
    rows = sorted(lib.signatures, key=lambda s: (s.cls, s.id))
    if args.json:
        json.dump(
            [
                {
                    "id": s.id,
                    "class": s.cls,
                    "role": s.role,
                    "severity": s.severity,
                    "title": s.title,
                    "status": s.status,
                }
                for s in rows
            ],
            sys.stdout,
            indent=2,
        )
        sys.stdout.write("\n")
        return EXIT_OK
    footer = f"{len(rows)} signatures, {len({s.cls for s in rows})} classes"
    if not sys.stdout.isatty():  # a file or a pipe: whole lines, one per signature, for grep and cut
        width = max(len(s.id) for s in rows)
        for s in rows:
            print(f"{s.id:<{width}}  {s.cls:<28} {s.role:<10} {s.severity:<8} {s.title}")
        print(f"\n{footer}")
        return EXIT_OK
    console = terminal.console(sys.stdout, _color(args), terminal.width(sys.stdout))
    console.print(terminal.signature_table(rows, console.width))
    console.print(footer)
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    lib = _library(args)
    try:
        sig = lib.get(args.id)
    except KeyError:
        close = difflib.get_close_matches(args.id, list(lib.by_id()), n=3, cutoff=0.5)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        print(f"denpex: no signature {args.id!r}; {hint}`denpex signatures list` shows them", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{sig.id}  ({sig.cls}, {sig.role}, {sig.severity}, {sig.status})")
    print(f"file: {lib.paths[sig.id]}")
    print(f"\n{sig.title}\n\n{sig.summary.strip()}\n\nMechanism: {sig.mechanism.strip()}")
    print("\nPatterns:")
    for p in sig.patterns:
        print(f"  literals {p.all_literals!r}  regex {p.regex}")
    if sig.absence:
        print(
            f"  absence: start {[p.all_literals for p in sig.absence.start]}, complete "
            f"{[p.all_literals for p in sig.absence.complete]}, progress {[p.all_literals for p in sig.absence.progress]}"
        )
    print("\nRoot causes:")
    for rc in sig.root_causes:
        print(f"  - {rc}")
    print(f"\nFix: {sig.fix.strip()}\n\nChecklist:")
    for item in sig.checklist:
        print(f"  [ ] {item}")
    print(f"\nPrevention: {sig.prevention.strip()}\nVerify: {sig.verify}")
    print("References:\n" + "\n".join(f"  {r}" for r in sig.references))
    print(
        f"Cases: {sum(c.kind == 'match' for c in sig.cases)} match, {sum(c.kind == 'near_miss' for c in sig.cases)} near miss"
    )
    return EXIT_OK


def cmd_test(args: argparse.Namespace) -> int:
    lib = _library(args)
    ids = args.ids or None
    if ids:
        unknown = [i for i in ids if i not in lib.by_id()]
        if unknown:
            print(f"denpex: no signature {', '.join(unknown)}", file=sys.stderr)
            return EXIT_BAD_INPUT
    lines, ok = signatures.case_report(signatures.run_cases(lib, ids), args.verbose)
    print("\n".join(lines))
    return EXIT_OK if ok else EXIT_FAILED_CHECKS


def cmd_lint(args: argparse.Namespace) -> int:
    lib = _library(args)
    problems = signatures.lint_library(lib)
    if args.feedback:
        from bot import feedback

        store = _open_db(args.feedback)
        if store is None:
            return EXIT_BAD_INPUT
        bar = load_config().signatures
        min_precision = bar.min_precision if args.min_precision is None else args.min_precision
        min_votes = bar.min_votes if args.min_votes is None else args.min_votes
        if not 0 <= min_precision <= 1 or min_votes < 1:
            print("denpex: --min-precision is between 0 and 1, --min-votes at least 1", file=sys.stderr)
            return EXIT_BAD_INPUT
        flagged = feedback.below_bar(feedback.records(store), min_precision, min_votes)
        problems += [feedback.flag_line(r, min_precision) for r in flagged]
    for p in problems:
        print(p)
    print(f"{len(lib.signatures)} signatures checked, {len(problems)} problem(s)")
    return EXIT_FAILED_CHECKS if problems else EXIT_OK


def _open_db(path: str | None) -> Store | None:
    """The bot's database (--db, else $DENPEX_DB, else ./denpex.db), or None when there is none (said on stderr)."""
    from bot.settings import POSTGRES_SCHEMES
    from bot.store import Store, StoreError

    path = path or os.environ.get("DENPEX_DB", "denpex.db")
    url = path.startswith(POSTGRES_SCHEMES)  # PostgreSQL: the server says whether it exists
    if not url and not os.path.isfile(path):
        print(f"denpex: {path}: no such database (DENPEX_DB, or --db)", file=sys.stderr)
        return None
    try:
        return Store(path)
    except StoreError as exc:  # unreachable, refused, a newer schema
        print(f"denpex: {exc}", file=sys.stderr)
        return None


def cmd_stats(args: argparse.Namespace) -> int:
    from bot import feedback

    store = _open_db(args.db)
    if store is None:
        return EXIT_BAD_INPUT
    found = feedback.records(store)
    if args.json:
        json.dump([r.to_json() for r in found], sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(feedback.stats_table(found))
    return EXIT_OK


def cmd_draft(args: argparse.Namespace) -> int:
    lib = _library(args)
    try:
        draft = signatures.draft_signature(args.line, args.cls, source=args.source or "the command line", library=lib)
    except signatures.DraftError as exc:
        print(f"denpex: cannot draft a signature: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.out:
        out = Path(args.out)
        path = out / draft.filename if out.is_dir() else out
        path.write_text(draft.toml, encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    else:
        sys.stdout.write(draft.toml)
    for problem in draft.checks:
        print(f"denpex: the draft fails a check: {problem}", file=sys.stderr)
    if not draft.checks:
        print(
            f"the draft passes `denpex signatures test` and `lint`; to use it, save it as {draft.filename} in a "
            "directory listed in [signatures] extra_dirs, then write its prose",
            file=sys.stderr,
        )
    return EXIT_FAILED_CHECKS if draft.checks else EXIT_OK


def cmd_coverage(args: argparse.Namespace) -> int:
    sys.stdout.write(signatures.coverage_markdown(_library(args)))
    return EXIT_OK


def cmd_hosts(args: argparse.Namespace) -> int:
    from bot import hosts
    from bot.render import hosts_message

    config = load_config()
    if args.window:
        try:
            config = config.model_copy(
                update={"bot": config.bot.model_validate({**config.bot.model_dump(), "host_window": args.window})}
            )
        except ValueError:
            print(f"denpex: --window {args.window!r}: not a duration like 7d or 24h", file=sys.stderr)
            return EXIT_BAD_INPUT
    store = _open_db(args.db)
    if store is None:
        return EXIT_BAD_INPUT
    records = hosts.top_hosts(store, config, signatures.default_library().taxonomy, args.limit)
    print(hosts_message(records, config.bot.host_window).replace("*", ""))
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from bot.app import build_app, start_error
    from bot.logs import setup_logging
    from bot.server import StartError, serve_http, serve_socket_mode
    from bot.settings import SettingsError, load_settings
    from bot.store import Store

    fmt = os.environ.get("DENPEX_LOG_FORMAT", "text")
    if fmt not in ("text", "json"):
        print(f"denpex: DENPEX_LOG_FORMAT must be text or json, not {fmt!r}", file=sys.stderr)
        return EXIT_BAD_INPUT
    setup_logging(os.environ.get("DENPEX_LOG_LEVEL", "INFO"), fmt)
    try:
        settings = load_settings(http=args.http)
    except SettingsError as exc:
        print(f"denpex: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    for name in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"):
        # held in settings now: Bolt would read the token from the environment again (and warn), and the
        # scheduler commands the bot runs (scontrol, sacct) have no business inheriting them
        os.environ.pop(name, None)
    try:
        store = Store(settings.db_path)
    except Exception as exc:  # unreadable, not a database, newer schema
        print(f"denpex: DENPEX_DB: cannot open {settings.db_name}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    started: list = []  # the app, once built

    def start():
        """Built while the port already answers /healthz with 503 (see StartingGate)."""
        try:
            app = build_app(settings, store)
        except Exception as exc:  # auth.test refused the token, Slack unreachable
            raise StartError(start_error(settings.api_url, exc)) from exc
        app.followups.start()  # re-checks after "Fix applied"; overdue ones run now
        started.append(app)
        return app

    def stop_background() -> None:
        for app in started:
            app.followups.stop()

    try:
        if args.http:
            serve_http(
                start,
                store,
                args.host,
                args.port,
                on_stop=stop_background,
                signing_secret=settings.signing_secret,
                connection_limit=settings.config.bot.connection_limit,
                channel_timeout=settings.config.bot.channel_timeout_seconds,
            )
        else:
            assert settings.app_token is not None  # load_settings requires it without --http
            serve_socket_mode(start, store, settings.app_token, args.health_port, on_stop=stop_background)
    except StartError as exc:
        print(f"denpex: cannot start: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        for app in started:
            app.followups.stop()
            app.responder.close(settings.config.bot.shutdown_grace_seconds, app.client)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="denpex", description="Find the failure that started a training job's crash.")
    parser.add_argument("--version", action="version", version=f"denpex {_version()}")
    _add_color(parser, "auto")
    sub = parser.add_subparsers(dest="command")

    d = sub.add_parser(
        "diagnose",
        help="diagnose log files, directories, archives or stdin (-) as one job",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=DIAGNOSE_EXAMPLES,
    )
    d.add_argument("paths", nargs="*", help="log files, directories of per-rank logs, .gz/.zip/.tar(.gz), or -")
    d.add_argument("--json", action="store_true", help="print the JSON report (the contract other tools read)")
    d.add_argument(
        "--brief",
        action="store_true",
        help="one line per diagnosis: class, rank=, host=, at= (where it was first seen), signature=, severity=",
    )
    _add_color(d)
    d.add_argument(
        "--job",
        help="a job to fetch from a cluster in DENPEX_CONFIG: 812345, 812345_7, NAME/812345, "
        "NAME/namespace/job-name, NAME/raysubmit_...",
    )
    d.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    d.add_argument(
        "--exit-code",
        action="store_true",
        help="exit 0 when healthy, 1 when a failure is diagnosed, 3 when a failure is not recognised "
        "(2 is always bad input), as git diff --exit-code does",
    )
    d.add_argument("--library", action="append", help="signature directory instead of the bundled one (repeatable)")
    d.add_argument(
        "--baseline",
        action="append",
        metavar="GOOD",
        help="a log of a good run of the same program: add the failed run's lines it never printed (repeatable)",
    )
    d.add_argument(
        "--timeline",
        metavar="PNG",
        help="also draw the failure in time, rank by rank, into this PNG (needs two ranks with timed events)",
    )
    d.set_defaults(func=cmd_diagnose)

    ho = sub.add_parser("hosts", help="the hosts with the most incidents lately, from the bot's database")
    ho.add_argument("--db", help="the bot's database (default $DENPEX_DB, else ./denpex.db)")
    ho.add_argument("--window", help="how far back, e.g. 7d (default [bot] host_window)")
    ho.add_argument("--limit", type=int, default=10, help="how many hosts (default 10)")
    ho.set_defaults(func=cmd_hosts)

    sv = sub.add_parser("serve", help="run the Slack bot (Socket Mode; --http for the Events API over HTTP)")
    sv.add_argument("--http", action="store_true", help="HTTP mode: POST /slack/events, GET /healthz")
    sv.add_argument("--port", type=int, default=3000, help="HTTP mode port (default 3000)")
    sv.add_argument("--host", default="0.0.0.0", help="HTTP mode address (default 0.0.0.0)")
    sv.add_argument(
        "--health-port", type=int, default=0, help="Socket Mode: also answer GET /healthz on this port (default: off)"
    )
    sv.set_defaults(func=cmd_serve)

    s = sub.add_parser("signatures", help="list, show, test and lint the signature library")
    _add_color(s)
    s.add_argument(
        "--library",
        action="append",
        help="a signature directory to use instead of the bundled one (repeatable: merged)",
    )
    ssub = s.add_subparsers(dest="action", required=True)
    ls = ssub.add_parser("list", help="one line per signature")
    ls.add_argument("--json", action="store_true")
    ls.set_defaults(func=cmd_list)
    sh = ssub.add_parser("show", help="everything about one signature")
    sh.add_argument("id")
    sh.set_defaults(func=cmd_show)
    te = ssub.add_parser("test", help="run the signatures' match and near-miss cases")
    te.add_argument("ids", nargs="*", help="only these signatures")
    te.add_argument("-v", "--verbose", action="store_true", help="print passing cases too")
    te.set_defaults(func=cmd_test)
    li = ssub.add_parser("lint", help="check the library against the policy (beyond the schema)")
    li.add_argument(
        "--feedback",
        metavar="DB",
        help="also flag signatures whose precision in the bot's database is below the bar ([signatures] min_precision)",
    )
    li.add_argument("--min-precision", type=float, help="the bar (default [signatures] min_precision, 0.5)")
    li.add_argument(
        "--min-votes", type=int, help="judge a signature only once this many incidents were judged (default 5)"
    )
    li.set_defaults(func=cmd_lint)
    st = ssub.add_parser("stats", help="per signature: fired, confirmed, rejected, precision (the bot's database)")
    st.add_argument("--db", help="the bot's database (default $DENPEX_DB, else ./denpex.db)")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=cmd_stats)
    dr = ssub.add_parser("draft", help="draft a signature from one error line the library does not explain")
    dr.add_argument("--line", required=True, help="the error line, as the log printed it (prefixes and all)")
    dr.add_argument("--class", dest="cls", help="its failure class (default python_exception_other); see taxonomy")
    dr.add_argument("--source", help="where the line comes from, for the draft's notes")
    dr.add_argument("-o", "--out", help="write the TOML to this file or directory instead of stdout")
    dr.set_defaults(func=cmd_draft)
    co = ssub.add_parser("coverage", help="print the class -> signatures table (docs/coverage.md)")
    co.set_defaults(func=cmd_coverage)
    add_watch_cli(sub)
    return parser


def _add_color(parser: argparse.ArgumentParser, default: str | None = None) -> None:
    """--color on the command and on a subcommand alike (`denpex --color=never diagnose x`, `denpex diagnose
    --color=never x`); a subcommand leaves the command's value alone unless it is given."""
    parser.add_argument(
        "--color",
        choices=terminal.COLOR_CHOICES,
        default=default if default is not None else argparse.SUPPRESS,
        help="colour: on a terminal unless NO_COLOR is set (auto, the default), always, or never",
    )


DIAGNOSE_EXAMPLES = """examples:
  denpex diagnose train.log                      one log
  denpex diagnose logs/ rank*.err job.tar.gz     a job's logs, however they are packed
  kubectl logs job/train | denpex diagnose -     stdin
  denpex diagnose --job 812345 --json            a Slurm job from DENPEX_CONFIG, as JSON
  denpex diagnose --exit-code train.log || page  scripts: 1 a failure named, 3 one not recognised
  denpex diagnose --brief logs/                  one line per diagnosis: class rank= host= at= signature=
  denpex diagnose logs/ --timeline failure.png   and a picture of the ranks in time
"""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("denpex-bot")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    terminal.never_crash_on_encoding()
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # a bare `denpex`
        parser.print_help()
        return EXIT_OK
    try:
        return args.func(args)
    except SignatureFileError as exc:
        print(f"denpex: invalid signature library: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ConfigError as exc:
        print(f"denpex: invalid configuration: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
