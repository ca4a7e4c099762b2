"""Block Kit messages, as pure functions of a report and the incident's state. No I/O.

Every message stays inside Block Kit's limits by construction (see blockkit.py)
and every string is passed through the secret masker before it leaves here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.blockkit import (
    BUTTON_VALUE,
    CHECKBOX_OPTIONS,
    FIELD_TEXT,
    HEADER_TEXT,
    MAX_TEXT,
    OPTION_TEXT,
    SECTION_TEXT,
    clip,
)
from bot.redact import redact, redact_blocks
from signatures import Diagnosis, Report, collateral_line, considered_line, render_text

SEVERITY_EMOJI = {
    "critical": ":red_circle:",
    "high": ":large_orange_circle:",
    "medium": ":large_yellow_circle:",
    "low": ":white_circle:",
}
CODE_LIMIT = SECTION_TEXT - 10  # room for the ``` fences
EVIDENCE_LINES = 8

ACK, FIX, NOT_THIS, MORE, CHECKLIST = (
    "denpex_ack",
    "denpex_fix_applied",
    "denpex_not_this",
    "denpex_more_evidence",
    "denpex_checklist",
)
USEFUL, MUTE, UNMUTE, DRAFT = "denpex_useful", "denpex_mute", "denpex_unmute", "denpex_draft"


@dataclass
class MessageState:
    incident_id: int
    source: str
    acknowledged: list[tuple[str, str]] = field(default_factory=list)  # (user id, when)
    fix_applied: list[tuple[str, str]] = field(default_factory=list)
    not_this: list[tuple[str, str]] = field(default_factory=list)
    checked: set[int] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    followups: list[str] = field(default_factory=list)  # one line per follow-up: what is watched, what was seen
    useful: list[str] = field(default_factory=list)  # user ids
    what_it_was: list[tuple[str, str | None, str | None]] = field(default_factory=list)  # Not this: user, class, note
    muted: tuple[str, str] | None = None  # (user id, when)


def _mrkdwn(text: str, limit: int = SECTION_TEXT) -> dict:
    return {"type": "mrkdwn", "text": clip(text, limit)}


def _section(text: str) -> dict:
    return {"type": "section", "text": _mrkdwn(text)}


def _code(lines: list[str], limit: int = CODE_LIMIT) -> str:
    body = "\n".join(line.replace("```", "'''") for line in lines)
    return "```" + clip(body, limit) + "```"


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


def _where(d: Diagnosis) -> str:
    rank = d.initiating_rank
    if rank is not None:
        who = f"rank {rank}"
    elif len(d.ranks) > 1:
        who = "every rank alike"
    else:
        who = "no single rank (job-wide)"
    return who + (f" on `{d.host}`" if d.host else "")


REQUEUE = {
    "restart": ":repeat: Requeue it",
    "drain_and_restart": ":construction: Drain the node, then requeue",
    "fix_and_restart": ":wrench: Fix first, then requeue",
}


def _why(report: Report, d: Diagnosis) -> str:
    """A few lines under Started on: why this rank, how sure, what else was considered and set aside, and
    whether to just requeue."""
    parts = []
    a = d.attribution
    if a.reasons:
        parts.append(f"*Why:* {'; '.join(r.text for r in a.reasons[:2])}")
    parts.append(f":mag: {considered_line(report)}")  # with the confidence
    if d.action in REQUEUE:
        parts.append(f"{REQUEUE[d.action]}: {d.action_reason}")
    return clip("\n".join(parts), 2900)


def _status_lines(state: MessageState) -> list[str]:
    lines = list(state.followups)
    lines += [f":eyes: Acknowledged by <@{u}> at {t}" for u, t in state.acknowledged]
    lines += [f":wrench: Fix applied by <@{u}> at {t}" for u, t in state.fix_applied]
    lines += [f":no_entry_sign: <@{u}> says this is not the cause ({t})" for u, t in state.not_this]
    lines += [
        f":label: <@{u}> says it was "
        + (f"`{cls}`" if cls else "something else")
        + (f": {clip(note, 300)}" if note else "")
        for u, cls, note in state.what_it_was
    ]
    if state.useful:
        lines.append(":+1: Useful to " + ", ".join(f"<@{u}>" for u in state.useful[:20]))
    if state.muted:
        lines.append(
            f":mute: Follow-ups and watch alerts muted in this thread by <@{state.muted[0]}> ({state.muted[1]})"
        )
    return lines


def _job_line(report: Report) -> list[str]:
    job = report.job
    if not job:
        return []
    return [f":file_cabinet: *{job.cluster}*: {job.summary}"] + [f"note: {n}" for n in job.notes[:3]]


def _stats(report: Report, source: str) -> str:
    s = report.stats
    ranks = s.ranks
    rank_text = (
        f"ranks {ranks[0]}-{ranks[-1]}" if len(ranks) > 1 else (f"rank {ranks[0]}" if ranks else "no ranks seen")
    )
    return (
        f"`{clip(source, 200)}` · {s.bytes / 1e6:.1f} MB · {s.lines:,} lines · {rank_text} · "
        f"scanned in {s.seconds:.1f}s"
    )


def _buttons(state: MessageState, diagnosed: bool = True) -> dict:
    """Acknowledge, Fix applied… and Useful (a diagnosis only), Not this, More evidence, Mute or Unmute, and
    Draft a signature (an unrecognised failure, or a diagnosis someone said is not the cause)."""
    value = str(state.incident_id)
    elements = [_button("Acknowledge", ACK, value, "primary")]
    if diagnosed:
        elements += [_button("Fix applied…", FIX, value), _button("Useful", USEFUL, value)]
    elements += [_button("Not this", NOT_THIS, value, "danger"), _button("More evidence", MORE, value)]
    elements.append(_button("Unmute", UNMUTE, value) if state.muted else _button("Mute", MUTE, value))
    if not diagnosed or state.not_this:
        elements.append(_button("Draft a signature", DRAFT, value))
    return {"type": "actions", "block_id": "denpex_buttons", "elements": elements}


def _checklist(items: list[str], state: MessageState) -> list[dict]:
    items = items[:CHECKBOX_OPTIONS]
    numbered = "\n".join(f"{i + 1}. {item}" for i, item in enumerate(items))
    options = [
        {"text": {"type": "plain_text", "text": clip(f"{i + 1}. {item}", OPTION_TEXT)}, "value": str(i)}
        for i, item in enumerate(items)
    ]
    checkboxes = {"type": "checkboxes", "action_id": CHECKLIST, "options": options}
    initial = [options[i] for i in sorted(state.checked) if i < len(options)]
    if initial:
        checkboxes["initial_options"] = initial
    return [
        _section("*Confirm it*\n" + numbered),
        {"type": "actions", "block_id": "denpex_checklist", "elements": [checkboxes]},
    ]


def diagnosis_message(report: Report, state: MessageState) -> tuple[str, list[dict]]:
    """The answer in the thread: diagnosis, unrecognised failure, or healthy."""
    top = report.top
    if top is not None:  # report.outcome == "diagnosed"
        text, blocks = _diagnosis(report, top, state)
    elif report.outcome == "unrecognised":
        text, blocks = _unrecognised(report, state)
    else:
        text = f"No failure found in {state.source}."
        blocks = [
            _section(
                f":white_check_mark: *No failure found.* No signature fired and no line looks like an "
                f"error.\n{_stats(report, state.source)}"
            )
        ]
        if report.job:
            blocks.append(_context(_job_line(report)))
        if state.notes:
            blocks.append(_context(state.notes))
    return clip(redact(text), MAX_TEXT), redact_blocks(blocks)


def _diagnosis(report: Report, d: Diagnosis, state: MessageState) -> tuple[str, list[dict]]:
    fs = d.first_seen
    header = f"{d.title} · {d.severity}"
    blocks: list[dict] = [
        {"type": "header", "text": {"type": "plain_text", "text": clip(header, HEADER_TEXT), "emoji": True}},
        _section(f"{SEVERITY_EMOJI.get(d.severity, '')} {d.summary}"),
        {
            "type": "section",
            "fields": [
                _mrkdwn(f"*Started on*\n{_where(d)}", FIELD_TEXT),
                _mrkdwn(f"*Signature*\n`{d.signature}` ({d.class_})", FIELD_TEXT),
                _mrkdwn(f"*First seen*\n`{clip(fs.source, 300)}:{fs.line}`", FIELD_TEXT),
                _mrkdwn(f"*When*\n{fs.time or 'no timestamp'}{' (inferred)' if fs.time_inferred else ''}", FIELD_TEXT),
            ],
        },
        _section("*First evidence*\n" + _code([fs.text], CODE_LIMIT - 30)),
    ]
    why = _why(report, d)
    if why:
        blocks.insert(3, _context([why]))
    if d.collateral:
        lines = "\n".join(f"• {collateral_line(c)}" for c in d.collateral[:8])
        blocks.append(_section(f"*Knock-on failures (not the cause)*\n{lines}"))
    excerpt: list[str] = []
    for ev in d.evidence:
        excerpt += (ev.context or [])[-4:] + [f"{ev.source.rsplit('/', 1)[-1]}:{ev.line}  {ev.text}"]
        excerpt += (ev.context_after or [])[:2]
        if len(excerpt) >= EVIDENCE_LINES * 2:
            break
    blocks.append(_section("*Evidence*\n" + _code([clip(line, 400) for line in excerpt])))
    blocks += _baseline(report)
    blocks.append(_section(f"*Fix*\n{d.fix}"))
    blocks += _checklist(d.checklist, state)
    blocks.append(_section(f"*Verify*\n`{d.verify}`"))
    blocks.append(_buttons(state))
    context = _job_line(report) + [_stats(report, state.source)] + _status_lines(state) + state.notes
    if len(report.diagnoses) > 1:
        others = ", ".join(f"`{o.signature}`" for o in report.diagnoses[1:4])
        context.append(f"Also seen, later or independent: {others}")
    blocks.append(_context(context))
    rank = f" on rank {d.initiating_rank}" if d.initiating_rank is not None else ""
    text = f"{d.title}{rank}: {d.summary}"
    return text, blocks


def _baseline(report: Report) -> list[dict]:
    """A section with the first lines this run printed that its good run never did (`--baseline`, or a
    Slurm job's last COMPLETED run), or none."""
    diff = report.baseline
    if diff is None or not diff.new:
        return []
    good = ", ".join(diff.good[:2]) + (f" and {len(diff.good) - 2} more" if len(diff.good) > 2 else "")
    lines = [
        f"[{'rank ' + str(n.rank) if n.rank is not None else 'no rank'}] "
        f"{n.source.rsplit('/', 1)[-1]}:{n.line}  {clip(n.text, 300)}"
        for n in diff.new[:6]
    ]
    head = f"*New since the good run* ({clip(good, 200)}): {diff.new_total} message(s) it never printed; first:"
    return [_section(head + "\n" + _code(lines))]


def _unrecognised(report: Report, state: MessageState) -> tuple[str, list[dict]]:
    lines = []
    for group in report.unrecognised[:8]:
        label = f"rank {group.rank}" if group.rank is not None else "no rank"
        lines += [f"[{label}] {ln.source.rsplit('/', 1)[-1]}:{ln.line}  {clip(ln.text, 300)}" for ln in group.lines[:3]]
    hint = report.unrecognised_hint
    guess = (
        f"\nIt reads like a {hint.family} problem (perhaps `{hint.class_}`; low confidence)."
        if hint and hint.class_
        else ""
    )
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "Unrecognised failure", "emoji": True}},
        *_baseline(report),  # what this run printed that its last good run never did leads, when it is known
        _section(f"No signature explains these errors. The first error-like lines of each rank:{guess}"),
        _section(_code(lines)),
        _buttons(state, diagnosed=False),
        _context(
            _job_line(report)
            + [
                _stats(report, state.source),
                "Know what this is? *Draft a signature* from one of these lines (or see `docs/adding-a-signature.md`)",
            ]
            + _status_lines(state)
            + state.notes
        ),
    ]
    return f"Unrecognised failure in {state.source}: no signature explains the errors.", blocks


