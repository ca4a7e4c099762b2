"""Block Kit messages, as pure functions of a report and the incident's state. No I/O.

An answer is two messages: the first screen (`diagnosis_message`: what failed and where, the cause, the fix,
the first error line, the knock-on, the buttons, and the incident's state as a timeline), kept within
FIRST_SCREEN_BLOCKS and FIRST_SCREEN_CHARS, and its first reply in the thread (`details_message`: the
evidence, why that rank, the whole fix, the checklist, the verify command, references). Every message stays
inside Block Kit's limits by construction (see blockkit.py), every text from a log or a signature is escaped
for mrkdwn, and every string is passed through the secret masker before it leaves here.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from bot.blockkit import (
    BUTTON_VALUE,
    CHECKBOX_OPTIONS,
    FIRST_SCREEN_CHARS,
    HEADER_TEXT,
    MAX_TEXT,
    OPTION_DESCRIPTION,
    OPTION_TEXT,
    SECTION_TEXT,
    clip,
    clip_words,
    code,
    date,
    epoch_of,
    escape,
    link,
    visible,
)
from bot.redact import redact, redact_blocks
from bot.slack_files import human_size
from signatures import (
    SCHEDULER_ONLY,
    Diagnosis,
    Report,
    collateral_line,
    considered_line,
    rank_ranges,
    render_text,
    scheduler_only,
)

SEVERITY_EMOJI = {
    "critical": ":red_circle:",
    "high": ":large_orange_circle:",
    "medium": ":large_yellow_circle:",
    "low": ":white_circle:",
}
CODE_LIMIT = SECTION_TEXT - 10  # room for the ``` fences
EVIDENCE_FRAMES = 3  # traceback frames shown above the cause line
EVIDENCE_LINE = 220  # characters of one evidence line in the thread
FIRST_LINE = 150  # characters of the first error line on the first screen
TIMELINE_STEPS = 5  # steps of the state line shown: Open, then the latest

ACK, FIX, NOT_THIS, MORE, CHECKLIST = (
    "denpex_ack",
    "denpex_fix_applied",
    "denpex_not_this",
    "denpex_more_evidence",
    "denpex_checklist",
)
USEFUL, MUTE, UNMUTE, DRAFT = "denpex_useful", "denpex_mute", "denpex_unmute", "denpex_draft"
CHECKLIST_BLOCK = "denpex_checklist_"  # + the incident id: a checklist in the thread finds its incident by it


@dataclass(frozen=True)
class Step:
    """One step of an incident's state line: who did what, when (epoch seconds, None when unknown)."""

    at: float | None
    kind: str  # acknowledged, disputed, fix, watching, gone, back, inconclusive
    user: str | None = None
    detail: str = ""


@dataclass
class MessageState:
    incident_id: int
    source: str
    acknowledged: list[tuple[str, str]] = field(default_factory=list)  # (user id, when)
    fix_applied: list[tuple[str, str]] = field(default_factory=list)
    not_this: list[tuple[str, str]] = field(default_factory=list)
    checked: set[int] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    followups: list[str] = field(default_factory=list)  # one line per follow-up (kept for callers; see steps)
    useful: list[str] = field(default_factory=list)  # user ids
    what_it_was: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # Not this: user, class, note
    muted: tuple[str, str] | None = None  # (user id, when)
    opened_at: float | None = None
    steps: list[Step] = field(default_factory=list)  # the state line, in time order (see timeline_steps)
    ticked_by: dict[int, str] = field(default_factory=dict)  # checklist item -> who ticked it


# -- text hygiene ----------------------------------------------------------------------------------------

_BYTES = re.compile(r"\b(\d{7,}) ?bytes\b")
_UNKNOWN = re.compile(r"\bunknown\b")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'`])")
_RANK_PREFIX = re.compile(r"^(?:\[(?:rank|default|r|slot)?\d+\]:?\s*|\d+: )+")
_CARETS = re.compile(r"^\s*[\^~]+\s*$")
_FRAME = re.compile(r'^\s*File "')


def _humane(text: str) -> str:
    """Our sentences with large byte counts in units and without the 'unknown' an empty template field leaves
    (the clause that held it goes; a sentence that was nothing else goes too)."""
    text = _BYTES.sub(lambda m: human_size(int(m.group(1))), text)
    if not _UNKNOWN.search(text):
        return text
    text = re.sub(r"\s*\([^()]*\bunknown\b[^()]*\)", "", text)
    kept = []
    for sentence in _SENTENCE.split(text):
        if not _UNKNOWN.search(sentence):
            kept.append(sentence)
            continue
        clauses = [c for c in re.split(r"(?<=[:;,])\s+", sentence) if not _UNKNOWN.search(c)]
        if clauses and len(" ".join(clauses)) > 20:
            kept.append(" ".join(clauses).rstrip(":;,. ") + ".")
    return " ".join(kept)


def _first_sentence(text: str) -> str:
    return _SENTENCE.split(text.strip(), 1)[0] if text.strip() else ""


def _ranks(ranks: list[int]) -> str:
    """'rank 3' / 'ranks 0, 3–4' (exact, en dashes for runs)."""
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    return "ranks " + rank_ranges(ranks).replace("-", "–")


def _bare(line: str) -> str:
    """A log line without the launcher's rank prefix (the rank is said in words next to it)."""
    return _RANK_PREFIX.sub("", line.strip())


def _pre(lines: list[str], limit: int = CODE_LIMIT) -> str:
    body = escape("\n".join(line.replace("```", "'''") for line in lines))
    return "```" + clip(body, limit) + "```"


def _mrkdwn(text: str, limit: int = SECTION_TEXT) -> dict:
    return {"type": "mrkdwn", "text": clip(text, limit)}


def _section(text: str) -> dict:
    return {"type": "section", "text": _mrkdwn(text)}


def _header(text: str) -> dict:
    return {"type": "header", "text": {"type": "plain_text", "text": clip_words(text, HEADER_TEXT), "emoji": True}}


def _context(texts: list[str]) -> dict:
    return {"type": "context", "elements": [_mrkdwn(t) for t in texts[:10] if t]}


def _button(text: str, action_id: str, value: str, style: str | None = None) -> dict:
    button = {
        "type": "button",
        "text": {"type": "plain_text", "text": text, "emoji": True},
        "action_id": action_id,
        "value": clip(value, BUTTON_VALUE),
    }
    if style:
        button["style"] = style
    return button


# commands that may stand alone in prose ("check with nvidia-smi"), and words that are commands only with an
# argument after them ("df -h", not "the quota")
_COMMANDS = (
    "nvidia-smi|dmesg|scontrol|sacct|squeue|sinfo|scancel|srun|sbatch|kubectl|ulimit|namei|lfs|mmlsquota|ibstat|"
    "ibv_devinfo|findmnt|lsof|netstat|nslookup|journalctl|systemctl|nvcc|ldd|strace|gdb|py-spy|getent|"
    "huggingface-cli|nccl-tests|fuser|sysctl|torchrun"
)
_COMMANDS_WITH_ARGS = "df|du|free|ls|chmod|chown|pip|python3?|ip|mount|ss|dig|curl|git|grep|ps|kill|export|rm|mkdir|touch|tail|head|stat|quota"
_ARG = r"(?:\s+(?:-{1,2}[\w-]+(?:=\S+?)?|<[^>\s]+>|\$\w+|/\S+?|\S+=\S+?)(?=[\s,;)]|\.\s|\.$|$))"
_COMMAND = re.compile(
    rf"(?<![\w`-])(?:(?:{_COMMANDS})(?:\s+[a-z][\w-]*(?={_ARG}))?{_ARG}*|(?:{_COMMANDS_WITH_ARGS})(?:\s+[a-z][\w-]*(?={_ARG}))?{_ARG}+"
    r"|[A-Z][A-Z0-9_]{2,}=[^\s,;)]+?(?=[\s,;)]|\.\s|\.$|$)|(?:[\w.]+)?\.?[a-z_][\w.]*\(\)(?:\.[\w.]+\(\))*)(?![\w`])"
)


