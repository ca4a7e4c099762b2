"""Block Kit validation, the way Slack's API applies it.

The fake Slack server runs every ``blocks`` / ``view`` argument through this module and refuses
what Slack would refuse; the bot's own tests can import it to check what they build::

    from fake_slack.blockkit import assert_valid_blocks, validate_blocks
    assert validate_blocks(blocks) == []
    assert_valid_blocks(blocks)                 # raises InvalidBlocks listing every problem

Error strings follow Slack's format, ``<reason> [json-pointer:<where>]``; Slack returns them in
``errors`` and, prefixed with ``[ERROR] ``, in ``response_metadata.messages``, e.g.::

    {"ok": false, "error": "invalid_blocks",
     "errors": ["must be less than 151 characters [json-pointer:/blocks/0/text/text]"],
     "response_metadata": {"messages": ["[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]"]}}

Reasons observed from Slack (quoted in public bug reports) are used verbatim:
``must be less than N characters``, ``must be more than 0 characters``, ``no more than N items
allowed``, ``missing required field: X``, ``invalid additional property: X``, ``failed to match all
allowed schemas``, `` `action_id` "X" already exists``.  A few reasons for rarer cases (an
``initial_options`` entry that is not among ``options``, a section with neither text nor fields)
are worded in the same style but not copied from Slack.

Limits (docs.slack.dev Block Kit reference): 50 blocks per message, 100 per modal/Home tab;
block_id <= 255 chars and unique; action_id <= 255 chars and unique within the message or view
(Slack documents uniqueness per block; this validator is stricter: see ``action_id_scope``);
header text plain_text <= 150; section text <= 3000, fields <= 10 each <= 2000; context <= 10
elements; actions <= 25 elements; button text plain_text <= 75, value <= 2000, url <= 3000,
style primary|danger; checkboxes/radio 1..10 options; option text <= 75, value <= 150,
description <= 75; select options <= 100; overflow 1..5 options; input label/hint <= 2000;
image alt_text <= 2000; markdown block text <= 12000; view title/submit/close plain_text <= 24,
private_metadata <= 3000, callback_id/external_id <= 255.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

__all__ = [
    "InvalidBlocks",
    "MESSAGE_MAX_BLOCKS",
    "VIEW_MAX_BLOCKS",
    "MAX_MESSAGE_TEXT",
    "assert_valid_blocks",
    "assert_valid_view",
    "check_message",
    "parse_json_array",
    "slack_messages",
    "validate_blocks",
    "validate_view",
]

MESSAGE_MAX_BLOCKS = 50
VIEW_MAX_BLOCKS = 100
MAX_MESSAGE_TEXT = 40_000
MAX_ATTACHMENTS = 100
MAX_MARKDOWN_TEXT = 12_000

SURFACES = ("message", "modal", "home")


class InvalidBlocks(AssertionError):
    """Raised by the ``assert_valid_*`` helpers; ``.errors`` holds Slack-style reasons."""

    def __init__(self, error: str, errors: list[str]):
        self.error = error
        self.errors = list(errors)
        super().__init__(f"{error}: " + "; ".join(errors))


def slack_messages(errors: Iterable[str]) -> list[str]:
    """The ``response_metadata.messages`` form of validation errors."""
    return [f"[ERROR] {e}" for e in errors]


def parse_json_array(value: Any) -> tuple[list | None, bool]:
    """Decode a ``blocks``/``attachments`` argument as Slack does.

    Returns ``(list, True)`` for a JSON array (a list already decoded from a JSON body, or a
    string holding one), ``(None, True)`` when the argument is absent/empty, and
    ``(None, False)`` when it is present but not a JSON array (Slack: ``invalid_blocks_format``).
    """
    if value is None:
        return None, True
    if isinstance(value, list):
        return value, True
    if isinstance(value, (bytes, bytearray)):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        if value.strip() == "":
            return None, True
        try:
            decoded = json.loads(value)
        except ValueError:
            return None, False
        if isinstance(decoded, list):
            return decoded, True
        return None, False
    return None, False


# --------------------------------------------------------------------------------------------
# The validator


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^\d{2}:\d{2}$")

_SELECT_ALL = {
    "static_select",
    "external_select",
    "users_select",
    "conversations_select",
    "channels_select",
}
_MULTI_SELECT_ALL = {"multi_" + s for s in _SELECT_ALL}

ACTIONS_ELEMENTS = (
    {
        "button",
        "checkboxes",
        "datepicker",
        "datetimepicker",
        "overflow",
        "radio_buttons",
        "timepicker",
        "workflow_button",
    }
    | _SELECT_ALL
    | _MULTI_SELECT_ALL
)
SECTION_ACCESSORIES = (
    {
        "button",
        "checkboxes",
        "datepicker",
        "image",
        "overflow",
        "radio_buttons",
        "timepicker",
        "workflow_button",
    }
    | _SELECT_ALL
    | _MULTI_SELECT_ALL
)
INPUT_ELEMENTS = (
    {
        "checkboxes",
        "datepicker",
        "datetimepicker",
        "email_text_input",
        "file_input",
        "number_input",
        "plain_text_input",
        "radio_buttons",
        "rich_text_input",
        "timepicker",
        "url_text_input",
    }
    | _SELECT_ALL
    | _MULTI_SELECT_ALL
)

# block type -> surfaces it is available in
BLOCK_SURFACES = {
    "section": SURFACES,
    "header": SURFACES,
    "divider": SURFACES,
    "context": SURFACES,
    "actions": SURFACES,
    "input": SURFACES,
    "rich_text": SURFACES,
    "image": SURFACES,
    "file": ("message",),
    "markdown": ("message",),
}


class _Validator:
    def __init__(self, surface: str, action_id_scope: str = "message"):
        if surface not in SURFACES:
            raise ValueError(f"surface must be one of {SURFACES}, not {surface!r}")
        if action_id_scope not in ("message", "block"):
            raise ValueError("action_id_scope must be 'message' or 'block'")
        self.surface = surface
        self.action_id_scope = action_id_scope
        self.errors: list[str] = []
        self.block_ids: set[str] = set()
        self.action_ids: set[str] = set()

    # ---- primitives ------------------------------------------------------------------------

    def err(self, reason: str, pointer: str) -> None:
        self.errors.append(f"{reason} [json-pointer:{pointer}]")

    def obj(self, v: Any, p: str) -> bool:
        if not isinstance(v, dict):
            self.err("must provide an object", p)
            return False
        return True

    def only(self, v: dict, allowed: Iterable[str], p: str) -> None:
        allowed = set(allowed)
        for key in v:
            if key not in allowed:
                self.err(f"invalid additional property: {key}", p)

    def required(self, v: dict, keys: Iterable[str], p: str) -> bool:
        ok = True
        for key in keys:
            if key not in v or v[key] is None:
                self.err(f"missing required field: {key}", p)
                ok = False
        return ok

    def string(self, v: dict, key: str, p: str, *, max_len: int | None = None, min_len: int = 0) -> str | None:
        if key not in v:
            return None
        s = v[key]
        if not isinstance(s, str):
            self.err("must provide a string", f"{p}/{key}")
            return None
        if len(s) < min_len:
            self.err(f"must be more than {min_len - 1} characters", f"{p}/{key}")
        if max_len is not None and len(s) > max_len:
            self.err(f"must be less than {max_len + 1} characters", f"{p}/{key}")
        return s

    def boolean(self, v: dict, key: str, p: str) -> None:
        if key in v and not isinstance(v[key], bool):
            self.err("must provide a boolean", f"{p}/{key}")

    def integer(self, v: dict, key: str, p: str, *, minimum: int | None = None, maximum: int | None = None) -> None:
        if key not in v:
            return
        n = v[key]
        if isinstance(n, bool) or not isinstance(n, int):
            self.err("must provide an integer", f"{p}/{key}")
            return
        if minimum is not None and n < minimum:
            self.err(f"must be at least {minimum}", f"{p}/{key}")
        if maximum is not None and n > maximum:
            self.err(f"must be at most {maximum}", f"{p}/{key}")

    def enum(self, v: dict, key: str, values: Iterable[str], p: str) -> None:
        if key in v and v[key] not in tuple(values):
            self.err("must be a valid enum value", f"{p}/{key}")

    def array(self, v: dict, key: str, p: str, *, min_items: int = 0, max_items: int | None = None) -> list | None:
        if key not in v:
            return None
        a = v[key]
        if not isinstance(a, list):
            self.err("must provide an array", f"{p}/{key}")
            return None
        if len(a) < min_items:
            self.err(f"must provide at least {min_items} item{'s' if min_items != 1 else ''}", f"{p}/{key}")
        if max_items is not None and len(a) > max_items:
            self.err(f"no more than {max_items} items allowed", f"{p}/{key}")
        return a

    # ---- composition objects ---------------------------------------------------------------

    def text(self, v: Any, p: str, *, max_len: int = 3000, plain_only: bool = False) -> None:
        if not self.obj(v, p):
            return
        if "type" not in v:
            self.err("missing required field: type", p)
            return
        kinds = ("plain_text",) if plain_only else ("plain_text", "mrkdwn")
        if v["type"] not in kinds:
            self.err("must be a valid enum value", f"{p}/type")
            return
        if v["type"] == "plain_text":
            self.only(v, ("type", "text", "emoji"), p)
            self.boolean(v, "emoji", p)
        else:
            self.only(v, ("type", "text", "verbatim"), p)
            self.boolean(v, "verbatim", p)
        if self.required(v, ("text",), p):
            self.string(v, "text", p, max_len=max_len, min_len=1)

    def confirm(self, v: Any, p: str) -> None:
        if not self.obj(v, p):
            return
        self.only(v, ("title", "text", "confirm", "deny", "style"), p)
        self.required(v, ("title", "text", "confirm", "deny"), p)
        if "title" in v:
            self.text(v["title"], f"{p}/title", max_len=100, plain_only=True)
        if "text" in v:
            self.text(v["text"], f"{p}/text", max_len=300)
        for key in ("confirm", "deny"):
            if key in v:
                self.text(v[key], f"{p}/{key}", max_len=30, plain_only=True)
        self.enum(v, "style", ("primary", "danger"), p)

    def option(self, v: Any, p: str, *, plain_only: bool, allow_url: bool = False) -> None:
        if not self.obj(v, p):
            return
        allowed = ["text", "value", "description"] + (["url"] if allow_url else [])
        self.only(v, allowed, p)
        self.required(v, ("text", "value"), p)
        if "text" in v:
            self.text(v["text"], f"{p}/text", max_len=75, plain_only=plain_only)
        self.string(v, "value", p, max_len=150, min_len=1)
        if "description" in v:
            self.text(v["description"], f"{p}/description", max_len=75, plain_only=plain_only)
        self.string(v, "url", p, max_len=3000, min_len=1)

    def options(
        self, v: dict, p: str, *, min_items: int, max_items: int, plain_only: bool, allow_url: bool = False
    ) -> list:
        opts = self.array(v, "options", p, min_items=min_items, max_items=max_items) or []
        for i, o in enumerate(opts):
            self.option(o, f"{p}/options/{i}", plain_only=plain_only, allow_url=allow_url)
        return opts

    def initial_subset(self, v: dict, key: str, opts: list, p: str, *, single: bool) -> None:
        if key not in v:
            return
        chosen = [v[key]] if single else v[key]
        if not single and not isinstance(chosen, list):
            self.err("must provide an array", f"{p}/{key}")
            return
        for i, o in enumerate(chosen):
            where = f"{p}/{key}" if single else f"{p}/{key}/{i}"
            if not isinstance(o, dict):
                self.err("must provide an object", where)
                continue
            if not any(_same_option(o, cand) for cand in opts):
                self.err("must exactly match one of the options", where)

    def action_id(self, v: dict, p: str) -> None:
        a = self.string(v, "action_id", p, max_len=255, min_len=1)
        if a is None:
            return
        if a in self.action_ids:
            self.err(f'`action_id` "{a}" already exists', f"{p}/action_id")
        self.action_ids.add(a)

    def placeholder(self, v: dict, p: str) -> None:
        if "placeholder" in v:
            self.text(v["placeholder"], f"{p}/placeholder", max_len=150, plain_only=True)

    # ---- elements --------------------------------------------------------------------------

    def element(self, v: Any, p: str, allowed_types: set[str]) -> None:
        if not self.obj(v, p):
            return
        t = v.get("type")
        if "type" not in v:
            self.err("missing required field: type", p)
            return
        if t not in allowed_types:
            self.err("failed to match all allowed schemas", p)
            return
        getattr(self, "el_" + t)(v, p)

    def _interactive(self, v: dict, p: str, keys: Iterable[str]) -> None:
        self.only(v, ["type", "action_id", "confirm", "focus_on_load", *keys], p)
        self.action_id(v, p)
        if "confirm" in v:
            self.confirm(v["confirm"], f"{p}/confirm")
        self.boolean(v, "focus_on_load", p)

    def el_button(self, v: dict, p: str) -> None:
        self.only(v, ("type", "text", "action_id", "url", "value", "style", "confirm", "accessibility_label"), p)
        if self.required(v, ("text",), p):
            self.text(v["text"], f"{p}/text", max_len=75, plain_only=True)
        self.action_id(v, p)
        self.string(v, "url", p, max_len=3000, min_len=1)
        self.string(v, "value", p, max_len=2000, min_len=1)
        self.enum(v, "style", ("primary", "danger"), p)
        if "confirm" in v:
            self.confirm(v["confirm"], f"{p}/confirm")
        self.string(v, "accessibility_label", p, max_len=75, min_len=1)

    def el_workflow_button(self, v: dict, p: str) -> None:
        self.only(v, ("type", "text", "workflow", "action_id", "style", "accessibility_label"), p)
        self.required(v, ("text", "workflow"), p)
        if "text" in v:
            self.text(v["text"], f"{p}/text", max_len=75, plain_only=True)
        self.obj(v.get("workflow", {}), f"{p}/workflow")
        self.action_id(v, p)
        self.enum(v, "style", ("primary", "danger"), p)
        self.string(v, "accessibility_label", p, max_len=75, min_len=1)

    def el_checkboxes(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("options", "initial_options"))
        if self.required(v, ("options",), p):
            opts = self.options(v, p, min_items=1, max_items=10, plain_only=False)
            self.initial_subset(v, "initial_options", opts, p, single=False)

    def el_radio_buttons(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("options", "initial_option"))
        if self.required(v, ("options",), p):
            opts = self.options(v, p, min_items=1, max_items=10, plain_only=False)
            self.initial_subset(v, "initial_option", opts, p, single=True)

    def el_overflow(self, v: dict, p: str) -> None:
        self.only(v, ("type", "action_id", "options", "confirm"), p)
        self.action_id(v, p)
        if "confirm" in v:
            self.confirm(v["confirm"], f"{p}/confirm")
        if self.required(v, ("options",), p):
            self.options(v, p, min_items=1, max_items=5, plain_only=True, allow_url=True)

    def _static(self, v: dict, p: str, multi: bool) -> None:
        initial = "initial_options" if multi else "initial_option"
        extra = ["options", "option_groups", initial, "placeholder"] + (["max_selected_items"] if multi else [])
        self._interactive(v, p, extra)
        self.placeholder(v, p)
        has_opts, has_groups = "options" in v, "option_groups" in v
        if has_opts == has_groups:
            self.err("must provide exactly one of: options, option_groups", p)
        all_opts: list = []
        if has_opts:
            all_opts = self.options(v, p, min_items=1, max_items=100, plain_only=True)
        if has_groups:
            groups = self.array(v, "option_groups", p, min_items=1, max_items=100) or []
            for i, g in enumerate(groups):
                gp = f"{p}/option_groups/{i}"
                if not self.obj(g, gp):
                    continue
                self.only(g, ("label", "options"), gp)
                self.required(g, ("label", "options"), gp)
                if "label" in g:
                    self.text(g["label"], f"{gp}/label", max_len=75, plain_only=True)
                all_opts += self.options(g, gp, min_items=1, max_items=100, plain_only=True) if "options" in g else []
        self.initial_subset(v, initial, all_opts, p, single=not multi)
        if multi:
            self.integer(v, "max_selected_items", p, minimum=1)

    def el_static_select(self, v: dict, p: str) -> None:
        self._static(v, p, multi=False)

    def el_multi_static_select(self, v: dict, p: str) -> None:
        self._static(v, p, multi=True)

    def el_external_select(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_option", "min_query_length", "placeholder"))
        self.placeholder(v, p)
        self.integer(v, "min_query_length", p, minimum=0)

    def el_multi_external_select(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_options", "min_query_length", "placeholder", "max_selected_items"))
        self.placeholder(v, p)
        self.integer(v, "min_query_length", p, minimum=0)
        self.integer(v, "max_selected_items", p, minimum=1)

    def el_users_select(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_user", "placeholder"))
        self.placeholder(v, p)
        self.string(v, "initial_user", p, min_len=1)

    def el_multi_users_select(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_users", "placeholder", "max_selected_items"))
        self.placeholder(v, p)
        self.array(v, "initial_users", p)
        self.integer(v, "max_selected_items", p, minimum=1)

    def el_conversations_select(self, v: dict, p: str) -> None:
        self._interactive(
            v,
            p,
            (
                "initial_conversation",
                "default_to_current_conversation",
                "response_url_enabled",
                "filter",
                "placeholder",
            ),
        )
        self.placeholder(v, p)
        self.boolean(v, "default_to_current_conversation", p)
        self.boolean(v, "response_url_enabled", p)

    def el_multi_conversations_select(self, v: dict, p: str) -> None:
        self._interactive(
            v,
            p,
            ("initial_conversations", "default_to_current_conversation", "max_selected_items", "filter", "placeholder"),
        )
        self.placeholder(v, p)
        self.array(v, "initial_conversations", p)
        self.integer(v, "max_selected_items", p, minimum=1)

    def el_channels_select(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_channel", "response_url_enabled", "placeholder"))
        self.placeholder(v, p)
        self.boolean(v, "response_url_enabled", p)

    def el_multi_channels_select(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_channels", "max_selected_items", "placeholder"))
        self.placeholder(v, p)
        self.array(v, "initial_channels", p)
        self.integer(v, "max_selected_items", p, minimum=1)

    def el_datepicker(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_date", "placeholder"))
        self.placeholder(v, p)
        d = self.string(v, "initial_date", p)
        if d is not None and not _DATE.match(d):
            self.err("must match the format YYYY-MM-DD", f"{p}/initial_date")

    def el_timepicker(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_time", "placeholder", "timezone"))
        self.placeholder(v, p)
        t = self.string(v, "initial_time", p)
        if t is not None and not _TIME.match(t):
            self.err("must match the format HH:mm", f"{p}/initial_time")

    def el_datetimepicker(self, v: dict, p: str) -> None:
        self._interactive(v, p, ("initial_date_time",))
        self.integer(v, "initial_date_time", p, minimum=0)

    def _text_input(self, v: dict, p: str, extra: Iterable[str] = ()) -> None:
        self._interactive(v, p, ("initial_value", "dispatch_action_config", "placeholder", *extra))
        self.placeholder(v, p)
        if "dispatch_action_config" in v:
            dp = f"{p}/dispatch_action_config"
            c = v["dispatch_action_config"]
            if self.obj(c, dp):
                self.only(c, ("trigger_actions_on",), dp)

    def el_plain_text_input(self, v: dict, p: str) -> None:
        self._text_input(v, p, ("multiline", "min_length", "max_length"))
        self.string(v, "initial_value", p)
        self.boolean(v, "multiline", p)
        self.integer(v, "min_length", p, minimum=0, maximum=3000)
        self.integer(v, "max_length", p, minimum=1, maximum=3000)

    def el_email_text_input(self, v: dict, p: str) -> None:
        self._text_input(v, p)
        self.string(v, "initial_value", p)

    def el_url_text_input(self, v: dict, p: str) -> None:
        self._text_input(v, p)
        self.string(v, "initial_value", p)

    def el_number_input(self, v: dict, p: str) -> None:
        self._text_input(v, p, ("is_decimal_allowed", "min_value", "max_value"))
        self.required(v, ("is_decimal_allowed",), p)
        self.boolean(v, "is_decimal_allowed", p)
        for key in ("initial_value", "min_value", "max_value"):
            self.string(v, key, p)

    def el_rich_text_input(self, v: dict, p: str) -> None:
        self._text_input(v, p)
        if "initial_value" in v:
            self.block_rich_text(v["initial_value"], f"{p}/initial_value", nested=True)

    def el_file_input(self, v: dict, p: str) -> None:
        self.only(v, ("type", "action_id", "filetypes", "max_files"), p)
        self.action_id(v, p)
        self.array(v, "filetypes", p)
        self.integer(v, "max_files", p, minimum=1, maximum=10)

    def el_image(self, v: dict, p: str) -> None:
        self.only(v, ("type", "alt_text", "image_url", "slack_file"), p)
        self.required(v, ("alt_text",), p)
        self.string(v, "alt_text", p, max_len=2000, min_len=1)
        self._image_source(v, p)

    def _image_source(self, v: dict, p: str) -> None:
        if ("image_url" in v) == ("slack_file" in v):
            self.err("must provide exactly one of: image_url, slack_file", p)
        self.string(v, "image_url", p, max_len=3000, min_len=1)
        if "slack_file" in v:
            sf = v["slack_file"]
            sp = f"{p}/slack_file"
            if self.obj(sf, sp):
                self.only(sf, ("url", "id"), sp)
                if ("url" in sf) == ("id" in sf):
                    self.err("must provide exactly one of: url, id", sp)

    # ---- blocks ----------------------------------------------------------------------------

    def block(self, v: Any, p: str) -> None:
        if not self.obj(v, p):
            return
        if "type" not in v:
            self.err("missing required field: type", p)
            return
        t = v["type"]
        if t not in BLOCK_SURFACES or self.surface not in BLOCK_SURFACES[t]:
            self.err("failed to match all allowed schemas", p)
            return
        b = self.string(v, "block_id", p, max_len=255, min_len=1)
        if b is not None:
            if b in self.block_ids:
                self.err(f'`block_id` "{b}" already exists', f"{p}/block_id")
            self.block_ids.add(b)
        if self.action_id_scope == "block":
            saved, self.action_ids = self.action_ids, set()
            getattr(self, "block_" + t)(v, p)
            self.action_ids = saved
        else:
            getattr(self, "block_" + t)(v, p)

    def block_section(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id", "text", "fields", "accessory", "expand"), p)
        if "text" not in v and "fields" not in v:
            self.err("must provide at least one of: text, fields", p)
        if "text" in v:
            self.text(v["text"], f"{p}/text", max_len=3000)
        fields = self.array(v, "fields", p, min_items=1, max_items=10) or []
        for i, f in enumerate(fields):
            self.text(f, f"{p}/fields/{i}", max_len=2000)
        if "accessory" in v:
            self.element(v["accessory"], f"{p}/accessory", SECTION_ACCESSORIES)
        self.boolean(v, "expand", p)

    def block_header(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id", "text"), p)
        if self.required(v, ("text",), p):
            self.text(v["text"], f"{p}/text", max_len=150, plain_only=True)

    def block_divider(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id"), p)

    def block_context(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id", "elements"), p)
        if not self.required(v, ("elements",), p):
            return
        for i, e in enumerate(self.array(v, "elements", p, min_items=1, max_items=10) or []):
            ep = f"{p}/elements/{i}"
            if isinstance(e, dict) and e.get("type") in ("plain_text", "mrkdwn"):
                self.text(e, ep, max_len=3000)
            elif isinstance(e, dict) and e.get("type") == "image":
                self.el_image(e, ep)
            elif self.obj(e, ep):
                self.err("failed to match all allowed schemas", ep)

    def block_actions(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id", "elements"), p)
        if not self.required(v, ("elements",), p):
            return
        for i, e in enumerate(self.array(v, "elements", p, min_items=1, max_items=25) or []):
            self.element(e, f"{p}/elements/{i}", ACTIONS_ELEMENTS)

    def block_input(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id", "label", "element", "dispatch_action", "hint", "optional"), p)
        self.required(v, ("label", "element"), p)
        if "label" in v:
            self.text(v["label"], f"{p}/label", max_len=2000, plain_only=True)
        if "element" in v:
            self.element(v["element"], f"{p}/element", INPUT_ELEMENTS)
        if "hint" in v:
            self.text(v["hint"], f"{p}/hint", max_len=2000, plain_only=True)
        self.boolean(v, "dispatch_action", p)
        self.boolean(v, "optional", p)

    def block_image(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id", "image_url", "slack_file", "alt_text", "title"), p)
        self.required(v, ("alt_text",), p)
        self.string(v, "alt_text", p, max_len=2000, min_len=1)
        self._image_source(v, p)
        if "title" in v:
            self.text(v["title"], f"{p}/title", max_len=2000, plain_only=True)

    def block_file(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id", "external_id", "source"), p)
        self.required(v, ("external_id", "source"), p)
        self.string(v, "external_id", p, min_len=1)
        self.enum(v, "source", ("remote",), p)

    def block_markdown(self, v: dict, p: str) -> None:
        self.only(v, ("type", "block_id", "text"), p)
        if self.required(v, ("text",), p):
            self.string(v, "text", p, max_len=MAX_MARKDOWN_TEXT, min_len=1)

    # rich text ---------------------------------------------------------------------------

    _RT_STYLE = ("bold", "italic", "strike", "code", "underline", "highlight", "client_highlight", "unlink")
    _RT_INLINE = {
        "text": (("text",), ("style",)),
        "link": (("url",), ("text", "unsafe", "style")),
        "emoji": (("name",), ("unicode", "skin_tone", "style")),
        "user": (("user_id",), ("style",)),
        "channel": (("channel_id",), ("style",)),
        "usergroup": (("usergroup_id",), ("style",)),
        "team": (("team_id",), ("style",)),
        "broadcast": (("range",), ("style",)),
        "date": (("timestamp", "format"), ("url", "fallback", "style")),
        "color": (("value",), ()),
    }

    def block_rich_text(self, v: Any, p: str, nested: bool = False) -> None:
        if nested and not self.obj(v, p):
            return
        self.only(v, ("type", "block_id", "elements"), p)
        if nested and v.get("type") != "rich_text":
            self.err("must be a valid enum value", f"{p}/type")
        if not self.required(v, ("elements",), p):
            return
        for i, e in enumerate(self.array(v, "elements", p) or []):
            self.rich_text_container(e, f"{p}/elements/{i}")

    def rich_text_container(self, v: Any, p: str) -> None:
        if not self.obj(v, p):
            return
        t = v.get("type")
        if t in ("rich_text_section", "rich_text_preformatted", "rich_text_quote"):
            self.only(v, ("type", "elements", "border"), p)
            if self.required(v, ("elements",), p):
                for i, e in enumerate(self.array(v, "elements", p) or []):
                    self.rich_text_inline(e, f"{p}/elements/{i}")
            self.integer(v, "border", p, minimum=0, maximum=1)
        elif t == "rich_text_list":
            self.only(v, ("type", "elements", "style", "indent", "offset", "border"), p)
            self.required(v, ("elements", "style"), p)
            self.enum(v, "style", ("bullet", "ordered"), p)
            for i, e in enumerate(self.array(v, "elements", p) or []):
                ep = f"{p}/elements/{i}"
                if isinstance(e, dict) and e.get("type") == "rich_text_section":
                    self.rich_text_container(e, ep)
                elif self.obj(e, ep):
                    self.err("failed to match all allowed schemas", ep)
            self.integer(v, "indent", p, minimum=0, maximum=8)
            self.integer(v, "offset", p, minimum=0)
            self.integer(v, "border", p, minimum=0, maximum=1)
        else:
            self.err("failed to match all allowed schemas", p)

    def rich_text_inline(self, v: Any, p: str) -> None:
        if not self.obj(v, p):
            return
        spec = self._RT_INLINE.get(v.get("type"))
        if spec is None:
            self.err("failed to match all allowed schemas", p)
            return
        required, optional = spec
        self.only(v, ("type", *required, *optional), p)
        self.required(v, required, p)
        for key in required:
            if key in v and key not in ("timestamp",) and not isinstance(v[key], str):
                self.err("must provide a string", f"{p}/{key}")
        if v.get("type") == "broadcast":
            self.enum(v, "range", ("here", "channel", "everyone"), p)
        if "style" in v:
            sp = f"{p}/style"
            if self.obj(v["style"], sp):
                self.only(v["style"], self._RT_STYLE, sp)
                for key in v["style"]:
                    self.boolean(v["style"], key, sp)

    # ---- top level -------------------------------------------------------------------------

    def blocks(self, blocks: Any, p: str, max_blocks: int) -> None:
        if not isinstance(blocks, list):
            self.err("must provide an array", p)
            return
        if len(blocks) > max_blocks:
            self.err(f"no more than {max_blocks} items allowed", p)
        for i, b in enumerate(blocks):
            self.block(b, f"{p}/{i}")


def _same_option(a: dict, b: Any) -> bool:
    if not isinstance(b, dict):
        return False

    def key(o: dict) -> tuple:
        t = o.get("text")
        t = (t.get("type"), t.get("text")) if isinstance(t, dict) else t
        return o.get("value"), t

    return key(a) == key(b)


def validate_blocks(
    blocks: Any, surface: str = "message", *, pointer: str = "/blocks", action_id_scope: str = "message"
) -> list[str]:
    """Every problem Slack would report for ``blocks`` on ``surface`` ("message", "modal" or
    "home"), as ``"<reason> [json-pointer:<where>]"`` strings; ``[]`` when valid."""
    v = _Validator(surface, action_id_scope)
    v.blocks(blocks, pointer, MESSAGE_MAX_BLOCKS if surface == "message" else VIEW_MAX_BLOCKS)
    return v.errors


_MODAL_KEYS = (
    "type",
    "title",
    "blocks",
    "close",
    "submit",
    "private_metadata",
    "callback_id",
    "clear_on_close",
    "notify_on_close",
    "external_id",
    "submit_disabled",
)
_HOME_KEYS = ("type", "blocks", "private_metadata", "callback_id", "external_id")


def validate_view(
    view: Any, *, pointer: str = "/view", expect_type: str | None = None, action_id_scope: str = "message"
) -> list[str]:
    """Every problem Slack would report for a view payload (modal or Home tab).

    ``expect_type`` restricts the type (views.open/push take a modal, views.publish a home view).
    """
    if not isinstance(view, dict):
        return [f"must provide an object [json-pointer:{pointer}]"]
    t = view.get("type")
    if "type" not in view:
        return [f"missing required field: type [json-pointer:{pointer}]"]
    if t not in ("modal", "home") or (expect_type is not None and t != expect_type):
        return [f"must be a valid enum value [json-pointer:{pointer}/type]"]
    v = _Validator(t, action_id_scope)
    p = pointer
    v.only(view, _MODAL_KEYS if t == "modal" else _HOME_KEYS, p)
    v.required(view, ("title", "blocks") if t == "modal" else ("blocks",), p)
    if t == "modal":
        if "title" in view:
            v.text(view["title"], f"{p}/title", max_len=24, plain_only=True)
        for key in ("submit", "close"):
            if key in view and view[key] is not None:
                v.text(view[key], f"{p}/{key}", max_len=24, plain_only=True)
        for key in ("clear_on_close", "notify_on_close", "submit_disabled"):
            v.boolean(view, key, p)
        blocks = view.get("blocks")
        if (
            isinstance(blocks, list)
            and view.get("submit") is None
            and any(isinstance(b, dict) and b.get("type") == "input" for b in blocks)
        ):
            v.err("missing required field: submit", p)
    v.string(view, "private_metadata", p, max_len=3000)
    v.string(view, "callback_id", p, max_len=255)
    v.string(view, "external_id", p, max_len=255)
    if "blocks" in view and view["blocks"] is not None:
        v.blocks(view["blocks"], f"{p}/blocks", VIEW_MAX_BLOCKS)
    return v.errors


def check_message(
    text: Any = None,
    blocks: Any = None,
    attachments: Any = None,
    *,
    markdown_text: Any = None,
    require_content: bool = True,
    action_id_scope: str = "message",
) -> tuple[str, list[str]] | None:
    """Check a message's content the way chat.postMessage does.

    Returns ``None`` when Slack would accept it, else ``(error_code, errors)``: ``no_text``,
    ``msg_too_long``, ``invalid_blocks_format``, ``invalid_blocks``, ``invalid_attachments``,
    ``too_many_attachments``, ``markdown_text_conflict``, ``invalid_arguments``.
    ``blocks``/``attachments`` may be lists or JSON strings (as sent in a form body).
    """
    if text is not None and not isinstance(text, str):
        if isinstance(text, (int, float)) and not isinstance(text, bool):
            text = str(text)
        else:
            return "invalid_arguments", ["must provide a string [json-pointer:/text]"]
    parsed_blocks, ok = parse_json_array(blocks)
    if not ok:
        return "invalid_blocks_format", []
    parsed_att, ok = parse_json_array(attachments)
    if not ok:
        return "invalid_attachments", []
    if markdown_text is not None:
        if text or parsed_blocks:
            return "markdown_text_conflict", []
        if not isinstance(markdown_text, str):
            return "invalid_arguments", ["must provide a string [json-pointer:/markdown_text]"]
        if len(markdown_text) > MAX_MARKDOWN_TEXT:
            return "msg_too_long", []
    if require_content and not text and not parsed_blocks and not parsed_att and not markdown_text:
        return "no_text", []
    if text is not None and len(text) > MAX_MESSAGE_TEXT:
        return "msg_too_long", []
    if parsed_att is not None:
        if len(parsed_att) > MAX_ATTACHMENTS:
            return "too_many_attachments", []
        if not all(isinstance(a, dict) for a in parsed_att):
            return "invalid_attachments", []
    if parsed_blocks is not None:
        errors = validate_blocks(parsed_blocks, "message", action_id_scope=action_id_scope)
        if errors:
            return "invalid_blocks", errors
    return None


def assert_valid_blocks(blocks: Any, surface: str = "message", *, action_id_scope: str = "message") -> None:
    """Raise :class:`InvalidBlocks` (an AssertionError) listing every problem in ``blocks``."""
    parsed, ok = parse_json_array(blocks)
    if not ok:
        raise InvalidBlocks("invalid_blocks_format", ["blocks is not a JSON array"])
    errors = validate_blocks(parsed if parsed is not None else [], surface, action_id_scope=action_id_scope)
    if errors:
        raise InvalidBlocks("invalid_blocks", errors)


def assert_valid_view(view: Any, *, expect_type: str | None = None, action_id_scope: str = "message") -> None:
    """Raise :class:`InvalidBlocks` listing every problem in a view payload."""
    if isinstance(view, str):
        try:
            view = json.loads(view)
        except ValueError:
            raise InvalidBlocks("invalid_arguments", ["view is not valid JSON"]) from None
    errors = validate_view(view, expect_type=expect_type, action_id_scope=action_id_scope)
    if errors:
        raise InvalidBlocks("invalid_arguments", errors)
