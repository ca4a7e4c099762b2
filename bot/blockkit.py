"""Block Kit limits, checked by us before every post (slack_sdk's model validation misses some).

`problems(blocks)` returns what Slack would refuse; the renderer keeps within
these limits by construction and the tests hold it to them.
"""

from __future__ import annotations

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
OPTION_TEXT = 75
OPTION_VALUE = 150
ACTIONS_ELEMENTS = 25


def clip(text: str, limit: int) -> str:
    """Cut to `limit` characters, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