def _with_code(text: str) -> str:
    """Our prose, escaped, with the commands, settings and calls it names in code (copy-paste must work)."""
    if "`" in text:  # the signature's author marked them already
        return escape(text)
    out, pos = [], 0
    for m in _COMMAND.finditer(text):
        out += [escape(text[pos : m.start()]), code(m.group(0))]
        pos = m.end()
    return "".join(out) + escape(text[pos:])


def fix_bullets(fix: str) -> list[str]:
    """A signature's fix as 2–4 bullets (its sentences; the tail of a longer one joins the last)."""
    sentences = [s.strip() for s in _SENTENCE.split(_humane(fix).strip()) if s.strip()]
    if len(sentences) == 1 and "; " in sentences[0]:
        sentences = [s.strip() for s in sentences[0].split("; ")]
    if len(sentences) > 4:
        sentences = sentences[:3] + [" ".join(sentences[3:])]
    return sentences


# -- the state line ----------------------------------------------------------------------------------------

STEP_WORDS = {
    "acknowledged": ":eyes: Acked by {user}",
    "disputed": ":no_entry_sign: Disputed by {user}",
    "fix": ":wrench: Fix applied by {user}{detail}",
    "watching": ":mag: Watching rerun {detail}",
    "gone": ":white_check_mark: Gone",
    "back": ":x: Back",
    "inconclusive": ":hourglass: Inconclusive",
}


def timeline_steps(actions: list[dict], followups: list[dict]) -> list[Step]:
    """The incident's state line from what was recorded: button presses (the store's actions) and follow-ups,
    in time order, each (step, person, detail) once: the same person pressing twice records once."""
    steps: list[Step] = []
    notes = {a["user_id"]: a["value"] for a in actions if a["action"] == "fix_note" and a["value"]}
    for a in actions:
        kind = {"acknowledge": "acknowledged", "not_this": "disputed", "fix_applied": "fix"}.get(a["action"])
        if kind == "fix" and a["value"]:
            continue  # a fix with a rerun is shown as its watch
        if kind:
            note = notes.get(a["user_id"], "") if kind == "fix" else ""
            steps.append(Step(epoch_of(a["at"]), kind, a["user_id"], note))
    for fu in followups:
        steps.append(Step(epoch_of(fu["created_at"]), "watching", fu["requested_by"], fu["job"]))
        if fu["status"] == "done" and fu["verdict"] in ("gone", "back", "inconclusive"):
            steps.append(Step(epoch_of(fu["updated_at"]), fu["verdict"], None, fu["job"]))
    seen, unique = set(), []
    for step in sorted(steps, key=lambda s: s.at or 0.0):
        key = (step.kind, step.user, step.detail)
        if key not in seen:
            seen.add(key)
            unique.append(step)
    return unique


def _step_text(step: Step, said: dict[str, str]) -> str:
    """One step in words; a Not this says what its presser said it was (`said`: user -> words)."""
    user = f"<@{step.user}>" if step.user else "someone"
    if step.kind == "watching":
        detail = code(step.detail)
    elif step.kind == "fix" and step.detail:
        detail = f" ({escape(clip_words(step.detail, 40))})"
    else:
        detail = ""
    text = STEP_WORDS[step.kind].format(user=user, detail=detail)
    if step.kind == "disputed" and step.user in said:
        text += f" ({said[step.user]})"
    return text + (f" {date(step.at, '{time}')}" if step.at else "")


def _what_it_was(state: MessageState) -> dict[str, str]:
    """What each person who said Not this said it was: `class`: note."""
    said = {}
    for user, cls, note in state.what_it_was:
        words = "it was " + (code(cls) if cls else "something else")
        said[user] = words + (f": {escape(clip_words(note, 60))}" if note else "")
    return said


def _steps_of(state: MessageState) -> list[Step]:
    """The state's steps; a state built by hand (tests, older callers) has its presses as lists instead."""
    if state.steps:
        return state.steps
    legacy = [("acknowledged", state.acknowledged), ("disputed", state.not_this), ("fix", state.fix_applied)]
    steps = [Step(epoch_of(when), kind, user) for kind, rows in legacy for user, when in rows]
    unique: dict[tuple, Step] = {}
    for step in steps:
        unique.setdefault((step.kind, step.user), step)
    return sorted(unique.values(), key=lambda s: s.at or 0.0)


def _phase(steps: list[Step]) -> str:
    """Where the incident stands: open, disputed, back or resolved (the last that happened)."""
    phase = "open"
    for step in steps:
        if step.kind == "disputed" and phase == "open":
            phase = "disputed"
        elif step.kind == "back":
            phase = "back"
        elif step.kind == "gone":
            phase = "resolved"
    return phase


PHASE_HEADERS = {
    "open": "",
    "disputed": "Disputed: ",
    "back": ":x: Back: ",
    "resolved": ":white_check_mark: Resolved: ",
}


def _state_line(state: MessageState) -> str:
    steps = _steps_of(state)
    shown = [f"Open {date(state.opened_at, '{time}')}" if state.opened_at else "Open"]
    said = _what_it_was(state)
    texts = [_step_text(s, said) for s in steps]
    if len(texts) > TIMELINE_STEPS - 1:
        texts = ["…"] + texts[-(TIMELINE_STEPS - 2) :]
    line = " → ".join(shown + texts)
    extras = []
    if state.useful:
        names = ", ".join(f"<@{u}>" for u in state.useful[:3])
        extras.append(f":+1: Useful to {names}" + (f" +{len(state.useful) - 3}" if len(state.useful) > 3 else ""))
    if state.muted:
        extras.append(f":mute: muted by <@{state.muted[0]}>")
    return line + ("  ·  " + "  ·  ".join(extras) if extras else "")


# -- the first screen -----------------------------------------------------------------------------------------


def _short_title(title: str) -> str:
    """A title for a header: whole when short ('Checkpoint write failed: no space left on device'), else the
    part before its explanation ('CUDA out of memory: the PyTorch caching allocator…' -> 'CUDA out of memory')."""
    title = re.sub(r"\s*\([^)]*\)", "", title).strip()
    head = title.split(": ", 1)[0].strip()
    if len(title) <= 60 or len(head) < 8:
        return clip_words(title, 80)
    return head


def _name(title: str) -> str:
    """The name of a failure without its explanation: 'NCCL watchdog: a collective ran past…' -> 'NCCL watchdog'."""
    head = re.sub(r"\s*\([^)]*\)", "", title).split(": ", 1)[0].strip()
    return head if len(head) >= 8 else title


def _where(d: Diagnosis) -> str:
    if d.initiating_rank is not None:
        who = f"rank {d.initiating_rank}"
    elif len(d.ranks) > 1:
        who = "every rank"
    else:
        who = "the whole job"
    return who + (f" · {d.host}" if d.host else "")


def _why(d: Diagnosis, limit: int) -> str:
    """Why this rank, in a line: the attribution's first reason (a bare 'first seen', or a job-wide failure
    that only repeats the title, is said in words)."""
    a = d.attribution
    reason = a.reasons[0].text if a.reasons else ""
    if a.rule == "job_wide":
        reason = "it stops the whole job, not one rank"
    elif reason.startswith("first seen:") or not reason:
        reason = (
            f"rank {d.initiating_rank}'s own error came first" if d.initiating_rank is not None else "the job's error"
        )
        if d.collateral:
            reason += "; the other ranks only failed after it"
    return f"{escape(clip_words(_humane(reason), limit))} ({a.confidence} confidence)"


def _after(seconds: float | None) -> str:
    if seconds is None:
        return ""
    return (
        " right after"
        if seconds < 1
        else f" {seconds:.0f} s later"
        if seconds < 120
        else f" {seconds / 60:.0f} min later"
    )


def _knock_on(report: Report, d: Diagnosis) -> str:
    """The knock-on failures in one line (those of the same ranks together), and the ranks that printed
    nothing at all."""
    groups: dict[tuple[int, ...], list] = {}
    for c in d.collateral:
        groups.setdefault(tuple(c.ranks), []).append(c)
    parts = []
    for ranks, found in list(groups.items())[:2]:
        titles = " then ".join(escape(clip_words(_name(c.title), 40)) for c in found[:2])
        parts.append(f"{_ranks(list(ranks)) if ranks else 'the job'}: {titles},{_after(found[0].seconds_after)}")
    if len(groups) > 2:
        parts.append(f"{len(groups) - 2} more")
    seen = report.stats.ranks
    missing = sorted(set(range(max(seen) + 1)) - set(seen)) if seen else []
    if missing and d.collateral:
        parts.append(f"no output from {_ranks(missing)}")
    return ":arrow_heading_down: *Knock-on (not the cause):* " + "; ".join(parts) if parts else ""