FIX_VIEW = "denpex_fix_applied"


def fix_modal(incident_id: int, job: str | None) -> dict:
    """The Fix applied… modal: which rerun to watch, and a note."""
    blocks = [
        {
            "type": "input",
            "block_id": "rerun",
            "optional": True,
            "label": {"type": "plain_text", "text": "Rerun's job id"},
            "hint": {
                "type": "plain_text",
                "text": "e.g. 812346 or cluster/812346. I'll re-check it until the failure is proven gone, or back.",
            },
            "element": {
                "type": "plain_text_input",
                "action_id": "rerun_job",
                "placeholder": {"type": "plain_text", "text": "812346"},
            },
        }
    ]
    if job:
        blocks.append(
            {
                "type": "input",
                "block_id": "same",
                "optional": True,
                "label": {"type": "plain_text", "text": "Or"},
                "element": {
                    "type": "checkboxes",
                    "action_id": "same_job",
                    "options": [
                        {
                            "text": {"type": "plain_text", "text": clip(f"Same job, requeued ({job})", OPTION_TEXT)},
                            "value": "same",
                        }
                    ],
                },
            }
        )
    blocks.append(
        {
            "type": "input",
            "block_id": "note",
            "optional": True,
            "label": {"type": "plain_text", "text": "What was changed"},
            "element": {"type": "plain_text_input", "action_id": "fix_note", "multiline": True, "max_length": 2000},
        }
    )
    return {
        "type": "modal",
        "callback_id": FIX_VIEW,
        "private_metadata": str(incident_id),
        "title": {"type": "plain_text", "text": "Fix applied"},
        "submit": {"type": "plain_text", "text": "Watch the rerun"},
        "close": {"type": "plain_text", "text": "Cancel"},
        "blocks": blocks,
    }


