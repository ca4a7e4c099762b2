"""The signature file format, as code.

A signature file is TOML; this module is the single definition of what such a
file may contain. Anything else is rejected with the file path and the reason.
"""

from __future__ import annotations

import re
from typing import Literal

import re2
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

ID_RE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
URL_RE = re.compile(r"^https?://[^\s/]+\.[^\s/]+(/\S*)?$")
MIN_LITERAL = 4


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Pattern(_Strict):
    """A line pattern: the literal is the prefilter, the regex confirms and extracts.

    `literal` (or one of `literals`) must appear verbatim in every line the regex
    can match: the scan only looks at lines that contain one. Named groups in `regex` are the
    extractors: their values go into the diagnosis. A group named `rank` or
    `host` overrides the rank/host read from the line prefix.
    """

    literal: str | None = None
    literals: list[str] = Field(default_factory=list)
    regex: str
    caseless: bool = False
    lines_before: int = Field(0, ge=0, le=8)

    @model_validator(mode="after")
    def _valid(self) -> Pattern:
        if (self.literal is None) == (not self.literals):
            raise ValueError("give exactly one of `literal` or `literals` (any of which prefilters the regex)")
        for lit in self.all_literals:
            if len(lit) < MIN_LITERAL:
                raise ValueError(
                    f"literal {lit!r} is shorter than {MIN_LITERAL} characters: it would make every line a candidate"
                )
            if "\n" in lit:
                raise ValueError("a literal must not contain a newline")
        compile_regex(self.regex, self.caseless)
        return self

    @property
    def all_literals(self) -> list[str]:
        return [self.literal] if self.literal is not None else list(self.literals)


class Refines(_Strict):
    """This signature names more precisely an event of another one whose traceback matches `context`.

    The frames above an exception tell what a line alone cannot (the exception was raised while
    loading a batch): an event of `signature` whose traceback lines and line, joined by newlines,
    match `context` (an RE2 regex) becomes an event of this signature. Only events the scan kept are
    looked at, so this costs nothing per line.
    """

    signature: str | list[str]  # one signature, or several whose events the same frames name more precisely
    context: str

    @property
    def bases(self) -> list[str]:
        return [self.signature] if isinstance(self.signature, str) else list(self.signature)

    @model_validator(mode="after")
    def _valid(self) -> Refines:
        compile_regex(self.context, False)
        return self


class Exclude(_Strict):
    """A regex that, when it matches the candidate line, vetoes the event."""

    regex: str
    caseless: bool = False

    @model_validator(mode="after")
    def _regex_compiles(self) -> Exclude:
        compile_regex(self.regex, self.caseless)
        return self


class Absence(_Strict):
    """Fires when the last `start` line of a source is followed by no `complete`
    and no `progress` line: the log stops inside the operation."""

    start: list[Pattern] = Field(min_length=1)
    complete: list[Pattern] = Field(min_length=1)
    progress: list[Pattern] = Field(default_factory=list)


class Count(_Strict):
    """Fires when the signature's patterns matched `threshold` times in one
    source after forgiving the first `ignore_first` (warm-up)."""

    threshold: int = Field(ge=2)
    ignore_first: int = Field(0, ge=0)
    distinct: bool = False  # count a line only if its text differs from every line counted before
    # count each rank's lines on their own (a merged log where every rank prints the same metric line counts each
    # rank's once, not the step once per rank); the first rank to reach the threshold is the event's
    per_rank: bool = False
    # a match is not counted when one of the `skipped_lines` lines above it, of its rank or of none, matches this
    # regex: a non-finite loss on a step the loss scaler announced it skipped ("Gradient overflow. Skipping step") is
    # that overflow, handled, not a diverged run
    skipped_after: str | None = None
    skipped_lines: int = Field(3, ge=1, le=10)
    # ... for at most this many matches per rank: past them the overflow never stopped
    skipped_max: int = Field(10, ge=1)


class Trend(_Strict):
    """Fires when a number the patterns extract (named group `value`) falls during training and then
    climbs back and stays up: a loss that diverged. Values are kept per rank and per series (the
    optional named group `series`, e.g. "train" in `train_loss`); series named in `ignore_series`
    (evaluation losses) are not followed. The event is the first elevated observation."""

    rise: float = Field(3.0, gt=1)  # elevated: at least this many times the lowest value before it
    min_rise: float = Field(0.5, ge=0)  # ... and at least this much above it
    sustain: int = Field(3, ge=1)  # consecutive elevated observations
    min_points: int = Field(6, ge=3)  # observations needed in the series
    progress: float = Field(1.0, gt=0, le=1)  # the low point is at most this fraction of the first value
    still_up: float = Field(2.0, ge=1)  # the last observation is still this many times the low point
    # the climb's median is at least this many times the median of the LEVEL_WINDOW observations before it: a
    # level that changed, not a noisy per-batch loss dipping to one low value and bouncing back (1: off)
    level: float = Field(2.0, ge=1)
    series: list[str] = Field(default_factory=list)  # follow only these series names ("" = unnamed)
    ignore_series: list[str] = Field(default_factory=list)


