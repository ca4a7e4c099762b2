"""The report as typed, frozen models: the JSON contract of `denpex diagnose --json`, in code.

A report is built once (never per event) and never changed: what the bot adds (a job's facts, its
own notes) goes into a copy. JSON only at the edges, through `Report.to_json()`. Keys the report
omits when it has nothing to say (an evidence line's host, the unrecognised hint, a job) are left
out of the JSON when None, never written as null, so the JSON is what it always was.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer


class _Part(BaseModel):
    """A field with a default of None may be absent: it is left out of the JSON when None. A field without a
    default is always written, null included."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    @model_serializer(mode="wrap")
    def _leave_out_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        for name, field in type(self).model_fields.items():
            if field.default is None and getattr(self, name) is None:
                data.pop(name, None)
        return data


class LogLine(_Part):
    source: str
    line: int
    text: str


class RankLines(_Part):
    """A rank's first error-like lines, in a failure no signature explains."""

    rank: int | None
    lines: list[LogLine]


class UnrecognisedHint(_Part):
    rank: int | None
    first_error: LogLine
    family: str | None
    class_: str | None = Field(alias="class")
    confidence: str


class FirstSeen(_Part):
    source: str
    line: int
    time: str | None
    time_inferred: bool  # no timestamp of its own: the last one above it in the source
    text: str


class Evidence(_Part):
    source: str
    line: int
    rank: int | None
    text: str
    kind: str  # initiating, same_failure, related or launcher
    host: str | None = None
    time: str | None = None
    context: list[str] | None = None
    context_after: list[str] | None = None


class Collateral(_Part):
    """Knock-on failures of one signature, grouped under the diagnosis they followed."""

    signature: str
    class_: str = Field(alias="class")
    title: str
    ranks: list[int]
    count: int
    first_seen: LogLine
    seconds_after: float | None


class Reason(_Part):
    text: str
    source: str | None
    line: int | None


class Attribution(_Part):
    """Why this rank: the rule that named it, and how sure it is."""

    rank: int | None
    rule: str
    confidence: str
    reasons: list[Reason]


class Diagnosis(_Part):
    signature: str
    class_: str = Field(alias="class")
    title: str
    severity: str
    role: str
    initiating_rank: int | None
    host: str | None
    first_seen: FirstSeen
    evidence: list[Evidence]
    values: dict[str, str]
    ranks: list[int]
    count: int
    collateral: list[Collateral]
    summary: str
    mechanism: str
    root_causes: list[str]
    fix: str
    checklist: list[str]
    prevention: str
    verify: str
    references: list[str]
    related: list[str]
    attribution: Attribution
    action: str
    action_reason: str


class Stats(_Part):
    bytes: int
    lines: int
    ranks: list[int]
    hosts: list[str]
    sources: int
    skipped: list[str]
    completed: dict[str, int]  # absence signatures whose awaited completion was seen, and how often
    seconds: float
    last_step: int | None = None  # the highest training step the logs showed (from the sampled progress lines)
    notes: list[str] = []  # how sources were read, when not as they came (a paste's wrapped lines rejoined)


class Stuck(_Part):
    seq: int
    op: str | None
    waiting: list[int]
    not_joined: list[int]
    newest_of_not_joined: dict[int, int]


class Mismatch(_Part):
    seq: int
    odd: list[int]
    expected: str
    got: dict[int, str]


class FlightRecorder(_Part):
    dumps: list[str]
    ranks_present: list[int]
    ranks_missing: list[int]
    enable: str | None = None
    stuck: Stuck | None = None
    mismatch: Mismatch | None = None


class JobLog(_Part):
    name: str
    bytes: int
    original_bytes: int
    truncated: bool


class JobInfo(_Part):
    """A job diagnosed by reference: the scheduler's facts, as far as it gave them, and the logs fetched."""

    cluster: str
    kind: str
    reference: str
    job_id: str | None = None
    name: str | None = None
    state: str | None = None
    exit_code: str | None = None
    reason: str | None = None
    nodes: list[str] | None = None
    start: str | None = None
    end: str | None = None
    elapsed: str | None = None
    user: str | None = None
    workdir: str | None = None
    array_tasks: list[str] | None = None
    summary: str
    logs: list[JobLog]
    notes: list[str]


class NewLine(_Part):
    """A line of the failed run whose message (masked) the good run never printed."""

    source: str
    line: int
    rank: int | None
    text: str


class BaselineDiff(_Part):
    """The failed run against a good run of the same program (`denpex diagnose --baseline GOOD`)."""

    good: list[str]  # the good run's sources
    good_lines: int
    new: list[NewLine]  # the first new lines: a few per rank, in the order printed
    new_total: int  # distinct masked messages of the failed run that the good run never printed


class NotALog(_Part):
    """The input reads like no training log: none of the lines judged is one a training job, its launcher or its
    scheduler prints (a step or loss line, a rank or time prefix, a launcher or scheduler line, a traceback)."""

    lines: int  # lines read
    sampled: int  # lines judged: the first lines of each source, and every error-like line the scan kept


class SetAside(_Part):
    """A line a signature matched that did not stop the run, and why (an exception its rank trained past, a stop
    the job handled): what a healthy verdict went past."""

    signature: str
    source: str
    line: int
    rank: int | None
    why: str


class Report(_Part):
    """`diagnoses[0]` is the initiating root cause; no diagnosis and no unrecognised line is a healthy log."""

    diagnoses: list[Diagnosis]
    unrecognised: list[RankLines]
    stats: Stats
    unrecognised_hint: UnrecognisedHint | None = None
    flight_recorder: FlightRecorder | None = None
    job: JobInfo | None = None
    baseline: BaselineDiff | None = None
    notes: list[str] | None = None  # the bot's, about the request: kept with the incident, not in `diagnose --json`
    not_a_log: NotALog | None = None  # set when the input does not look like a training log (never with a diagnosis)
    set_aside: list[SetAside] | None = None  # a healthy log's matched lines that did not stop the run, and why

    @property
    def top(self) -> Diagnosis | None:
        return self.diagnoses[0] if self.diagnoses else None

    @property
    def outcome(self) -> str:
        """diagnosed, unrecognised (errors no signature explains), healthy, or not_a_log (the input reads like no
        training log: /etc/passwd, a README)."""
        if self.diagnoses:
            return "diagnosed"
        if self.not_a_log is not None:
            return "not_a_log"
        return "unrecognised" if self.unrecognised else "healthy"

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)
