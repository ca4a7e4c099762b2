"""`python -m signatures test|lint|coverage`: the library's own checks, without the bot.

    python -m signatures test [ID ...] [--verbose] [--dir DIR ...]
    python -m signatures lint [--dir DIR ...]
    python -m signatures coverage [--dir DIR ...]

--dir replaces the bundled library with these directories (repeat it to add more). Exit status:
0 passed, 1 failed checks, 2 bad input (an unknown id, an invalid signature file).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import (
    LIBRARY_DIR,
    Library,
    SignatureFileError,
    case_report,
    coverage_markdown,
    default_library,
    lint_library,
    load_library,
    run_cases,
)


def _library(dirs: list[str] | None) -> Library:
    return load_library([Path(d) for d in dirs]) if dirs else default_library()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m signatures", description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", action="append", help=f"a signature directory (default: {LIBRARY_DIR})")
    sub = parser.add_subparsers(dest="command", required=True)
    test = sub.add_parser("test", help="run every signature's match and near-miss cases")
    test.add_argument("ids", nargs="*", help="only these signatures")
    test.add_argument("-v", "--verbose", action="store_true", help="print every case, not only failures")
    sub.add_parser("lint", help="check the library's policies")
    sub.add_parser("coverage", help="the class -> signatures table, in Markdown")
    args = parser.parse_args(argv)
    try:
        lib = _library(args.dir)
    except SignatureFileError as exc:
        print(f"signatures: {exc}", file=sys.stderr)
        return 2
    if args.command == "coverage":
        sys.stdout.write(coverage_markdown(lib))
        return 0
    if args.command == "lint":
        problems = lint_library(lib)
        print("\n".join([*problems, f"{len(lib.signatures)} signatures checked, {len(problems)} problem(s)"]))
        return 1 if problems else 0
    unknown = [i for i in args.ids if i not in lib.by_id()]
    if unknown:
        print(f"signatures: no signature {', '.join(unknown)}", file=sys.stderr)
        return 2
    lines, ok = case_report(run_cases(lib, args.ids or None), args.verbose)
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