class Case(_Strict):
    """A proof: a log excerpt that must (match) or must not (near_miss) fire."""

    kind: Literal["match", "near_miss"]
    log: str = ""
    # or several files handed together (path -> text), for a rule that reads a directory as one job: the
    # paths are what a user's would be (torchrun --log-dir's attempt_0/<local rank>/stderr.log), as they carry
    # evidence (a rank, a host, which worker shared a launcher)
    files: dict[str, str] = Field(default_factory=dict)
    note: str = ""
    values: dict[str, str] = Field(default_factory=dict)
    rank: int | None = None
    todo: str = ""  # a known gap: the case is expected to fail, with the reason

    @model_validator(mode="after")
    def _one_input(self) -> Case:
        if bool(self.log.strip()) == bool(self.files):
            raise ValueError("a case gives either `log` or `files` (several files read together), not both")
        if any(not text.strip() for text in self.files.values()):
            raise ValueError("a case's file is empty")
        return self


class Signature(_Strict):
    id: str
    title: str = Field(min_length=3, max_length=140)
    class_: str = Field(alias="class")
    severity: Literal["critical", "high", "medium", "low"]
    role: Literal["root", "collateral", "wrapper"]
    status: Literal["stable", "experimental", "deprecated"] = "stable"
    tags: list[str] = Field(default_factory=list)
    priority: int = Field(50, ge=0, le=100)
    scope: Literal["rank", "job"] = "rank"
    blame: Literal["self", "peer"] = "self"
    condition: Literal["any", "all"] = "any"
    context: Literal["line", "traceback"] = "line"
    # "can I just requeue?" for this signature when it differs from its class's (a rendezvous that failed because
    # the init_method is wrong will fail again: fix it first), with its one-line reason; both or neither
    # (not drain_and_restart: whether a failure blames the node is its class's, which host records count)
    action: Literal["restart", "fix_and_restart"] | None = None
    action_reason: str | None = Field(None, min_length=10)

    patterns: list[Pattern] = Field(default_factory=list)
    exclude: list[Exclude] = Field(default_factory=list)
    absence: Absence | None = None
    count: Count | None = None
    trend: Trend | None = None
    refines: Refines | None = None
    # made by an attribution rule from other signatures' events, not by a pattern (see _stall): its cases are
    # whole logs, and a match case is one whose diagnosis is this signature
    made_by: (
        Literal[
            "stalled_until_limit",
            "different_collectives",
            "node_lost",
            "killed_alone",
            "differ_at_seq",
            "stalled_live",
            "traceback_cut",
            "flight_recorder",
        ]
        | None
    ) = None

    summary: str = Field(min_length=20)
    mechanism: str = Field(min_length=20)
    root_causes: list[str] = Field(min_length=1)
    fix: str = Field(min_length=10)
    checklist: list[str] = Field(min_length=3, max_length=7)
    prevention: str = Field(min_length=10)
    verify: str = Field(min_length=3)
    related: list[str] = Field(default_factory=list)
    references: list[str] = Field(min_length=1)

    # how long to watch a rerun after a fix, and how often (durations like "30s", "10m", "24h");
    # the bot's [followups] config overrides them
    followup_interval: str | None = Field(None, pattern=r"^\d+(?:\.\d+)?[smhd]$")
    followup_window: str | None = Field(None, pattern=r"^\d+(?:\.\d+)?[smhd]$")

    cases: list[Case] = Field(min_length=2)

    @field_validator("id")
    @classmethod
    def _id_shape(cls, v: str) -> str:
        if not ID_RE.match(v):
            raise ValueError(f"id {v!r} must be dotted lower-case words, e.g. 'cuda.oom'")
        return v

    @field_validator("references")
    @classmethod
    def _references_are_urls(cls, v: list[str]) -> list[str]:
        for url in v:
            if not URL_RE.match(url):
                raise ValueError(f"reference {url!r} is not an http(s) URL")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> Signature:
        if not self.patterns and self.absence is None and self.refines is None and self.made_by is None:
            raise ValueError(
                "a signature needs `patterns`, an `absence` rule, `refines` (another's events) or `made_by` (a rule)"
            )
        if self.made_by is not None and (self.patterns or self.absence or self.refines):
            raise ValueError("a signature `made_by` an attribution rule has no patterns, absence or refines of its own")
        if self.absence is not None and self.patterns:
            raise ValueError("an absence signature is defined by its `absence` rule alone; remove `patterns`")
        if self.count is not None and not self.patterns:
            raise ValueError("a `count` rule counts `patterns`; give some")
        if self.trend is not None:
            if self.count is not None or self.condition != "any" or not self.patterns:
                raise ValueError("a `trend` rule follows the values its `patterns` extract; no `count` or 'all'")
            for p in self.patterns:
                if "(?P<value>" not in p.regex:
                    raise ValueError(f"trend pattern {p.regex!r} needs a named group `value`")
        if self.condition == "all" and len(self.patterns) < 2:
            raise ValueError("condition = 'all' needs at least two patterns")
        if (self.action is None) != (self.action_reason is None):
            raise ValueError("`action` and `action_reason` go together: say why this signature's answer differs")
        kinds = {c.kind for c in self.cases}
        if kinds != {"match", "near_miss"}:
            raise ValueError("cases need at least one 'match' and one 'near_miss'")
        return self

    @property
    def cls(self) -> str:
        return self.class_


def compile_regex(regex: str, caseless: bool = False):
    """Compile with RE2 (linear time, no backtracking); reject what RE2 cannot run."""
    options = re2.Options()
    options.case_sensitive = not caseless
    options.log_errors = False
    options.max_mem = 64 << 20
    try:
        return re2.compile(regex, options)
    except re2.error as exc:
        raise ValueError(f"regex {regex!r} is not valid RE2 syntax: {exc}") from None