NOT_THIS_VIEW, DRAFT_VIEW = "denpex_not_this_form", "denpex_draft_form"
DRAFT_OPTIONS = 100  # a static_select holds at most 100 options


def _plain(text: str) -> dict:
    return {"type": "plain_text", "text": text}


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


def status_message(rows: list[dict]) -> str:
    """`/denpex status`: this channel's open incidents."""
    if not rows:
        return "No open incidents in this channel."
    import time as _time

    lines = ["*Open incidents in this channel*"]
    for r in rows:
        next_check = ""
        if r.get("next_check"):
            minutes = max(0, (r["next_check"] - _time.time()) / 60)
            next_check = f", next check in {minutes:.0f} min" if minutes >= 1 else ", next check due now"
        lines.append(
            f"• #{r['id']} `{r['signature'] or 'unrecognised'}` from {clip(r['source'], 80)}: "
            f"{r['status'].replace('_', ' ')}{next_check} (opened {r['opened_at']})"
        )
    return redact("\n".join(lines))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _class_counts(classes: dict) -> str:
    return ", ".join(f"{cls} ×{n}" for cls, n in sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])))


def host_repeat(rec, window: str, kind: str | None) -> str:
    """One line under a diagnosis: this host's failures repeat; how to take it out of service."""
    reason = "denpex: repeated failures"
    if kind == "kubernetes":
        drain = f"`kubectl cordon {rec.host}`"
    elif kind == "slurm":
        drain = f'`scontrol update nodename={rec.host} state=drain reason="{reason}"`'
    else:
        drain = f'`scontrol update nodename={rec.host} state=drain reason="{reason}"` (Slurm) or `kubectl cordon {rec.host}`'
    return redact(
        f":repeat: {rec.host}: {_ordinal(rec.incidents)} incident in {window} ({_class_counts(rec.classes)}). "
        f"Drain it: {drain}"
    )