def _stats(report: Report, source: str) -> str:
    s = report.stats
    ranks = _ranks(s.ranks) if s.ranks else "no ranks seen"
    job = report.job
    if job and job.name and job.name not in source:  # which job, by the name its owner gave it
        source = f"{source} ({job.name})"
    return (
        f"{code(clip(source, 72))} · {human_size(s.bytes)} · {s.lines:,} lines · {ranks} · scanned in {s.seconds:.1f} s"
    )


def _buttons(state: MessageState, diagnosed: bool = True, draftable: bool = True) -> dict:
    """Acknowledge (until someone has: then the state line says who), Fix applied… and Useful and Not this (a
    diagnosis only: an unrecognised answer claims nothing to dispute), More evidence, Mute or Unmute, and Draft
    a signature (an unrecognised failure with log lines to draft from, or a diagnosis someone said is not the
    cause)."""
    value = str(state.incident_id)
    steps = _steps_of(state)
    elements = [] if any(s.kind == "acknowledged" for s in steps) else [_button("Acknowledge", ACK, value, "primary")]
    if diagnosed:
        elements += [_button("Fix applied…", FIX, value), _button("Useful", USEFUL, value)]
        elements.append(_button("Not this", NOT_THIS, value, "danger"))
    elements.append(_button("More evidence", MORE, value))
    elements.append(_button("Unmute", UNMUTE, value) if state.muted else _button("Mute", MUTE, value))
    if (not diagnosed and draftable) or state.not_this or any(s.kind == "disputed" for s in steps):
        elements.append(_button("Draft a signature", DRAFT, value))
    return {"type": "actions", "block_id": "denpex_buttons", "elements": elements}


def diagnosis_message(report: Report, state: MessageState) -> tuple[str, list[dict]]:
    """The answer's first screen: a diagnosis, an unrecognised failure, not a training log, or healthy."""
    top = report.top
    if top is not None:  # report.outcome == "diagnosed"
        text, blocks = _diagnosis(report, top, state)
    elif report.outcome == "unrecognised":
        text, blocks = _unrecognised(report, state)
    elif report.outcome == "not_a_log":
        text, blocks = not_a_log_message(report, state.source, state.notes)
    else:
        text, blocks = healthy_message(report, state.source, state.notes)
    return clip(redact(text), MAX_TEXT), redact_blocks(blocks)


SET_ASIDE_SHOWN = 4
SET_ASIDE_LINE = 300


def healthy_message(report: Report, source: str, notes: list[str]) -> tuple[str, list[dict]]:
    """No failure: said plainly, with what fired and why it did not stop the run (an error trained past, a stop the
    job handled), so a reader who saw the error in the log knows it was read."""
    text = f"No failure found in {source}."
    if report.set_aside:
        went_past = [
            "• "
            + code(a.signature)
            + f" ({'rank ' + str(a.rank) + ', ' if a.rank is not None else ''}"
            + escape(clip_words(redact(f"{a.source.rsplit('/', 1)[-1]}:{a.line}): {a.why}"), SET_ASIDE_LINE))
            for a in report.set_aside[:SET_ASIDE_SHOWN]
        ]
        if len(report.set_aside) > SET_ASIDE_SHOWN:
            went_past.append(f"… and {len(report.set_aside) - SET_ASIDE_SHOWN} more (`denpex diagnose` lists them)")
        head = ":white_check_mark: *No failure found.* What fired did not stop the run:\n" + "\n".join(went_past)
    else:
        head = ":white_check_mark: *No failure found.* No signature fired and no line looks like an error."
    blocks = [_section(head + "\n" + _stats(report, source))]
    context = _job_line(report) + notes
    if context:
        blocks.append(_context(context))
    return text, blocks


NOT_A_LOG = (
    ":page_facing_up: *This does not look like a training log:* none of its lines is one a training job, its "
    "launcher or its scheduler prints, so there is nothing to diagnose."
)
SEND_INSTEAD = (
    "Send me the job's own output instead: its stdout/stderr (paste it, or drop the file in the channel), "
    "or its job id: `/denpex diagnose <job id>`."
)


def not_a_log_message(report: Report, source: str, notes: list[str]) -> tuple[str, list[dict]]:
    """An input that reads like no training log (/etc/passwd, a README, chat): said plainly, with what to send
    instead; no failure claimed, so no buttons."""
    text = f"{source} does not look like a training log: nothing to diagnose."
    blocks = [_section(f"{NOT_A_LOG}\n{SEND_INSTEAD}"), _context([_stats(report, source), *_job_line(report), *notes])]
    return text, blocks


def _job_line(report: Report) -> list[str]:
    job = report.job
    if not job:
        return []
    return [f":file_cabinet: *{escape(job.cluster)}*: {escape(job.summary)}"] + [
        f"note: {escape(n)}" for n in job.notes[:3]
    ]


def _diagnosis(report: Report, d: Diagnosis, state: MessageState) -> tuple[str, list[dict]]:
    """The first screen of a diagnosis, tightened until it fits FIRST_SCREEN_CHARS."""
    for scale in (1.0, 0.75, 0.5, 0.3):
        text, blocks = _diagnosis_at(report, d, state, scale)
        if len(visible(blocks)) <= FIRST_SCREEN_CHARS:
            break
    return text, blocks


def _diagnosis_at(report: Report, d: Diagnosis, state: MessageState, scale: float) -> tuple[str, list[dict]]:
    fs = d.first_seen
    title = _short_title(d.title)
    phase = _phase(_steps_of(state))
    header = f"{SEVERITY_EMOJI.get(d.severity, '')} {PHASE_HEADERS[phase]}{title} on {_where(d)}"
    bullets = fix_bullets(d.fix)
    more = f" _(+{len(bullets) - 1} more in the thread)_" if len(bullets) > 1 else ""
    cause = (
        f"*Cause:* {escape(clip_words(_humane(_first_sentence(d.summary)), int(180 * scale)))}\n"
        f"*Why{' rank ' + str(d.initiating_rank) if d.initiating_rank is not None else ''}:* "
        f"{_why(d, int(130 * scale))}\n"
        f"*Fix:* {_with_code(clip_words(bullets[0], int(150 * scale))) if bullets else ''}{more}"
    )
    when = f" · {date(epoch, '{date_short_pretty} {time_secs}')}" if (epoch := epoch_of(fs.time)) else ""
    where = code(f"{fs.source.rsplit('/', 1)[-1]}:{fs.line}")
    blocks: list[dict] = [
        _header(header),
        _context([_state_line(state)]),
        _section(cause),
        _section(f"*First error* {where}{when}\n{_pre([clip_words(_bare(fs.text), int(FIRST_LINE * scale))])}"),
    ]
    knock_on = _knock_on(report, d)
    if knock_on:
        blocks.append(_context([clip_words(knock_on, int(300 * scale))]))
    blocks.append(_buttons(state))
    footer = [_stats(report, state.source) + " · the evidence and checklist are in the thread"]
    footer += [clip_words(n, int(400 * scale)) for n in state.notes]  # the bot's own sentences (render's)
    blocks.append(_context([" \n".join(footer)]))
    rank = f" on rank {d.initiating_rank}" if d.initiating_rank is not None else ""
    text = f"{d.title}{rank}: {_first_sentence(d.summary)}"
    return text, blocks


# -- the reply in the thread -------------------------------------------------------------------------------


ROLE_WORDS = {"initiating": "cause", "same_failure": "same failure", "related": "related", "launcher": "launcher"}


