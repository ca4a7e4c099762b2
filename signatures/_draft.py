"""A signature drafted from one error line that the library does not explain (issue 14, item 4).

The draft is a starting point a person finishes, in the library's own format, and it passes the library's
checks as produced: its literal is the longest part of the line's message without numbers, ids or paths (the
part every occurrence shares), its regex is the message with those parts generalised (numbers after a `key=`
or `key:` become named values), its match case is the line itself and its near misses are the healthy lines
that come closest to it. Its prose says plainly what still has to be written.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote_plus

from ._cases import CaseResult, run_case
from ._engine import Matcher
from ._library import Library, TaxonomyClass, default_library
from ._lines import MPI_TAG, parse_prefix, strip_ansi
from ._lint import lint_signature
from ._schema import MIN_LITERAL, Signature, compile_regex

HEALTHY_LINES = Path(__file__).resolve().parent / "healthy_lines.txt"
NEAR_MISSES = 3
_ALARMING = re.compile(r"error|warn|fail|exception|timeout|overflow|nan\b", re.IGNORECASE)
TITLE_CHARS = 100

# What comes before a message: srun labels, torchrun's [rankN]: / [defaultN]:, timestamps (ISO, logging, glog,
# PyTorch's [E1130 13:10:11.123 File.cpp:616]), level words, NCCL's host:pid:tid [dev], a logger's `name:`.
_PREFIX = re.compile(
    r"""^(?:
        \s{0,3}\d{1,6}:\s
      | \[(?:rank|default)\d{1,6}\]:\s?
      | \[?\d{4}-\d\d-\d\d[ T][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?\]?\s*
      | [IWEF]\d{4}\s[\d:.]+\s+\d+\s+\S+:\d+\]\s?
      | \[[IWEF]\d{4}\s[\d:.]+\s\S+\]\s?
      | \[?(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)\]?:?\s+
      | [\w.-]+:\d+:\d+\s\[\d+\]\s
      | \[Rank\s\d{1,6}\]\s
      | """
    + MPI_TAG
    + r"""
    )""",
    re.VERBOSE,
)
# Parts that differ from one occurrence to the next, most specific first: (regex of the part, what replaces it).
_VOLATILE = [
    (r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", r"[0-9a-fA-F-]{36}"),
    (r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?", r"[\d:.,TZ+ -]+"),  # a date and time
    (r"0x[0-9a-fA-F]+", r"0x[0-9a-fA-F]+"),
    (r"(?<![\w/])/[\w.@%+~=-]+(?:/[\w.@%+~=-]*)*", r"/\S*"),  # a path: run ids and hosts live in them
    (r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b", r"[0-9a-f]+"),  # a hex id
    (r"-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+", r"-?[\d.]+(?:[eE][-+]?\d+)?"),  # a float
    (r"-\d+", r"-?\d+"),
    (r"\d+", r"\d+"),
]
_VOLATILE_RE = re.compile("|".join(f"({part})" for part, _ in _VOLATILE))
# a number right after a word and `=` or `: ` is worth a name: `rank=3`, `exit code: 137`
_KEYED = re.compile(r"([A-Za-z][A-Za-z_ ]{0,30}?)\s*(?:=|:\s?)\s*$")
_TRIM = re.compile(r"^[^A-Za-z0-9(]+|[^A-Za-z0-9)]+$")  # a literal starts and ends on a word (or a bracket)
_META = re.compile(r"[.^$*+?{}\[\]\\|()]")
_RESERVED = {"count", "status", "host", "rank"}  # the report's own values (see _lint.BUILTIN_VALUES)


class DraftError(ValueError):
    """The line cannot give a signature (no stable text to prefilter on); the message says why."""


@dataclass(frozen=True)
class Draft:
    id: str
    literal: str
    regex: str
    values: dict[str, str]  # what the regex extracts from the line
    toml: str  # the file to save as <id>.toml in a directory of [signatures] extra_dirs
    checks: list[str]  # what the library's own checks said of it: empty when it passes them all

    @property
    def filename(self) -> str:
        return f"{self.id}.toml"


def message_of(line: str) -> str:
    """The line without its prefixes (labels, ranks, timestamps, level, NCCL's host:pid:tid) and escape codes."""
    text = strip_ansi(line).split("\r")[-1].rstrip()
    while True:
        cut = _PREFIX.match(text)
        if not cut or not cut.group(0):
            return text.strip()
        text = text[cut.end() :]


def _parts(message: str) -> list[tuple[bool, str]]:
    """The message as (volatile?, text) parts, in order."""
    parts: list[tuple[bool, str]] = []
    at = 0
    for found in _VOLATILE_RE.finditer(message):
        if found.start() > at:
            parts.append((False, message[at : found.start()]))
        parts.append((True, found.group(0)))
        at = found.end()
    if at < len(message):
        parts.append((False, message[at:]))
    return parts


def _generalise(text: str) -> str:
    for part, general in _VOLATILE:
        if re.fullmatch(part, text):
            return general
    return _escape(text)


def _escape(text: str) -> str:
    """re.escape for RE2 that leaves spaces, letters and harmless punctuation as they are (readable drafts)."""
    return _META.sub(r"\\\g<0>", text)


def _name(key: str, taken: set[str]) -> str | None:
    name = re.sub(r"[^a-z0-9]+", "_", key.strip().lower()).strip("_")
    if not name or not name[0].isalpha() or name in _RESERVED:
        return None
    name = name[:30]
    base, n = name, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def _regex_and_values(parts: list[tuple[bool, str]]) -> tuple[str, dict[str, str]]:
    out: list[str] = []
    values: dict[str, str] = {}
    taken: set[str] = set()
    for i, (volatile, text) in enumerate(parts):
        if not volatile:
            out.append(_escape(text))
            continue
        general = _generalise(text)
        keyed = _KEYED.search(parts[i - 1][1]) if i and not parts[i - 1][0] and text[:1] in "-0123456789" else None
        name = _name(keyed.group(1).split()[-1], taken) if keyed else None
        if name:
            out.append(f"(?P<{name}>{general})")
            values[name] = text
        else:
            out.append(general)
    return "".join(out), values


def _literal(parts: list[tuple[bool, str]]) -> str:
    """The longest stable run of the message, trimmed: the text every occurrence holds verbatim."""
    runs = (_TRIM.sub("", text) for volatile, text in parts if not volatile)
    best = max(runs, key=len, default="")
    if len(best) < MIN_LITERAL:
        raise DraftError(
            f"the line has no stable text of {MIN_LITERAL}+ characters between its numbers, ids and paths "
            f"(longest: {best!r}); pick a line with words in it"
        )
    return best


def _slug(literal: str) -> str:
    words = re.findall(r"[a-z0-9]+", literal.lower())
    return "_".join(words[:6])[:48].strip("_") or "line"


def _near_misses(regex: str, literal: str, healthy: Iterable[str], limit: int = NEAR_MISSES) -> list[str]:
    """The healthy lines sharing the most words with the literal that the regex does not match."""
    compiled = compile_regex(regex)
    words = set(re.findall(r"[A-Za-z]{3,}", literal.lower()))
    scored: list[tuple[int, bool, int, str]] = []
    for line in healthy:
        if not line.strip() or line.startswith("#") or compiled.search(line):
            continue
        overlap = len(words & set(re.findall(r"[A-Za-z]{3,}", line.lower())))
        alarming = bool(_ALARMING.search(line))  # a healthy line with an alarming word is the harder near miss
        scored.append((-overlap, not alarming, len(scored), line))
    return [line for *_, line in sorted(scored)[:limit]]


def _toml_str(text: str) -> str:
    """A TOML literal string when it can be one (no quote to escape), else a basic string."""
    if "'" not in text and "\n" not in text:
        return f"'{text}'"
    if "'''" not in text and not text.endswith("'") and "\n" not in text:
        return f"'''{text}'''"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _toml_multiline(text: str) -> str:
    if "'''" not in text:
        return f"'''\n{text}\n'''"
    return '"""\n' + text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') + '\n"""'


def _class_for(cls: str | None, taxonomy: dict[str, TaxonomyClass]) -> str:
    if cls is None:
        return "python_exception_other"
    if cls not in taxonomy or cls == "healthy":
        known = ", ".join(k for k in taxonomy if k != "healthy")
        raise DraftError(f"unknown class {cls!r}; one of: {known}")
    return cls


def draft_signature(
    line: str,
    cls: str | None = None,
    *,
    source: str = "a pasted log",
    healthy: Iterable[str] | None = None,
    library: Library | None = None,
    prefix: str = "site",
) -> Draft:
    """Draft a signature from `line` (an error line, prefixes and all), of class `cls` (default:
    python_exception_other, for the person to change), checked by the library's own checks."""
    library = library or default_library()
    cls = _class_for(cls, library.taxonomy)
    message = message_of(line)
    if not message:
        raise DraftError("the line is empty once its prefixes are removed")
    parts = _parts(message)
    literal = _literal(parts)
    regex, values = _regex_and_values(parts)
    healthy_lines = list(healthy) if healthy is not None else HEALTHY_LINES.read_text(encoding="utf-8").splitlines()
    misses = _near_misses(regex, literal, healthy_lines)
    if not misses:
        raise DraftError("no healthy line is left for a near-miss case: the drafted regex matches them all")
    sig_id = f"{prefix}.draft.{_slug(literal)}"
    rank = parse_prefix(strip_ansi(line)).rank
    title = f"Draft: {literal[:TITLE_CHARS]}"
    search = f"https://github.com/search?type=issues&q={quote_plus(literal[:120])}"
    case_lines = [
        "[[cases]]",
        'kind = "match"',
        f"note = {_toml_str(f'the line this draft was made from ({source})')}",
        f"log = {_toml_multiline(line.rstrip())}",
    ]
    if values:
        case_lines.append("values = { " + ", ".join(f"{k} = {_toml_str(v)}" for k, v in values.items()) + " }")
    if rank is not None:
        case_lines.append(f"rank = {rank}")
    for miss in misses:
        case_lines += [
            "",
            "[[cases]]",
            'kind = "near_miss"',
            'note = "a line of a healthy run that shares words with it"',
            f"log = {_toml_multiline(miss)}",
        ]
    toml = "\n".join(
        [
            f"# Drafted by denpex from one line of {source}. Before adding it to the library: write the prose",
            "# (what happened, why, what to do), check the class, add a reference to upstream docs or an issue,",
            "# and more match cases from other occurrences.",
            f'id = "{sig_id}"',
            f"title = {_toml_str(title)}",
            f'class = "{cls}"',
            'severity = "high"',
            'role = "root"',
            'status = "experimental"',
            "priority = 40",
            'tags = ["drafted"]',
            "",
            f"summary = {_toml_str(f'Drafted from one line, not yet described: {literal[:160]}')}",
            "mechanism = 'Not written yet: what produces this message, and under which conditions.'",
            "root_causes = ['Not written yet: the causes seen behind this message']",
            "fix = 'Not written yet: what to change before restarting.'",
            "checklist = [",
            f"  {_toml_str(f'The log holds: {literal[:120]}')},",
            "  'It is the first error of the rank that failed (not a consequence of an earlier one)',",
            "  'The same message recurs in other failed runs of this job',",
            "]",
            "prevention = 'Not written yet.'",
            f"verify = {_toml_str(f'grep -n -F {_shell_quote(literal)} <log>')}",
            f'references = ["{search}"]',
            "",
            "[[patterns]]",
            f"literal = {_toml_str(literal)}",
            f"regex = {_toml_str(regex)}",
            "",
            *case_lines,
            "",
        ]
    )
    checks = check_draft(toml, library, sig_id)
    return Draft(sig_id, literal, regex, values, toml, checks)


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def check_draft(toml: str, library: Library, sig_id: str) -> list[str]:
    """What the library's own checks say of a drafted file: the schema, lint, and its cases run by a matcher
    over the library with the draft added (as `[signatures] extra_dirs` would add it). Empty: all pass."""
    try:
        sig = Signature.model_validate(tomllib.loads(toml))
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        return [f"invalid: {exc}"]
    problems = lint_signature(sig, f"{sig_id}.toml")
    if sig.id in library.by_id():
        problems.append(f"{sig.id}: the library already has a signature with this id")
        return problems
    merged = Library([*library.signatures, sig], library.taxonomy, dict(library.paths))
    matcher = Matcher(merged)
    results: list[CaseResult] = [run_case(matcher, sig, i, case) for i, case in enumerate(sig.cases)]
    problems += [f"case {r.index} ({r.case.kind}): {r.problem}" for r in results if not r.ok]
    return problems
