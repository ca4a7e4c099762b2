"""Masking secrets that training logs leak (tokens, keys, passwords on command lines).

Applied to every piece of text the bot posts or uploads. The patterns are
simple (no nested repetition), so they run in linear time on any line.
"""

from __future__ import annotations

import re

MASK = "***"

_TOKENS = [
    re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),                # Slack bot/user/legacy tokens
    re.compile(r"\bxapp-\d-[A-Za-z0-9-]{10,}"),                    # Slack app-level tokens
    re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),                  # AWS access key ids
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),                 # GitHub tokens
    re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}\b"),
    re.compile(r"\bhf_[A-Za-z0-9]{30,}\b"),                        # Hugging Face tokens
    re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}\b"),            # OpenAI-style API keys
    re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}\b"),                   # GitLab tokens
    re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),  # JWTs
]
_PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?-----END [A-Z ]*PRIVATE KEY-----", re.S)
_BEARER = re.compile(r"(?i)\b(authorization:\s*(?:bearer|basic|token)\s+)[^\s'\"]+")
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^@\s/]+@")
_FLAG = re.compile(r"(?i)(--?[a-z0-9_-]*(?:password|passwd|token|secret|api[-_]?key|access[-_]?key)[a-z0-9_-]*(?:=|\s+))"
                   r"(?!-)([^\s'\"]+)")
_ASSIGNMENT = re.compile(
    r"(?i)\b([a-z0-9_.-]*(?:password|passwd|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|credentials?)"
    r"[a-z0-9_]*['\"]?\s*[:=]\s*)(['\"]?)([^\s'\",;}]+)")


def _unless_number(match: re.Match, value_group: int) -> str:
    value = match.group(value_group)
    if re.fullmatch(r"[\d.,]+|true|false|none|null", value, re.I):
        return match.group(0)  # num_tokens=2048 is a count, not a secret
    return match.group(0)[: match.start(value_group) - match.start(0)] + MASK


def redact(text: str) -> str:
    if not text:
        return text
    text = _PRIVATE_KEY.sub("[private key removed]", text)
    for pattern in _TOKENS:
        text = pattern.sub(MASK, text)
    text = _BEARER.sub(lambda m: m.group(1) + MASK, text)
    text = _URL_CREDENTIALS.sub(lambda m: m.group(1) + MASK + "@", text)
    text = _FLAG.sub(lambda m: _unless_number(m, 2), text)
    text = _ASSIGNMENT.sub(lambda m: _unless_number(m, 3), text)
    return text


def redact_blocks(value):
    """Redact every string inside a Block Kit structure (returns a new structure)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_blocks(v) for v in value]
    if isinstance(value, dict):
        return {k: (v if k in ("type", "action_id", "block_id", "style", "value") else redact_blocks(v))
                for k, v in value.items()}
    return value