def evidence_lines(d: Diagnosis) -> list[str]:
    """The evidence as one reads it: the cause line with the frames above it (caret lines gone), the same error
    on other ranks collapsed into one line, then what else was kept, each with its role in words; no line
    twice."""
    lines: list[str] = []
    shown: set[str] = set()
    cause = next((e for e in d.evidence if e.kind == "initiating"), None)
    cause_text = _bare(cause.text if cause else d.first_seen.text)
    rank = cause.rank if cause else d.initiating_rank
    where = f"{(cause.source if cause else d.first_seen.source).rsplit('/', 1)[-1]}:{cause.line if cause else d.first_seen.line}"
    lines.append(f"cause — {'rank ' + str(rank) + ', ' if rank is not None else ''}{where}")
    context = [c for c in (cause.context or []) if not _CARETS.match(_bare(c))] if cause else []
    frame_starts = [i for i, c in enumerate(context) if _FRAME.match(_bare(c))]
    if len(frame_starts) > EVIDENCE_FRAMES:
        context = context[frame_starts[-EVIDENCE_FRAMES] :]
    lines += ["    " + clip_words(_bare(c).strip(), EVIDENCE_LINE) for c in context]
    lines.append("  " + clip_words(cause_text, EVIDENCE_LINE))
    shown.add(cause_text)
    same: dict[str, list[int]] = {}
    rest = []
    for e in d.evidence:
        if e is cause:
            continue
        text = _bare(e.text)
        if e.kind in ("initiating", "same_failure") and _masked(text) == _masked(cause_text) and e.rank is not None:
            same.setdefault("", []).append(e.rank)
        elif text not in shown:
            shown.add(text)
            rest.append(e)
    others = sorted(set(same.get("", [])) - ({rank} if rank is not None else set()))
    if others:
        lines.append(f"same on {_ranks(others)}")
    for e in rest[:6]:
        role = ROLE_WORDS.get(e.kind, e.kind.replace("_", " "))
        who = f"rank {e.rank}, " if e.rank is not None else ""
        lines.append(f"{role} — {who}{e.source.rsplit('/', 1)[-1]}:{e.line}")
        lines.append("  " + clip_words(_bare(e.text), EVIDENCE_LINE))
    return lines


def _masked(text: str) -> str:
    return re.sub(r"\d+", "N", text)


def _checklist_item(item: str) -> tuple[str, str | None]:
    """A checklist item as a checkbox: a label of at most 75 characters, the rest in the option's description
    (75 more; Block Kit's option object)."""
    if len(item) <= OPTION_TEXT:
        return item, None
    cut = max((item.rfind(sep, 0, OPTION_TEXT - 1) for sep in (" (", ", ", "; ", ": ", " — ")), default=-1)
    if cut < OPTION_TEXT // 3:
        cut = item.rfind(" ", 0, OPTION_TEXT - 1)
    label = item[:cut].rstrip(" ,;:") + ("…" if item[cut] == " " else "")
    rest = item[cut:].lstrip(" ,;:—")
    return clip(label, OPTION_TEXT), clip_words(rest, OPTION_DESCRIPTION)


def _checklist(d: Diagnosis, state: MessageState) -> list[dict]:
    options = []
    for i, item in enumerate(d.checklist[:CHECKBOX_OPTIONS]):
        label, more = _checklist_item(_humane(item))
        option: dict = {"text": {"type": "plain_text", "text": label}, "value": str(i)}
        if more:
            option["description"] = {"type": "plain_text", "text": more}
        options.append(option)
    checkboxes: dict = {"type": "checkboxes", "action_id": CHECKLIST, "options": options}
    initial = [options[i] for i in sorted(state.checked) if i < len(options)]
    if initial:
        checkboxes["initial_options"] = initial
    blocks = [
        _section("*Confirm it* (tick what you checked; it counts for this signature's track record)"),
        {"type": "actions", "block_id": f"{CHECKLIST_BLOCK}{state.incident_id}", "elements": [checkboxes]},
    ]
    ticked = [f"{i + 1} by <@{u}>" for i, u in sorted(state.ticked_by.items()) if i in state.checked]
    if ticked:
        blocks.append(_context([":ballot_box_with_check: Ticked: " + ", ".join(ticked[:10])]))
    return blocks


def _why_all(report: Report, d: Diagnosis) -> str:
    parts = []
    a = d.attribution
    reasons = [r.text for r in a.reasons[:3] if not r.text.startswith("first seen:")]  # the evidence shows it
    if reasons or a.reasons:
        parts.append("*Why this rank:* " + (escape("; ".join(_humane(r) for r in reasons)) or _why(d, 200)))
    parts.append(f":mag: {escape(considered_line(report))}")
    if d.action in REQUEUE:
        parts.append(f"{REQUEUE[d.action]}: {escape(d.action_reason)}")
    return clip("\n".join(parts), 2900)


REQUEUE = {
    "restart": ":repeat: Requeue it",
    "drain_and_restart": ":construction: Drain the node, then requeue",
    "fix_and_restart": ":wrench: Fix first, then requeue",
}


def _references(d: Diagnosis) -> str:
    labels = []
    for url in d.references[:4]:
        host = re.sub(r"^https?://(www\.)?", "", url).split("/", 1)[0]
        labels.append(link(url, host))
    return ":books: " + " · ".join(labels) if labels else ""


def details_message(report: Report, state: MessageState) -> tuple[str, list[dict]] | None:
    """The answer's first reply in its thread: everything the first screen leaves out. None when there is
    nothing more to say (a healthy log)."""
    d = report.top
    if d is not None:
        blocks = [
            _section("*Evidence*\n" + _pre(evidence_lines(d))),
            _context([_why_all(report, d)]),
            _section("*Fix*\n" + "\n".join(f"• {_with_code(b)}" for b in fix_bullets(d.fix))),
            *_baseline(report),
            *_checklist(d, state),
            _section(f"*Verify*\n{code(d.verify)}"),
        ]
        footer = [_references(d)] + _job_line(report)
        if len(report.diagnoses) > 1:
            footer.append(
                "Also seen, later or independent: " + ", ".join(code(o.signature) for o in report.diagnoses[1:4])
            )
        blocks.append(_context([t for t in footer if t] or ["denpex"]))
        text = f"Evidence, fix and checklist for {_short_title(d.title)}"
    elif report.outcome == "unrecognised":
        lines = _unrecognised_lines(report)
        if len(lines) <= 2 and not report.baseline:
            return None
        blocks = [*_baseline(report), _section("*Every rank's first errors*\n" + _pre(lines))]
        text = "The first errors of every rank"
    else:
        return None
    return clip(redact(text), MAX_TEXT), redact_blocks(blocks)


def _baseline(report: Report, shown: int = 6, width: int = 300) -> list[dict]:
    """A section with the first lines this run printed that its good run never did (`--baseline`, or a
    Slurm job's last COMPLETED run), or none."""
    diff = report.baseline
    if diff is None or not diff.new:
        return []
    good = ", ".join(diff.good[:2]) + (f" and {len(diff.good) - 2} more" if len(diff.good) > 2 else "")
    lines = [
        f"[{'rank ' + str(n.rank) if n.rank is not None else 'no rank'}] "
        f"{n.source.rsplit('/', 1)[-1]}:{n.line}  {clip_words(n.text, width)}"
        for n in diff.new[:shown]
    ]
    head = f"*New since the good run* ({escape(clip(good, 200))}): {diff.new_total} message(s) it never printed; first:"
    return [_section(head + "\n" + _pre(lines))]


# -- an unrecognised failure -----------------------------------------------------------------------------------

UNRECOGNISED_SHOWN = 6  # error lines on the first screen; the rest in the thread
_LAUNCHER = re.compile(
    r"ChildFailedError|torch[./]distributed[./](?:elastic|run)|failed \(exitcode|exitcode\s*:|Root Cause|"
    r"srun: error|slurmstepd|CANCELLED AT|task \d+ exited|Sending process \d+ closing signal|SignalException|"
    r"mp\.spawn|ProcessExitedException|process \d+ terminated with",
    re.I,
)
_TRACEBACK = "Traceback (most recent call last)"


def _unrecognised_lines(report: Report) -> list[str]:
    """The first error-like lines of each rank, as they read: rank, file:line, the line without its prefix; a
    traceback's header says nothing of what failed and is left out."""
    lines = []
    for group in report.unrecognised[:8]:
        label = f"rank {group.rank}" if group.rank is not None else "no rank"
        kept = [ln for ln in group.lines if _TRACEBACK not in ln.text][:3]
        if not kept and group.lines:
            lines.append(f"{label}  a traceback whose exception line is not an error word: see More evidence")
        lines += [
            f"{label}  {ln.source.rsplit('/', 1)[-1]}:{ln.line}  {clip_words(_bare(ln.text), 200)}" for ln in kept
        ]
    return lines