def hosts_message(records: list, window: str) -> str:
    """`/denpex hosts` (and `denpex hosts`): the hosts with the most incidents in the window."""
    if not records:
        return f"No incident named a host in the last {window}."
    lines = [f"*Hosts with the most incidents in the last {window}* (hardware failures weigh 1, others 0.25)"]
    for r in records:
        lines.append(
            f"• {r.host}: {r.incidents} incident(s), {r.hardware} hardware, weight {r.score:g} ({_class_counts(r.classes)})"
        )
    return redact("\n".join(lines))


def watches_lines(rows: list[dict]) -> list[str]:
    """The `/denpex status` lines of this channel's watches."""
    if not rows:
        return []
    asked = [r for r in rows if not str(r["requested_by"]).startswith("auto:")]
    auto = len(rows) - len(asked)
    lines = ["*Jobs being watched in this channel*"] + [
        f"• `{r['cluster']}/{r['job']}` since {r['created_at']} (asked by <@{r['requested_by']}>, {r['polls']} looks)"
        for r in asked
    ]
    if auto:  # [[watch.auto]]'s watch_running: one line, not one per running job
        lines.append(f"• {auto} running job(s) watched by `[[watch.auto]]` (watch_running), silent until an alert")
    return lines


def status_with_watches(incidents: list[dict], watches: list[dict]) -> str:
    if watches and not incidents:
        return redact("\n".join(watches_lines(watches)))
    text = status_message(incidents)
    return redact("\n".join([text, *watches_lines(watches)])) if watches else text


