"""Block Kit limits, checked by us before every post (slack_sdk's model validation misses some), and the
mrkdwn primitives every message is written with.

`problems(blocks)` returns what Slack would refuse; the renderer keeps within
these limits by construction and the tests hold it to them. `visible(blocks)` is what a reader sees of a
message, counted by the first-screen budget (FIRST_SCREEN_BLOCKS, FIRST_SCREEN_CHARS).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

MAX_BLOCKS = 50
MAX_TEXT = 40_000  # top-level `text`: msg_too_long beyond this
SECTION_TEXT = 3000
SECTION_FIELDS = 10
FIELD_TEXT = 2000
HEADER_TEXT = 150
CONTEXT_ELEMENTS = 10
BUTTON_TEXT = 75
BUTTON_VALUE = 2000
ACTION_ID = 255
BLOCK_ID = 255
CHECKBOX_OPTIONS = 10
# an option's text and its description: 75 characters each, value 150 (Block Kit reference, "Option object")
OPTION_TEXT = 75
OPTION_DESCRIPTION = 75
OPTION_VALUE = 150
ACTIONS_ELEMENTS = 25

# The answer's first screen (the message at the top of its thread): what an on-call engineer reads before
# scrolling. 8 blocks and 1,200 visible characters keep it within one screen of a 600 px column; see README.
FIRST_SCREEN_BLOCKS = 8
FIRST_SCREEN_CHARS = 1200


def clip(text: str, limit: int) -> str:
    """Cut to `limit` characters, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_words(text: str, limit: int) -> str:
    """Cut to `limit` characters at a word boundary (a word longer than a third of the limit is cut)."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space > limit * 2 // 3:
        head = head[:space]
    return head.rstrip(" ,;:.") + "…"


def escape(text: str) -> str:
    """Text for a mrkdwn field: `&`, `<` and `>` are Slack's control characters and must be sent as entities
    (api.slack.com/reference/surfaces/formatting#escaping), or `grep … <log>` reads as a broken link."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def code(text: str) -> str:
    """Inline code in mrkdwn: escaped (entities are decoded inside code too), backticks kept out."""
    return "`" + escape(text.replace("`", "'")) + "`"


def date(epoch: float, token: str = "{date_short_pretty} {time}") -> str:
    """A time each reader sees in their own time zone: `<!date^epoch^token|fallback>` (formatting#date-formatting);
    the fallback (UTC) is what clients that cannot localise show."""
    when = datetime.fromtimestamp(epoch, UTC)
    fallback = when.strftime("%H:%M UTC" if token in ("{time}", "{time_secs}") else "%Y-%m-%d %H:%M UTC")
    return f"<!date^{int(epoch)}^{token}|{fallback}>"


def epoch_of(iso: str | None) -> float | None:
    """An ISO time as the store and the reports write it ("2026-11-30T12:10:05Z") in seconds, or None."""
    if not iso:
        return None
    try:
        when = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def link(url: str, label: str) -> str:
    """`<url|label>`: both escaped (an `&` in a URL's query too, as Slack itself writes it)."""
    return f"<{escape(url)}|{escape(label).replace('|', '/')}>"


_MARKUP = re.compile(
    r"<(?:!date\^\d+\^([^^|>]*)[^>]*|[@#!][^>|]*\|([^>]*)|@([A-Z0-9]+)|#([A-Z0-9]+)|[^>|]*\|([^>]*)|([^>]*))>"
)
_EMOJI = re.compile(r":[a-z0-9_+-]+:")
# how long each date token reads at most in a client (formatting#date-formatting), for counting
_DATE_TOKENS = {
    "{date_num}": "2014-02-18",
    "{date}": "February 18th, 2014",
    "{date_short}": "Feb 18, 2014",
    "{date_long}": "Tuesday, February 18th, 2014",
    "{date_pretty}": "February 18th, 2014",
    "{date_short_pretty}": "Feb 18, 2014",
    "{date_long_pretty}": "Tuesday, February 18th, 2014",
    "{time}": "10:39 PM",
    "{time_secs}": "10:39:42 PM",
    "{ago}": "10 minutes ago",
}


def _shown(match: re.Match) -> str:
    token, fallback, user, channel, label, bare = match.groups()
    if token is not None:
        return re.sub(r"\{\w+\}", lambda t: _DATE_TOKENS.get(t.group(0), t.group(0)), token)
    if user or channel:
        return "@" + "x" * 8  # a name as Slack shows it: about as long as a short display name
    return fallback if fallback is not None else label if label is not None else bare or ""


_CODE_SPAN = re.compile(r"(```.*?```|`[^`]*`)", re.S)


def visible_mrkdwn(text: str) -> str:
    """What a reader sees of mrkdwn: links and dates as their labels, mentions as names, emoji as one
    character, entities decoded, formatting marks gone (code shown as it is)."""
    parts = []
    for i, part in enumerate(_CODE_SPAN.split(_MARKUP.sub(_shown, text))):
        if i % 2:
            parts.append(part.strip("`"))
        else:
            parts.append(re.sub(r"(?<!\w)_|_(?!\w)", "", _EMOJI.sub("●", part).replace("*", "")))
    return "".join(parts).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def visible(blocks: list[dict]) -> str:
    """Every text a reader sees in a message's blocks, one per line (the first-screen budget counts these)."""
    out: list[str] = []

    def add(obj: dict | None) -> None:
        if obj and obj.get("text"):
            plain = _EMOJI.sub("●", obj["text"]) if obj.get("emoji", True) else obj["text"]
            out.append(visible_mrkdwn(obj["text"]) if obj.get("type") == "mrkdwn" else plain)

    for block in blocks:
        add(block.get("text"))
        for f in block.get("fields", []):
            add(f)
        for el in block.get("elements", []):
            if el.get("type") in ("mrkdwn", "plain_text"):
                add(el)
            add(el.get("text") if isinstance(el.get("text"), dict) else None)
            for opt in el.get("options", []):
                add(opt.get("text"))
                add(opt.get("description"))
    return "\n".join(out)


def problems(blocks: list[dict], text: str | None = None) -> list[str]:
    out: list[str] = []
    if text is not None and len(text) > MAX_TEXT:
        out.append(f"text: {len(text)} > {MAX_TEXT} characters")
    if len(blocks) > MAX_BLOCKS:
        out.append(f"{len(blocks)} blocks > {MAX_BLOCKS}")
    block_ids, action_ids = set(), set()

    def check_text(obj: dict | None, limit: int, where: str, plain_only: bool = False) -> None:
        if obj is None:
            return
        if obj.get("type") not in (("plain_text",) if plain_only else ("plain_text", "mrkdwn")):
            out.append(f"{where}: text type {obj.get('type')!r}")
        if not obj.get("text"):
            out.append(f"{where}: empty text")
        elif len(obj["text"]) > limit:
            out.append(f"{where}: {len(obj['text'])} > {limit} characters")

    for i, block in enumerate(blocks):
        where = f"blocks[{i}]({block.get('type')})"
        if "block_id" in block:
            if len(block["block_id"]) > BLOCK_ID or block["block_id"] in block_ids:
                out.append(f"{where}: block_id too long or repeated")
            block_ids.add(block["block_id"])
        kind = block.get("type")
        if kind == "header":
            check_text(block.get("text"), HEADER_TEXT, where, plain_only=True)
        elif kind == "section":
            if "text" not in block and "fields" not in block:
                out.append(f"{where}: needs text or fields")
            check_text(block.get("text"), SECTION_TEXT, where)
            fields = block.get("fields", [])
            if len(fields) > SECTION_FIELDS:
                out.append(f"{where}: {len(fields)} fields > {SECTION_FIELDS}")
            for j, field in enumerate(fields):
                check_text(field, FIELD_TEXT, f"{where}.fields[{j}]")
        elif kind == "context":
            elements = block.get("elements", [])
            if not elements or len(elements) > CONTEXT_ELEMENTS:
                out.append(f"{where}: {len(elements)} elements (1..{CONTEXT_ELEMENTS})")
            for j, el in enumerate(elements):
                check_text(el, SECTION_TEXT, f"{where}.elements[{j}]")
        elif kind == "actions":
            elements = block.get("elements", [])
            if not elements or len(elements) > ACTIONS_ELEMENTS:
                out.append(f"{where}: {len(elements)} elements (1..{ACTIONS_ELEMENTS})")
            for j, el in enumerate(elements):
                ew = f"{where}.elements[{j}]"
                aid = el.get("action_id", "")
                if len(aid) > ACTION_ID or aid in action_ids:
                    out.append(f"{ew}: action_id too long or repeated")
                action_ids.add(aid)
                if el.get("type") == "button":
                    check_text(el.get("text"), BUTTON_TEXT, ew, plain_only=True)
                    if len(el.get("value", "")) > BUTTON_VALUE:
                        out.append(f"{ew}: value > {BUTTON_VALUE}")
                elif el.get("type") == "checkboxes":
                    options = el.get("options", [])
                    if not 1 <= len(options) <= CHECKBOX_OPTIONS:
                        out.append(f"{ew}: {len(options)} options (1..{CHECKBOX_OPTIONS})")
                    values = [o.get("value") for o in options]
                    for k, opt in enumerate(options):
                        check_text(opt.get("text"), OPTION_TEXT, f"{ew}.options[{k}]")
                        check_text(opt.get("description"), OPTION_TEXT, f"{ew}.options[{k}].description")
                        if len(opt.get("value", "")) > OPTION_VALUE:
                            out.append(f"{ew}.options[{k}]: value > {OPTION_VALUE}")
                    for opt in el.get("initial_options", []):
                        if opt not in options or opt.get("value") not in values:
                            out.append(f"{ew}: initial option not among options")
        elif kind == "divider":
            pass
        else:
            out.append(f"{where}: unexpected block type")
    return out