def launcher_only(report: Report) -> bool:
    """Only the launcher's records of the failure were found: the cause is earlier in the job's output."""
    texts = [ln.text for g in report.unrecognised for ln in g.lines if _TRACEBACK not in ln.text]
    return bool(texts) and all(_LAUNCHER.search(t) for t in texts)


LAUNCHER_ONLY = (
    "Only the launcher's records of the failure are in this log: the cause is earlier in the job's output, in "
    "the failing rank's own stderr. Get it with torchrun `--log-dir DIR --tee 3`, srun `--label` or "
    "`-o %x-%j-%t.out`, or `kubectl logs --previous`, and diagnose that."
)


def _unrecognised(report: Report, state: MessageState) -> tuple[str, list[dict]]:
    """The first screen of an unrecognised failure, tightened until it fits FIRST_SCREEN_CHARS."""
    for scale in (1.0, 0.75, 0.5, 0.3):
        text, blocks = _unrecognised_at(report, state, scale)
        if len(visible(blocks)) <= FIRST_SCREEN_CHARS:
            break
    return text, blocks


def _unrecognised_at(report: Report, state: MessageState, scale: float) -> tuple[str, list[dict]]:
    hint = report.unrecognised_hint
    where = ""
    if hint and hint.rank is not None:
        where = f" on rank {hint.rank}"
    header = f":grey_question: {PHASE_HEADERS[_phase(_steps_of(state))]}Unrecognised failure{where}"
    lines = _unrecognised_lines(report)
    quiet = scheduler_only(report)
    if quiet:
        header = ":grey_question: Failed, says the scheduler; its logs name no error"
        intro = "The scheduler records this job as failed, but its logs hold no error line. " + SCHEDULER_ONLY
        if hint and hint.class_:
            intro += f"\nIts record reads like {code(hint.class_)} (the scheduler's word, not the logs')."
    elif launcher_only(report):
        intro = LAUNCHER_ONLY
    else:
        intro = "No signature explains these errors. The first error lines, by rank:"
        if hint and hint.class_:
            intro += (
                f"\nIt reads like a {escape(hint.family or '')} problem (perhaps {code(hint.class_)}; low confidence)."
            )
    shown = lines[: max(2, int(UNRECOGNISED_SHOWN * scale))]
    body = intro + ("\n" + _pre([clip_words(ln, int(160 * scale)) for ln in shown]) if shown else "")
    more = " · every rank's lines in the thread" if len(lines) > len(shown) or report.baseline else ""
    blocks = [
        _header(header),
        _context([_state_line(state)]),
        *_baseline(
            report, 3, int(140 * scale)
        ),  # what this run printed that its last good run never did leads, when known
        _section(body),
        _buttons(state, diagnosed=False, draftable=not quiet),
        _context(
            [
                " \n".join(
                    _job_line(report)
                    + [_stats(report, state.source) + more]
                    + ([] if quiet else ["Know what this is? *Draft a signature* from one of these lines."])
                    + state.notes
                )
            ]
        ),
    ]
    return f"Unrecognised failure in {state.source}: no signature explains the errors.", blocks


def incident_url(workspace: str, channel: str, ts: str, thread_ts: str | None = None) -> str:
    """The permalink of a message, as chat.getPermalink writes it (without a call per incident)."""
    url = f"{workspace.rstrip('/')}/archives/{channel}/p{ts.replace('.', '')}"
    if thread_ts and thread_ts != ts:
        url += f"?thread_ts={thread_ts}&cid={channel}"
    return url


FIX_VIEW = "denpex_fix_applied"


def _plain(text: str) -> dict:
    return {"type": "plain_text", "text": text}


def fix_modal(incident_id: int, job: str | None, clusters: list[str]) -> dict:
    """The Fix applied… modal: what was changed and, when a cluster can be asked, which rerun to watch. A fix
    may be recorded with a note only; a rerun is never required. With no cluster configured, the rerun cannot
    be fetched: the form says so and records the note (then the note is what it needs)."""
    blocks: list[dict] = []
    if clusters:
        example = f"{clusters[0]}/812346" if len(clusters) > 1 else "812346"
        blocks.append(
            {
                "type": "input",
                "block_id": "rerun",
                "optional": True,
                "label": _plain("Rerun to watch (optional)"),
                "hint": _plain(
                    f"A job id ({example}). I'll re-check it until the failure is proven gone, or back. Leave it "
                    "empty to record the fix only."
                ),
                "element": {
                    "type": "plain_text_input",
                    "action_id": "rerun_job",
                    "placeholder": _plain(example),
                },
            }
        )
        if job:
            blocks.append(
                {
                    "type": "input",
                    "block_id": "same",
                    "optional": True,
                    "label": _plain("Or"),
                    "element": {
                        "type": "checkboxes",
                        "action_id": "same_job",
                        "options": [
                            {
                                "text": _plain(clip(f"Same job, requeued ({job})", OPTION_TEXT)),
                                "value": "same",
                            }
                        ],
                    },
                }
            )
    else:
        blocks.append(
            _section(
                "No cluster is configured for denpex, so I can't fetch a rerun to watch. Record what you changed; "
                "when the rerun's log is ready, drop it in this thread and I'll diagnose it."
            )
        )
    blocks.append(
        {
            "type": "input",
            "block_id": "note",
            "optional": bool(clusters),
            "label": _plain("What was changed"),
            "hint": _plain("Shown on the incident with your name, e.g. 'micro-batch 8 -> 4, expandable_segments'."),
            "element": {"type": "plain_text_input", "action_id": "fix_note", "multiline": True, "max_length": 2000},
        }
    )
    return {
        "type": "modal",
        "callback_id": FIX_VIEW,
        "private_metadata": str(incident_id),
        "title": _plain("Fix applied"),
        "submit": _plain("Record the fix"),
        "close": _plain("Cancel"),
        "blocks": blocks,
    }


NOT_THIS_VIEW, DRAFT_VIEW = "denpex_not_this_form", "denpex_draft_form"
DRAFT_OPTIONS = 100  # a static_select holds at most 100 options


def _class_select(classes: list[tuple[str, str]], picked: str | None) -> dict:
    """A static_select of the taxonomy's classes ((key, family) pairs), `picked` preselected."""
    options = [{"text": _plain(clip(f"{key} ({family})", OPTION_TEXT)), "value": key} for key, family in classes]
    select = {
        "type": "static_select",
        "action_id": "class",
        "placeholder": _plain("Pick a class"),
        "options": options[:DRAFT_OPTIONS],
    }
    chosen = [o for o in select["options"] if o["value"] == picked]
    if chosen:
        select["initial_option"] = chosen[0]
    return select


def not_this_modal(incident_id: int, classes: list[tuple[str, str]]) -> dict:
    """Not this: what it was (a class of the taxonomy) and a free note, both optional."""
    return {
        "type": "modal",
        "callback_id": NOT_THIS_VIEW,
        "private_metadata": str(incident_id),
        "title": _plain("Not this"),
        "submit": _plain("Record"),
        "close": _plain("Cancel"),
        "blocks": [
            {
                "type": "input",
                "block_id": "class",
                "optional": True,
                "label": _plain("What was it?"),
                "hint": _plain("Its failure class (signatures/taxonomy.toml). Counted against this signature."),
                "element": _class_select(classes, None),
            },
            {
                "type": "input",
                "block_id": "note",
                "optional": True,
                "label": _plain("A note"),
                "element": {
                    "type": "plain_text_input",
                    "action_id": "note",
                    "multiline": True,
                    "max_length": 2000,
                    "placeholder": _plain("What gave it away: the line, the fix that worked"),
                },
            },
        ],
    }