def watch_started(cluster: str, job: str, user: str, state: str, interval: float, stall: float) -> str:
    return (
        f":eyes: <@{user}> asked me to watch `{cluster}/{job}` ({state.lower()}). I read its logs every "
        f"{duration(interval)} and post in this thread when a failure starts, training stops for "
        f"{duration(stall)}, a checkpoint save runs much longer than the job's earlier ones, steps slow down, "
        f"or the job ends. `/denpex unwatch {job}` stops it."
    )


def watch_starting(cluster: str, job: str) -> str:
    return f"`{cluster}/{job}` is being set up for watching right now; ask again in a moment to stop it."


def watch_already(cluster: str, job: str) -> str:
    return f"`{cluster}/{job}` is already being watched in this channel (see `/denpex status`)."


def watch_stopped(cluster: str, job: str, user: str) -> str:
    return f":no_bell: <@{user}> stopped watching `{cluster}/{job}`."


def not_watched(job: str) -> str:
    return f"`{job}` is not being watched in this channel (`/denpex status` lists what is)."


def watch_needs_job(verb: str) -> str:
    return f"Which job? `/denpex {verb} <job id>` (`812345`, `NAME/812345`)."


def watch_job_ended(job: str, state: str) -> str:
    return f"Job `{job}` has already ended ({state}): nothing to watch. `/denpex diagnose {job}` tells why."


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
    return redact(f"{WATCH_ICONS.get(kind, ':bell:')} `{job}`: {clip(message, 1500)}")


def watch_closing(job: str, state: str, report: Report | None) -> str:
    """The watch's last message: the job ended, with its final state, and the failure that started it if any."""
    if state.split("/")[0] == "COMPLETED" and (report is None or report.top is None):
        return f":white_check_mark: `{job}` completed. Stopped watching."
    if report is not None and report.top is not None:
        d = report.top
        where = f" on rank {d.initiating_rank}" if d.initiating_rank is not None else ""
        return redact(
            f":x: `{job}` ended {state}: *{d.title}*{where}, {clip(d.first_seen.source, 120)}:{d.first_seen.line}\n"
            f"> {clip(d.first_seen.text, 300)}\n`/denpex diagnose {job}` gives the whole answer with its checklist. "
            "Stopped watching."
        )
    return f":grey_question: `{job}` ended {state}; its logs name no failure. Stopped watching."


