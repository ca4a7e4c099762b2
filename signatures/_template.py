"""A signature's text with the values its line gave. A value the line did not give disappears with the words that
introduce it ("stopped job 19 at {time}{reason}" without a reason is "stopped job 19 at 10:20:53", never
"...10:20:53unknown"); in a command it stays a placeholder to fill in (`sacct -j <job_id>`), so that what is
copied still reads as a command."""

from __future__ import annotations

import re

_NAME = r"[a-z_][a-z0-9_]*"
PLACEHOLDER = re.compile(r"\{(" + _NAME + r")\}")
# a parenthesis holding a field: "(pod {pod} where the listing names it)" goes whole when {pod} is missing
_INSIDE = r"(?:[^()]|\([^()]*\))*"  # one level of parentheses inside: "({oom_events} event(s) in step {step})"
_PARENTHESIS = re.compile(r"\s?\(" + _INSIDE + r"\{" + _NAME + r"\}" + _INSIDE + r"\)")
# the words that introduce a field: a preposition up to two words before it ("on GPU {gpu}", "in the local
# {where}"), or a colon ("...: {reason}.")
_LEAD_INS = "at|on|in|of|to|for|from|with|by|into|via|near|under|after|holding|named|called"
_FIELD = re.compile(
    r"(?P<lead>\b(?:" + _LEAD_INS + r")\s+(?:(?!(?:" + _LEAD_INS + r")\b)[^\s{}.,;:()]+\s+){0,2}|:\s)?"
    r"\{(?P<name>" + _NAME + r")\}"
    # a unit right after the field goes with it: "after its {timeout_ms} ms timeout" without a value is "after its
    # timeout", never "... ms timeout"
    r"(?P<unit>\s?(?:ms|s|seconds|minutes|min|hours|h|bytes|B|KB|MB|GB|KiB|MiB|GiB|TiB|%)(?![\w{]))?"
)
_GONE = "\x00"  # where a field went, until the spaces around it are tidied
_GONE_BEFORE_PUNCTUATION = re.compile(r"[ \t]*\x00+[ \t]*(?=[,.;:)]|$)", re.MULTILINE)
_GONE_BETWEEN_WORDS = re.compile(r"(?<=\S)[ \t]*\x00+[ \t]*(?=\S)")
_GONE_ELSEWHERE = re.compile(r"[ \t]*\x00+")


def _given(values: dict[str, str], name: str) -> bool:
    return bool(values.get(name))


def fill_prose(text: str, values: dict[str, str]) -> str:
    """Sentences: each field replaced by its value, or gone with its lead-in when the line gave none."""
    text = _PARENTHESIS.sub(
        lambda m: m.group(0) if all(_given(values, n) for n in PLACEHOLDER.findall(m.group(0))) else _GONE, text
    )
    text = _FIELD.sub(
        lambda m: (
            (m.group("lead") or "") + values[m.group("name")] + (m.group("unit") or "")
            if _given(values, m.group("name"))
            else _GONE
        ),
        text,
    )
    if _GONE not in text:
        return text
    text = _GONE_BEFORE_PUNCTUATION.sub("", text)
    return _GONE_ELSEWHERE.sub("", _GONE_BETWEEN_WORDS.sub(" ", text))


def fill_command(text: str, values: dict[str, str]) -> str:
    """A command or a check to run: a field the line did not give stays a placeholder, <name>."""
    return PLACEHOLDER.sub(lambda m: values[m.group(1)] if _given(values, m.group(1)) else f"<{m.group(1)}>", text)