def draft_lines(report: Report) -> list[str]:
    """The lines a signature can be drafted from, as the answer shows them: the first error-like lines, then
    each diagnosis's evidence. The Draft modal offers them by index; its submission finds the line by the same
    index in the stored report, so the full line never has to fit in an option."""
    found: list[str] = []
    texts = [report.unrecognised_hint.first_error.text] if report.unrecognised_hint else []
    texts += [ln.text for group in report.unrecognised for ln in group.lines]
    for d in report.diagnoses:
        texts += [d.first_seen.text, *(ev.text for ev in d.evidence), *(c.first_seen.text for c in d.collateral)]
    for text in texts:  # a traceback's first line says nothing of what failed
        if text.strip() and text not in found and "Traceback (most recent call last)" not in text:
            found.append(text)
    return found[:DRAFT_OPTIONS]


def draft_modal(incident_id: int, lines: list[str], classes: list[tuple[str, str]], picked: str | None) -> dict:
    """Draft a signature: the line to draft it from (the first preselected) and, optionally, its class."""
    options = [{"text": _plain(clip(line.strip(), OPTION_TEXT)), "value": str(i)} for i, line in enumerate(lines)]
    return {
        "type": "modal",
        "callback_id": DRAFT_VIEW,
        "private_metadata": str(incident_id),
        "title": _plain("Draft a signature"),
        "submit": _plain("Draft it"),
        "close": _plain("Cancel"),
        "blocks": [
            _section(
                "I'll draft a signature in the library's format from the line you pick (its stable words as the "
                "literal, numbers and paths generalised, the line as its match case), check it the way "
                "`denpex signatures test` and `lint` do, and post it in the thread with how to add it."
            ),
            {
                "type": "input",
                "block_id": "line",
                "label": _plain("From this line"),
                "element": {
                    "type": "static_select",
                    "action_id": "line",
                    "options": options,
                    "initial_option": options[0],
                },
            },
            {
                "type": "input",
                "block_id": "class",
                "optional": True,
                "label": _plain("Its class"),
                "hint": _plain("Left empty: python_exception_other, for you to change in the file."),
                "element": _class_select(classes, picked),
            },
        ],
    }


STATUS_GROUPS = [  # (incident status, heading) in the order a busy channel reads them
    ("recurred", ":x: Back after a fix"),
    ("open", ":red_circle: Open, nobody on it yet"),
    ("acknowledged", ":eyes: Acknowledged"),
    ("disputed", ":no_entry_sign: Disputed"),
    ("fix_applied", ":mag: Fix applied, watching the rerun"),
    ("inconclusive", ":hourglass: Rerun inconclusive"),
    ("unrecognised", ":grey_question: Unrecognised failures"),
]


def status_message(rows: list[dict], channel: str, workspace: str | None, now: float, unrecognised_for: float) -> str:
    """`/denpex status`: this channel's incidents grouped by state, each with a link to its thread and when it
    opened (each reader's own relative time). An unrecognised failure is listed for `unrecognised_for` seconds,
    and not once someone said Not this of it."""
    groups: dict[str, list[str]] = {}
    for r in rows:
        opened = epoch_of(r["opened_at"])
        if r["status"] == "unrecognised" and opened is not None and now - opened > unrecognised_for:
            continue
        if r["status"] == "disputed" and not r["signature"]:
            continue  # an unrecognised failure someone said is not one
        label = f"#{r['id']} {r['signature'] or 'unrecognised failure'}"
        if workspace and r.get("message_ts"):
            label = link(incident_url(workspace, channel, r["message_ts"], r.get("thread_ts")), label)
        else:
            label = escape(label)
        parts = [f"• {label} from {code(clip(r['source'], 60))}"]
        if opened is not None:
            parts.append(f"opened {date(opened, '{ago}')}")
        if r.get("next_check"):
            minutes = max(0.0, (r["next_check"] - now) / 60)
            parts.append(f"next check in {duration(minutes * 60)}" if minutes >= 1 else "next check due now")
        groups.setdefault(r["status"], []).append(" · ".join(parts))
    if not groups:
        return "No open incidents in this channel."
    known = [status for status, _ in STATUS_GROUPS]
    lines = [f"*{sum(len(v) for v in groups.values())} open incident(s) in this channel*"]
    for status, heading in STATUS_GROUPS + [(s, s.replace("_", " ")) for s in groups if s not in known]:
        if status in groups:
            lines.append(f"{heading} ({len(groups[status])})")
            lines += groups[status]
    return redact("\n".join(lines))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _class_counts(classes: dict) -> str:
    return ", ".join(f"{cls} ×{n}" for cls, n in sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])))


def host_repeat(rec, window: str, kind: str | None) -> str:
    """One line under a diagnosis: this host's failures repeat; how to take it out of service."""
    reason = "denpex: repeated failures"
    host = escape(rec.host)
    if kind == "kubernetes":
        drain = f"`kubectl cordon {host}`"
    elif kind == "slurm":
        drain = f'`scontrol update nodename={host} state=drain reason="{reason}"`'
    else:
        drain = f'`scontrol update nodename={host} state=drain reason="{reason}"` (Slurm) or `kubectl cordon {host}`'
    return redact(
        f":repeat: {host}: {_ordinal(rec.incidents)} incident in {window} ({_class_counts(rec.classes)}). "
        f"Drain it: {drain}"
    )


def hosts_message(records: list, window: str) -> str:
    """`/denpex hosts` (and `denpex hosts`): the hosts with the most incidents in the window."""
    if not records:
        return f"No incident named a host in the last {window}."
    lines = [f"*Hosts with the most incidents in the last {window}* (hardware failures weigh 1, others 0.25)"]
    for r in records:
        lines.append(
            f"• {escape(r.host)}: {r.incidents} incident(s), {r.hardware} hardware, weight {r.score:g} ({_class_counts(r.classes)})"
        )
    return redact("\n".join(lines))


def _since(iso: str) -> str:
    epoch = epoch_of(iso)
    return date(epoch, "{ago}") if epoch is not None else escape(iso)


def watches_lines(rows: list[dict]) -> list[str]:
    """The `/denpex status` lines of this channel's watches."""
    if not rows:
        return []
    asked = [r for r in rows if not str(r["requested_by"]).startswith("auto:")]
    auto = len(rows) - len(asked)
    lines = ["*Jobs being watched in this channel*"] + [
        f"• {code(r['cluster'] + '/' + r['job'])} since {_since(r['created_at'])} (asked by <@{r['requested_by']}>, "
        f"{r['polls']} looks)"
        for r in asked
    ]
    if auto:  # [[watch.auto]]'s watch_running: one line, not one per running job
        lines.append(f"• {auto} running job(s) watched by `[[watch.auto]]` (watch_running), silent until an alert")
    return lines


def status_with_watches(
    incidents: list[dict], watches: list[dict], channel: str, workspace: str | None, unrecognised_for: float
) -> str:
    text = status_message(incidents, channel, workspace, time.time(), unrecognised_for)
    if not watches:
        return text
    if text.startswith("No open incidents"):
        return redact("\n".join(watches_lines(watches)))
    return redact("\n".join([text, *watches_lines(watches)]))


def watch_started(cluster: str, job: str, user: str, state: str, interval: float, stall: float) -> str:
    return (
        f":eyes: <@{user}> asked me to watch {code(cluster + '/' + job)} ({escape(state.lower())}). I read its logs every "
        f"{duration(interval)} and post in this thread when a failure starts, training stops for "
        f"{duration(stall)}, a checkpoint save runs much longer than the job's earlier ones, steps slow down, "
        f"or the job ends. {code('/denpex unwatch ' + job)} stops it."
    )


def watch_stopped_starting(cluster: str, job: str) -> str:
    return (
        f"Stopped watching {code(cluster + '/' + job)} while its watch was being set up; its confirmation, if it gets "
        "posted, says so in its thread."
    )


def watch_taken_over(cluster: str, job: str) -> str:
    return (
        f"This confirmation took minutes to post, and another watch of {code(cluster + '/' + job)} started meanwhile "
        "(see `/denpex status`): its alerts go there, not here."
    )


def watch_already(cluster: str, job: str) -> str:
    return f"{code(cluster + '/' + job)} is already being watched in this channel (see `/denpex status`)."


def watch_stopped(cluster: str, job: str, user: str) -> str:
    return f":no_bell: <@{user}> stopped watching {code(cluster + '/' + job)}."


def not_watched(job: str) -> str:
    return f"{code(job)} is not being watched in this channel (`/denpex status` lists what is)."


def watch_needs_job(verb: str) -> str:
    return f"Which job? {code('/denpex ' + verb + ' <job id>')} (`812345`, `NAME/812345`)."


