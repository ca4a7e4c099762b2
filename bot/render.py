"""Block Kit messages, as pure functions of a report and the incident's state. No I/O.

Every message stays inside Block Kit's limits by construction (see blockkit.py)
and every string is passed through the secret masker before it leaves here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from signatures import Diagnosis, Report, collateral_line, render_text

from bot.blockkit import (BUTTON_VALUE, CHECKBOX_OPTIONS, FIELD_TEXT, HEADER_TEXT, MAX_TEXT, OPTION_TEXT,
                          SECTION_TEXT, clip)
from bot.redact import redact, redact_blocks

SEVERITY_EMOJI = {"critical": ":red_circle:", "high": ":large_orange_circle:", "medium": ":large_yellow_circle:",
                  "low": ":white_circle:"}
CODE_LIMIT = SECTION_TEXT - 10  # room for the ``` fences
EVIDENCE_LINES = 8

ACK, FIX, NOT_THIS, MORE, CHECKLIST = ("denpex_ack", "denpex_fix_applied", "denpex_not_this",
                                       "denpex_more_evidence", "denpex_checklist")


@dataclass
class MessageState:
    incident_id: int
    source: str
    acknowledged: list[tuple[str, str]] = field(default_factory=list)   # (user id, when)
    fix_applied: list[tuple[str, str]] = field(default_factory=list)
    not_this: list[tuple[str, str]] = field(default_factory=list)
    checked: set[int] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    followups: list[str] = field(default_factory=list)   # one line per follow-up: what is watched, what was seen


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
    button = {"type": "button", "text": {"type": "plain_text", "text": text, "emoji": True},
              "action_id": action_id, "value": clip(value, BUTTON_VALUE)}
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


REQUEUE = {"restart": ":repeat: Requeue it", "drain_and_restart": ":construction: Drain the node, then requeue",
           "fix_and_restart": ":wrench: Fix first, then requeue"}


def _why(d: Diagnosis) -> str:
    """One or two lines under Started on: why this rank, how sure, and whether to just requeue."""
    parts = []
    a = d.attribution
    if a.reasons:
        parts.append(f"*Why:* {'; '.join(r.text for r in a.reasons[:2])} _({a.confidence} confidence)_")
    if d.action in REQUEUE:
        parts.append(f"{REQUEUE[d.action]}: {d.action_reason}")
    return clip("\n".join(parts), 2900)


def _status_lines(state: MessageState) -> list[str]:
    lines = list(state.followups)
    lines += [f":eyes: Acknowledged by <@{u}> at {t}" for u, t in state.acknowledged]
    lines += [f":wrench: Fix applied by <@{u}> at {t}" for u, t in state.fix_applied]
    lines += [f":no_entry_sign: <@{u}> says this is not the cause ({t})" for u, t in state.not_this]
    return lines


def _job_line(report: Report) -> list[str]:
    job = report.job
    if not job:
        return []
    return [f":file_cabinet: *{job.cluster}*: {job.summary}"] + [f"note: {n}" for n in job.notes[:3]]


def _stats(report: Report, source: str) -> str:
    s = report.stats
    ranks = s.ranks
    rank_text = f"ranks {ranks[0]}-{ranks[-1]}" if len(ranks) > 1 else (f"rank {ranks[0]}" if ranks else "no ranks seen")
    return (f"`{clip(source, 200)}` · {s.bytes / 1e6:.1f} MB · {s.lines:,} lines · {rank_text} · "
            f"scanned in {s.seconds:.1f}s")


def _buttons(state: MessageState, with_fix: bool = True) -> dict:
    value = str(state.incident_id)
    elements = [_button("Acknowledge", ACK, value, "primary")]
    if with_fix:
        elements.append(_button("Fix applied…", FIX, value))
    elements += [_button("Not this", NOT_THIS, value, "danger"), _button("More evidence", MORE, value)]
    return {"type": "actions", "block_id": "denpex_buttons", "elements": elements}


def _checklist(items: list[str], state: MessageState) -> list[dict]:
    items = items[:CHECKBOX_OPTIONS]
    numbered = "\n".join(f"{i + 1}. {item}" for i, item in enumerate(items))
    options = [{"text": {"type": "plain_text", "text": clip(f"{i + 1}. {item}", OPTION_TEXT)}, "value": str(i)}
               for i, item in enumerate(items)]
    checkboxes = {"type": "checkboxes", "action_id": CHECKLIST, "options": options}
    initial = [options[i] for i in sorted(state.checked) if i < len(options)]
    if initial:
        checkboxes["initial_options"] = initial
    return [_section("*Confirm it*\n" + numbered),
            {"type": "actions", "block_id": "denpex_checklist", "elements": [checkboxes]}]


def diagnosis_message(report: Report, state: MessageState) -> tuple[str, list[dict]]:
    """The answer in the thread: diagnosis, unrecognised failure, or healthy."""
    if report.outcome == "diagnosed":
        text, blocks = _diagnosis(report, state)
    elif report.outcome == "unrecognised":
        text, blocks = _unrecognised(report, state)
    else:
        text = f"No failure found in {state.source}."
        blocks = [_section(f":white_check_mark: *No failure found.* No signature fired and no line looks like an "
                           f"error.\n{_stats(report, state.source)}")]
        if report.job:
            blocks.append(_context(_job_line(report)))
        if state.notes:
            blocks.append(_context(state.notes))
    return clip(redact(text), MAX_TEXT), redact_blocks(blocks)


def _diagnosis(report: Report, state: MessageState) -> tuple[str, list[dict]]:
    d = report.top
    fs = d.first_seen
    header = f"{d.title} · {d.severity}"
    blocks: list[dict] = [
        {"type": "header", "text": {"type": "plain_text", "text": clip(header, HEADER_TEXT), "emoji": True}},
        _section(f"{SEVERITY_EMOJI.get(d.severity, '')} {d.summary}"),
        {"type": "section", "fields": [
            _mrkdwn(f"*Started on*\n{_where(d)}", FIELD_TEXT),
            _mrkdwn(f"*Signature*\n`{d.signature}` ({d.class_})", FIELD_TEXT),
            _mrkdwn(f"*First seen*\n`{clip(fs.source, 300)}:{fs.line}`", FIELD_TEXT),
            _mrkdwn(f"*When*\n{fs.time or 'no timestamp'}{' (inferred)' if fs.time_inferred else ''}", FIELD_TEXT),
        ]},
        _section("*First evidence*\n" + _code([fs.text], CODE_LIMIT - 30)),
    ]
    why = _why(d)
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


def _unrecognised(report: Report, state: MessageState) -> tuple[str, list[dict]]:
    lines = []
    for group in report.unrecognised[:8]:
        label = f"rank {group.rank}" if group.rank is not None else "no rank"
        lines += [f"[{label}] {ln.source.rsplit('/', 1)[-1]}:{ln.line}  {clip(ln.text, 300)}"
                  for ln in group.lines[:3]]
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "Unrecognised failure", "emoji": True}},
        _section("No signature explains these errors. The first error-like lines of each rank:"),
        _section(_code(lines)),
        _buttons(state, with_fix=False),
        _context(_job_line(report) + [_stats(report, state.source), "Know what this is? Add a signature: "
                  "`docs/adding-a-signature.md`"] + _status_lines(state) + state.notes),
    ]
    return f"Unrecognised failure in {state.source}: no signature explains the errors.", blocks


FIX_VIEW = "denpex_fix_applied"


def fix_modal(incident_id: int, job: str | None) -> dict:
    """The Fix applied… modal: which rerun to watch, and a note."""
    blocks = [{"type": "input", "block_id": "rerun", "optional": True,
               "label": {"type": "plain_text", "text": "Rerun's job id"},
               "hint": {"type": "plain_text", "text": "e.g. 812346 or cluster/812346. I'll re-check it until the "
                                                      "failure is proven gone, or back."},
               "element": {"type": "plain_text_input", "action_id": "rerun_job",
                           "placeholder": {"type": "plain_text", "text": "812346"}}}]
    if job:
        blocks.append({"type": "input", "block_id": "same", "optional": True,
                       "label": {"type": "plain_text", "text": "Or"},
                       "element": {"type": "checkboxes", "action_id": "same_job", "options": [
                           {"text": {"type": "plain_text", "text": clip(f"Same job, requeued ({job})", OPTION_TEXT)},
                            "value": "same"}]}})
    blocks.append({"type": "input", "block_id": "note", "optional": True,
                   "label": {"type": "plain_text", "text": "What was changed"},
                   "element": {"type": "plain_text_input", "action_id": "fix_note", "multiline": True,
                               "max_length": 2000}})
    return {"type": "modal", "callback_id": FIX_VIEW, "private_metadata": str(incident_id),
            "title": {"type": "plain_text", "text": "Fix applied"},
            "submit": {"type": "plain_text", "text": "Watch the rerun"},
            "close": {"type": "plain_text", "text": "Cancel"}, "blocks": blocks}


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
        lines.append(f"• #{r['id']} `{r['signature'] or 'unrecognised'}` from {clip(r['source'], 80)}: "
                     f"{r['status'].replace('_', ' ')}{next_check} (opened {r['opened_at']})")
    return redact("\n".join(lines))


def progress_message(source: str, done: int, total: int | None, verb: str = "Diagnosing") -> tuple[str, list[dict]]:
    amount = f"{done / 1e6:,.0f} MB" + (f" of {total / 1e6:,.0f} MB" if total else "")
    text = f"{verb} {source}… {amount} read"
    return redact(text), redact_blocks([_section(f":hourglass_flowing_sand: {verb} `{clip(source, 300)}`… "
                                                 f"{amount} read")])


def queued_message(source: str, ahead: int, running: int) -> tuple[str, list[dict]]:
    """Said when every diagnosis slot is taken: where this request stands, instead of silence."""
    where = f"{ahead} ahead of you" if ahead else "next in line"
    text = f"Queued: {where} ({running} diagnoses running). {source} will start as soon as a slot frees up."
    return redact(text), redact_blocks([_section(f":hourglass: Queued: *{where}* ({running} diagnoses running). "
                                                 f"`{clip(source, 300)}` will start as soon as a slot frees up.")])


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
            lines.append(f"  collateral {collateral_line(c)}; first: {c.first_seen.source}:"
                         f"{c.first_seen.line}: {c.first_seen.text}")
    return redact("\n".join(lines) + "\n")