def auto_diagnosis(job: dict, report: Report | None, problem: str | None = None) -> str:
    """[[watch.auto]]: a failed job nobody asked about, diagnosed in the channel."""
    who = f"{job.get('JobName', '?')}, {job.get('user') or job.get('Kind') or '?'}"
    head = f"`{job['JobId']}` ({clip(who, 120)}) ended {job.get('JobState', '?')}"
    ref = job.get("ref") or job["JobId"]  # what /denpex diagnose takes: with the cluster's name when it is needed
    if problem:
        return redact(f":x: {head}; its logs could not be read: {clip(problem, 400)}")
    if report is None or report.top is None:
        return redact(f":x: {head}; its logs name no failure. `/denpex diagnose {ref}` shows them.")
    d = report.top
    where = f" on rank {d.initiating_rank}" if d.initiating_rank is not None else ""
    return redact(
        f":x: {head}: *{d.title}*{where}, {clip(d.first_seen.source, 120)}:{d.first_seen.line}\n"
        f"> {clip(d.first_seen.text, 300)}\n*Fix:* {clip(d.fix, 600)}\n"
        f"`/denpex diagnose {ref}` gives the whole answer with its checklist and buttons."
    )


def watch_lost(job: str, reason: str) -> str:
    return redact(f":warning: Stopped watching `{job}`: {clip(reason, 400)}")


def progress_message(source: str, done: int, total: int | None, verb: str = "Diagnosing") -> tuple[str, list[dict]]:
    amount = f"{done / 1e6:,.0f} MB" + (f" of {total / 1e6:,.0f} MB" if total else "")
    text = f"{verb} {source}… {amount} read"
    return redact(text), redact_blocks(
        [_section(f":hourglass_flowing_sand: {verb} `{clip(source, 300)}`… {amount} read")]
    )