def watch_job_ended(job: str, state: str) -> str:
    return (
        f"Job {code(job)} has already ended ({escape(state)}): nothing to watch. {code('/denpex diagnose ' + job)} "
        "tells why."
    )


WATCH_ICONS = {
    "diagnosis": ":rotating_light:",
    "diverging": ":chart_with_upwards_trend:",
    "slow_save": ":floppy_disk:",
    "stall": ":double_vertical_bar:",
    "silence": ":zipper_mouth_face:",
    "slow_steps": ":turtle:",
    "end": ":checkered_flag:",
}


def watch_alert(job: str, kind: str, message: str) -> str:
    """One alert of a watch, as posted in its thread."""
    return redact(f"{WATCH_ICONS.get(kind, ':bell:')} {code(job)}: {escape(clip_words(message, 1500))}")


def watch_closing(job: str, state: str, report: Report | None) -> str:
    """The watch's last message: the job ended, with its final state, and the failure that started it if any."""
    if state.split("/")[0] == "COMPLETED" and (report is None or report.top is None):
        return f":white_check_mark: {code(job)} completed. Stopped watching."
    if report is not None and report.top is not None:
        return redact(
            f":x: {code(job)} ended {escape(state)}: {_first_line(report.top)}\n"
            f"{code('/denpex diagnose ' + job)} gives the whole answer with its checklist. Stopped watching."
        )
    return f":grey_question: {code(job)} ended {escape(state)}; its logs name no failure. Stopped watching."


def _first_line(d: Diagnosis) -> str:
    """A diagnosis in two lines: its title, rank and first line's place, then that line quoted."""
    where = f" on rank {d.initiating_rank}" if d.initiating_rank is not None else ""
    place = code(f"{clip(d.first_seen.source, 120)}:{d.first_seen.line}")
    return (
        f"*{escape(_short_title(d.title))}*{where}, {place}\n&gt; {escape(clip_words(_bare(d.first_seen.text), 300))}"
    )


def auto_diagnosis(job: dict, report: Report | None, problem: str | None = None) -> str:
    """[[watch.auto]]: a failed job nobody asked about, diagnosed in the channel."""
    who = f"{job.get('JobName', '?')}, {job.get('user') or job.get('Kind') or '?'}"
    head = f"{code(job['JobId'])} ({escape(clip(who, 120))}) ended {escape(job.get('JobState', '?'))}"
    ref = job.get("ref") or job["JobId"]  # what /denpex diagnose takes: with the cluster's name when it is needed
    if problem:
        return redact(f":x: {head}; its logs could not be read: {escape(clip_words(problem, 400))}")
    if report is None or report.top is None:
        return redact(f":x: {head}; its logs name no failure. {code('/denpex diagnose ' + ref)} shows them.")
    d = report.top
    bullets = fix_bullets(d.fix)
    return redact(
        f":x: {head}: {_first_line(d)}\n*Fix:* {_with_code(clip_words(bullets[0], 300)) if bullets else ''}\n"
        f"{code('/denpex diagnose ' + ref)} gives the whole answer with its checklist and buttons."
    )


def watch_lost(job: str, reason: str) -> str:
    return redact(f":warning: Stopped watching {code(job)}: {escape(clip_words(reason, 400))}")


def progress_message(source: str, done: int, total: int | None, verb: str = "Diagnosing") -> tuple[str, list[dict]]:
    """What a running diagnosis has done so far, saying only what it knows: no amount before the first byte,
    no total when the size is unknown."""
    if done > 0 and total:
        amount = f" {human_size(done)} of {human_size(total)} read ({min(done / total, 1):.0%})"
    elif done > 0:
        amount = f" {human_size(done)} read"
    else:
        amount = ""
    text = f"{verb} {source}…{amount}"
    return redact(text), redact_blocks(
        [_section(f":hourglass_flowing_sand: {verb} {code(clip(source, 300))}…{amount}")]
    )


def queued_message(source: str, ahead: int, running: int) -> tuple[str, list[dict]]:
    """Said when every diagnosis slot is taken: where this request stands, instead of silence."""
    where = f"{ahead} ahead of you" if ahead else "next in line"
    text = f"Queued: {where} ({running} diagnoses running). {source} will start as soon as a slot frees up."
    return redact(text), redact_blocks(
        [
            _section(
                f":hourglass: Queued: *{where}* ({running} diagnoses running). "
                f"{code(clip(source, 300))} will start as soon as a slot frees up."
            )
        ]
    )


def notice_message(text: str) -> tuple[str, list[dict]]:
    """A one-paragraph answer: a refused file, a fetch that is not configured, an error."""
    return clip(redact(text), MAX_TEXT), redact_blocks([_section(text)])


def evidence_file(report: Report) -> str:
    """Everything, as text, for the More evidence file."""
    lines = [render_text(report, width=120), ""]
    for d in report.diagnoses:
        lines.append(f"== {d.signature}: all evidence ==")
        for ev in d.evidence:
            lines += [f"    {c}" for c in ev.context or []]
            lines.append(f"{ev.kind:>12} rank={ev.rank} {ev.source}:{ev.line}: {ev.text}")
            lines += [f"    {c}" for c in ev.context_after or []]
        for c in d.collateral:
            lines.append(
                f"  collateral {collateral_line(c)}; first: {c.first_seen.source}:"
                f"{c.first_seen.line}: {c.first_seen.text}"
            )
    return redact("\n".join(lines) + "\n")


# -- sentences: every other thing the bot says, in one place ----------------------------------------------

HELP = escape("""*denpex* finds the failure that started a training job's crash.
• `/denpex diagnose <pasted log>`: diagnose a log pasted inline (Slack keeps the first 4,000 characters)
• `/denpex diagnose <job id>`: fetch the job's logs from the cluster (needs `[clusters]` in the bot's config)
• Drop a log file or an archive of rank logs (`.log`, `.gz`, `.zip`, `.tar.gz`) in a channel I'm in
• Mention me with a pasted log, or mention me in the thread of a message that has a log file
• `/denpex watch <job id>`: follow a running job's logs and say here when it fails, stalls, saves slowly or ends
• `/denpex unwatch <job id>`: stop following it
• `/denpex status`: this channel's open incidents, their next checks, and the jobs being watched
• `/denpex hosts`: the hosts with the most incidents lately (repeating hardware failures: drain them)
• `/denpex help`: this message""")

NOTHING_TO_DIAGNOSE = escape(
    "Give me something to diagnose: `/denpex diagnose <job id or pasted log>`, or drop the log file in the channel."
)
PASTE_TRUNCATED = (
    ":scissors: Slack cuts slash-command text at 4,000 characters and this paste reached that: the "
    "log is probably truncated. Upload the log as a file for a full diagnosis."
)
MENTION_WITHOUT_LOG = (
    "Paste a log after the mention, or mention me in the thread of a message that has a log file.\n\n" + HELP
)
DIAGNOSIS_FAILED = (
    ":x: Something went wrong while diagnosing this log; the error is in the bot's log. You can run "
    "`denpex diagnose` on it locally."
)
GAVE_UP = (
    ":x: I could not diagnose this: the bot stopped several times while working on it. Run `denpex diagnose` "
    "on it locally, and tell whoever runs denpex."
)
RESTARTING = ":hourglass: The bot is restarting; this will be diagnosed here as soon as it is back."
NOT_THIS_THANKS = (
    "Thanks: recorded that this diagnosis is not the cause. The form asks what it was (a class and a note); "
    "*Draft a signature* on the answer turns one of its lines into a new signature."
)
MUTED = (
    ":mute: Muted: follow-up results and watch alerts for this incident are no longer posted in this thread "
    "(they are still checked and recorded). *Unmute* on the answer turns them back on."
)
NOTHING_TO_DRAFT = "This answer has no error line to draft a signature from."
INCIDENT_GONE = "This incident no longer exists."


def help_message(verb: str) -> str:
    """`/denpex`, `/denpex help`, or a verb denpex does not know."""
    return HELP if verb in ("", "help") else f"I don't know {code(verb)}.\n\n{HELP}"


def warning(problem: object) -> str:
    """A refusal whose reason is already in words (a fetch error, an unreadable input)."""
    return f":warning: {escape(str(problem))}"