def queued_message(source: str, ahead: int, running: int) -> tuple[str, list[dict]]:
    """Said when every diagnosis slot is taken: where this request stands, instead of silence."""
    where = f"{ahead} ahead of you" if ahead else "next in line"
    text = f"Queued: {where} ({running} diagnoses running). {source} will start as soon as a slot frees up."
    return redact(text), redact_blocks(
        [
            _section(
                f":hourglass: Queued: *{where}* ({running} diagnoses running). "
                f"`{clip(source, 300)}` will start as soon as a slot frees up."
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

HELP = """*denpex* finds the failure that started a training job's crash.
• `/denpex diagnose <pasted log>`: diagnose a log pasted inline (Slack keeps the first 4,000 characters)
• `/denpex diagnose <job id>`: fetch the job's logs from the cluster (needs `[clusters]` in the bot's config)
• Drop a log file or an archive of rank logs (`.log`, `.gz`, `.zip`, `.tar.gz`) in a channel I'm in
• Mention me with a pasted log, or mention me in the thread of a message that has a log file
• `/denpex watch <job id>`: follow a running job's logs and say here when it fails, stalls, saves slowly or ends
• `/denpex unwatch <job id>`: stop following it
• `/denpex status`: this channel's open incidents, their next checks, and the jobs being watched
• `/denpex hosts`: the hosts with the most incidents lately (repeating hardware failures: drain them)
• `/denpex help`: this message"""

NOTHING_TO_DIAGNOSE = (
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
    return HELP if verb in ("", "help") else f"I don't know `{verb}`.\n\n{HELP}"


def warning(problem: object) -> str:
    """A refusal whose reason is already in words (a fetch error, an unreadable input)."""
    return f":warning: {problem}"


def not_a_paste(text: str) -> str:
    return (
        f":warning: `{text[:80]}` is neither a job id (`812345`, `812345_7`, `NAME/812345`, "
        "`NAME/namespace/job-name`, `NAME/raysubmit_…`: ASCII digits) nor a pasted log. Paste the log's lines "
        "after `/denpex diagnose`, or drop the log file in the channel."
    )


def not_allowed(cluster: str) -> str:
    return (
        f":no_entry: You may not fetch jobs from cluster `{cluster}`. Ask whoever runs denpex to add you (or one "
        "of your user groups) to that cluster's `allow` list."
    )


def not_allowed_field(cluster: str) -> str:
    """The same refusal, as a modal field's error (plain text, short)."""
    return f"You may not fetch jobs from cluster {cluster}."


def rerun_missing(incident_has_job: bool) -> str:
    return "Give the rerun's job id" + (', or tick "Same job".' if incident_has_job else ".")


def button_failed(error: str | None) -> str:
    return f":warning: That did not work: Slack said `{error}`."


def unreadable_file(error: str | None) -> str:
    return f":warning: I could not read that file from Slack (`{error}`)."


def empty_file(name: str) -> str:
    return f":warning: `{name}` is empty: there is nothing to diagnose."


def empty_download(name: str) -> str:
    return f"{name}: the file is empty: there is nothing to diagnose"


def file_too_big(name: str, size: str, limit: str) -> str:
    return f":warning: `{name}` is {size}; I diagnose files up to {limit}. Run `denpex diagnose` on it where it lives."


def no_download_address(name: str) -> str:
    return f":warning: Slack gave no download address for `{name}`."


def not_recorded(problem: object, report: Report) -> str:
    top = report.top
    title = f"{top.title}: " if top else ""
    return (
        f":warning: I could not record this incident: {problem}. {title}{top.summary if top else report.outcome}"
        "\nButtons and follow-ups need the database: ask again once it is fixed."
    )


def already_diagnosed(what: str, status: str, link: str) -> str:
    return f":link: Already diagnosed ({what}, {status.replace('_', ' ')}): {link}. Follow the incident in that thread."


def incident_link_fallback(incident_id: int) -> str:
    return f"incident #{incident_id}"


def duration(secs: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if secs >= size:
            return f"{secs / size:g} {unit}"
    return f"{secs:g} s"


def fix_applied(user: str, note: str, job: str, first: float, interval: float, window: float) -> str:
    said = f" ({note})" if note else ""
    return redact(
        f":wrench: <@{user}> applied a fix{said}. I'll check rerun `{job}` in {duration(first)}, then "
        f"every {duration(interval)} for {duration(window)}, and say here whether the failure is gone."
    )


VERDICT_ICONS = {
    "gone": ":white_check_mark:",
    "back": ":x:",
    "not_yet": ":hourglass_flowing_sand:",
    "inconclusive": ":hourglass:",
}
VERDICT_HEADLINES = {"gone": "Gone", "back": "Back", "not_yet": "Not yet", "inconclusive": "Inconclusive"}


def followup_line(followup: dict) -> str:
    """One follow-up in the incident's message: what is watched, or what was seen."""
    if followup["status"] == "scheduled" and not followup["verdict"]:
        return f":mag: Watching rerun `{followup['job']}` (fix by <@{followup['requested_by']}>)"
    verdict = followup["verdict"]
    label = f"{VERDICT_ICONS[verdict]} {VERDICT_HEADLINES[verdict]}" if verdict in VERDICT_ICONS else verdict
    return f"{label}: rerun `{followup['job']}` ({followup['updated_at']})"


def followup_announcement(verdict: str, detail: str, job: str, requested_by: str) -> str:
    """A check's outcome, said in the incident's thread."""
    mention = f" <@{requested_by}>" if verdict == "back" else ""
    text = f"{VERDICT_ICONS[verdict]} *{VERDICT_HEADLINES[verdict]}* — rerun `{job}`: {detail}.{mention}"
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
    "vanished": "the rerun `{job}` vanished from the scheduler: {error}",
    "window_ended": "the watch window ended; last seen: {detail}",
}


def verdict_detail(reason: str, **values: object) -> str:
    return VERDICT_DETAILS[reason].format(**values)


def draft_posted(user: str, draft_id: str, filename: str, extra_dirs: list[str], problems: list[str]) -> str:
    """Said with the drafted file: how to add it, or what it fails."""
    if problems:
        return redact(
            f":warning: <@{user}>: the draft `{draft_id}` fails the library's checks: {clip('; '.join(problems), 800)}. "
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
        f":warning: I could not draft a signature from that line: {clip(str(reason), 400)}. Pick another line (the "
        "exception's own line works best), or write one by hand: `docs/adding-a-signature.md`."
    )