def not_a_paste(text: str) -> str:
    return (
        f":warning: {code(text[:80])} is neither a job id (`812345`, `812345_7`, `NAME/812345`, "
        "`NAME/namespace/job-name`, `NAME/raysubmit_…`: ASCII digits) nor a pasted log. Paste the log's lines "
        "after `/denpex diagnose`, or drop the log file in the channel."
    )


def not_allowed(cluster: str) -> str:
    return (
        f":no_entry: You may not fetch jobs from cluster {code(cluster)}. Ask whoever runs denpex to add you (or one "
        "of your user groups) to that cluster's `allow` list."
    )


def rerun_refused(problem: object) -> str:
    """A rerun the form cannot watch, as the modal field's error (plain text, Slack shows about 150 characters)."""
    return clip_words(f"I can't watch that rerun: {problem}", 150)


def not_allowed_field(cluster: str) -> str:
    """The same refusal, as a modal field's error (plain text, short)."""
    return f"You may not fetch jobs from cluster {cluster}."


def asked(user: str, what: str, report: Report | None = None) -> str:
    """A slash diagnosis, said in the channel: who asked, about what, and once known what it found; the answer
    itself is in this message's thread."""
    if report is None:
        found = "; the answer follows in the thread"
    elif report.top is not None:
        d = report.top
        found = f": {SEVERITY_EMOJI.get(d.severity, '')} *{escape(_short_title(d.title))}* on {escape(_where(d))} (in the thread)"
    elif report.outcome == "unrecognised":
        found = ": :grey_question: a failure no signature explains (in the thread)"
    elif report.outcome == "not_a_log":
        found = ": not a training log (in the thread)"
    else:
        found = ": no failure found (in the thread)"
    return f":mag_right: <@{user}> ran `/denpex diagnose` on {what}{found}"


PASTED = "a pasted log"


def job_asked(reference: str) -> str:
    return f"job {code(reference)}"


def button_failed(error: str | None) -> str:
    return f":warning: That did not work: Slack said {code(str(error))}. Try again; if it keeps failing, tell whoever runs denpex."


def unreadable_file(error: str | None) -> str:
    return f":warning: I could not read that file from Slack ({code(str(error))}). Share it again, or run `denpex diagnose` on it."


def empty_file(name: str) -> str:
    return f":warning: {code(name)} is empty: there is nothing to diagnose."


def empty_download(name: str) -> str:
    return f"{name}: the file is empty: there is nothing to diagnose"


def file_too_big(name: str, size: str, limit: str) -> str:
    return (
        f":warning: {code(name)} is {size}; I diagnose files up to {limit}. Run `denpex diagnose` on it where it lives."
    )


def no_download_address(name: str) -> str:
    return f":warning: Slack gave no download address for {code(name)}. Share it again, or run `denpex diagnose` on it."


def not_recorded(problem: object, report: Report) -> str:
    top = report.top
    title = f"{top.title}: " if top else ""
    return (
        f":warning: I could not record this incident: {escape(str(problem))}. "
        f"{escape(title)}{escape(_first_sentence(top.summary)) if top else report.outcome}"
        "\nButtons and follow-ups need the database: ask again once it is fixed."
    )


def already_diagnosed(what: str, status: str, url: str | None, incident_id: int) -> str:
    where = link(url, "the incident's thread") if url else f"incident #{incident_id}"
    return f":link: Already diagnosed ({escape(_short_title(what))}, {status.replace('_', ' ')}): follow it in {where}."


def duration(secs: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if secs >= size:
            return f"{secs / size:g} {unit}"
    return f"{secs:g} s"


def fix_applied(user: str, note: str, job: str, first: float, interval: float, window: float) -> str:
    said = f" ({escape(clip_words(note, 300))})" if note else ""
    return redact(
        f":wrench: <@{user}> applied a fix{said}. I'll check rerun {code(job)} in {duration(first)}, then "
        f"every {duration(interval)} for {duration(window)}, and say here whether the failure is gone."
    )


def fix_recorded(user: str, note: str) -> str:
    """A fix recorded with no rerun to watch."""
    return redact(
        f":wrench: <@{user}> applied a fix: {escape(clip_words(note, 600))}. No rerun to watch: when it has run, "
        "drop its log in this thread (or `/denpex diagnose` its job) to see whether the failure is gone."
    )


FIX_NEEDS_SOMETHING = "Give the rerun's job id to watch, or say what was changed."


VERDICT_ICONS = {
    "gone": ":white_check_mark:",
    "back": ":x:",
    "not_yet": ":hourglass_flowing_sand:",
    "inconclusive": ":hourglass:",
}
VERDICT_HEADLINES = {"gone": "Gone", "back": "Back", "not_yet": "Not yet", "inconclusive": "Inconclusive"}


def followup_announcement(verdict: str, detail: str, job: str, requested_by: str) -> str:
    """A check's outcome, said in the incident's thread."""
    mention = f" <@{requested_by}>" if verdict == "back" else ""
    text = f"{VERDICT_ICONS[verdict]} *{VERDICT_HEADLINES[verdict]}* — rerun {code(job)}: {detail}.{mention}"
    if verdict == "not_yet":
        text += " I'll keep checking."
    return redact(text)


# why a check reached its verdict (stored with the check, and said in the announcement)
VERDICT_DETAILS = {
    "fired_again": "`{signature}` fired again in {source}:{line}: {text}",
    "completed": "the rerun finished successfully ({facts}) and the signature did not fire",
    "save_completed": "a checkpoint save started and completed in the rerun, and the hang did not recur",
    "ran_past": "the rerun has run {elapsed}, past the {before} at which the original failed, and the signature did "
    "not fire",
    "trained_past": "the rerun's training reached step {step}, past step {before} where the original failed, and "
    "the signature did not fire",
    "running": "the rerun is {state} ({facts}) and has not yet passed the point where the original failed",
    "running_steps": "the rerun is {state} at step {step}; the original failed after step {before}",
    "other_failure": "the signature did not fire, but the rerun ended {state} with another failure: {title} "
    "(`{signature}`)",
    "ended_early": "the rerun ended {state} before the point where the original failed, so this proves nothing yet",
    "log_finished": "the rerun's log says training finished ({line}) and the signature did not fire",
    "log_quiet": "the rerun's log shows no failure so far, and neither a finished run nor a training step to compare "
    "with the original (no scheduler state on this cluster)",
    "vanished": "the rerun `{job}` vanished from the scheduler: {error}",
    "window_ended": "the watch window ended; last seen: {detail}",
}


def verdict_detail(reason: str, **values: object) -> str:
    """A verdict's reason in words; the values (log lines, states, titles) escaped, a log line cut at a word."""
    shown = {k: escape(clip_words(str(v), 300) if k == "text" else str(v)) for k, v in values.items()}
    return VERDICT_DETAILS[reason].format(**shown)


def draft_posted(user: str, draft_id: str, filename: str, extra_dirs: list[str], problems: list[str]) -> str:
    """Said with the drafted file: how to add it, or what it fails."""
    if problems:
        return redact(
            f":warning: <@{user}>: the draft {code(draft_id)} fails the library's checks: "
            f"{escape(clip_words('; '.join(problems), 800))}. "
            "Fix it before adding it (`docs/adding-a-signature.md`)."
        )
    where = extra_dirs[0] if extra_dirs else "/etc/denpex/signatures"
    config = "" if extra_dirs else f' (add `extra_dirs = ["{where}"]` under `[signatures]` in the bot\'s config first)'
    return redact(
        f":memo: <@{user}> drafted `{draft_id}`; it passes `denpex signatures test` and `lint` as produced. To add "
        f"it, save it in a directory of `[signatures] extra_dirs`{config}, write its prose (what happened, why, the "
        f"fix), and check it:\n```cp {filename} {where}/\ndenpex signatures test {draft_id} && denpex signatures "
        "lint```\nThe bot loads it at its next start."
    )


def draft_failed(reason: object) -> str:
    return redact(
        f":warning: I could not draft a signature from that line: {escape(clip_words(str(reason), 400))}. Pick another line (the "
        "exception's own line works best), or write one by hand: `docs/adding-a-signature.md`."
    )
