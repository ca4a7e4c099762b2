"""Masking secrets that training logs leak (tokens, keys, passwords) before the bot posts them.

Applied to every piece of text the bot posts or uploads. Vendor token formats come from
Yelp's detect-secrets catalogue (its plugins' regexes, run directly so we know *where* each
secret sits); our own rules cover what it lacks: key/value forms in any quoting, Authorization
headers, credentials in URLs, Hugging Face / OpenAI / Anthropic / W&B / npm / Google keys,
quoted high-entropy strings and PEM private-key bodies.

Every pattern runs in linear time, and lines longer than `_WINDOW` are scanned in overlapping
windows, so no input can make one line expensive.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from detect_secrets.filters.heuristic import is_sequential_string, is_templated_secret
from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import DENYLIST as SECRET_KEY_WORDS
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from signatures import Report

MASK = "***"
PEM_REMOVED = "[private key removed]"

_WINDOW = 4096  # longer lines are scanned in windows of this size...
_OVERLAP = 512  # ...overlapping by more than any secret is long, so none is cut in two

# --- detect-secrets catalogue -----------------------------------------------------------------
# Plugins whose regexes we run on each line. Left out: Npm and OpenAI (their `.+` / `[...]*[...]{20}`
# rescan the rest of a line at every `//` / `sk-`, quadratic; our npm_/sk- rules cover them),
# BasicAuth (rejects userinfo with RFC 3986 sub-delims or an empty user; our URL rule doesn't),
# Cloudant/IBM/Softlayer (their ` *(?: +) *` backtracks polynomially on long space runs; the
# key/value rule covers their `…_password = value` forms), PrivateKey (matches only the BEGIN
# header; blocks and bodies are handled below), IPPublic (peer IPs are diagnostics) and Keyword
# (its value regex swallows the rest of the line; we reuse its key vocabulary instead).
_CATALOGUE = (
    AWSKeyDetector,
    ArtifactoryDetector,
    AzureStorageKeyDetector,
    DiscordBotTokenDetector,
    GitHubTokenDetector,
    GitLabTokenDetector,
    MailchimpDetector,
    PypiTokenDetector,
    SendGridDetector,
    SlackDetector,
    SquareOAuthDetector,
    StripeDetector,
    TelegramBotTokenDetector,
    TwilioKeyDetector,
)
# Plugins whose group 1 is the secret; elsewhere a group is only a prefix (GitHub's "ghp").
_GROUP_IS_SECRET = (AWSKeyDetector,)
_PLUGIN_PATTERNS = [
    (regex, 1 if plugin in _GROUP_IS_SECRET and regex.groups else 0)
    for plugin in _CATALOGUE
    for regex in plugin.denylist
]
# A whole-match secret keeps its delimiters, a `Name=` and a URL's scheme://host/ readable.
_READABLE_PREFIX = re.compile(r"[\s\"':=]*(?:[A-Za-z]\w*=|[a-z]+://[^/\s]+/)?")
# JWTs are validated by the plugin (header and payload must decode to JSON) but located with our
# pattern: the plugin's `eyJ[...=]+\.` rescans `eyJ=eyJ=…` from every eyJ, and stops before the signature.
_JWT = re.compile(r"(?<![\w-])eyJ[\w-]+={0,2}\.[\w-]+={0,2}\.?")
_BASE64_ENTROPY = Base64HighEntropyString()  # its quoted-string regex, Shannon entropy and limit

# --- our own token formats (absent from detect-secrets 1.5) -------------------------------------
_OWN_TOKENS = re.compile(
    r"(?<![\w-])(?:"
    r"hf_[A-Za-z0-9]{30,}"  # Hugging Face
    r"|sk-[\w-]{20,}"  # OpenAI sk-/sk-proj-/sk-svcacct-, Anthropic sk-ant- (mixed-case checked)
    r"|xapp-\d-[A-Za-z0-9-]{10,}"  # Slack app-level tokens
    r"|AIza[\w-]{35}"  # Google API keys
    r"|GOCSPX-[\w-]{28}"  # Google OAuth client secrets
    r"|npm_[A-Za-z0-9]{36}"  # npm tokens outside .npmrc
    r"|github_pat_\w{22,}"  # GitHub fine-grained tokens
    r"|[rs]k_test_[A-Za-z0-9]{24,}"  # Stripe test-mode keys (the plugin knows live ones)
    r")"
)
_WANDB = re.compile(
    r"\bwandb\s+login\b[^\n]{0,80}?\b([0-9a-f]{40})\b"
    r"|\bwandb\.login\([^)\n]{0,80}?\bkey\s*=\s*['\"]?([^'\"\s,)]+)"
)
_URL_PASSWORD = re.compile(
    r"://[^\s/:@]*:([^\s/@]+)@"  # scheme://user:pass@host
    r"|%3a%2f%2f[^\s/:@%&]*%3a([^\s/@&]{1,128}?)%40"
)  # percent-encoded (form bodies)
_BEARER = re.compile(r"\bbearer[ \t]+([\w.~+/=-]{16,})")
# AWS secret access keys are 40 base64 characters; alone they are told from paths by entropy.
_AWS_SECRET_SHAPE = re.compile(r"(?<![\w+/-])[A-Za-z0-9+/]{40}(?![\w+/=-])")
# A PEM/OpenSSH body line on its own: nothing but base64, after an optional `[rank0]:` prefix.
_PEM_BODY_LINE = re.compile(r"(?:\[[^\]\n]{1,40}\][: \t]*)?[ \t]*([A-Za-z0-9+/]{20,76}={0,2})[ \t]*\r?")
_PEM_LINE_WIDTHS = (64, 70, 76)  # PEM, OpenSSH and MIME wrap widths: full lines need no entropy test
_PEM_BEGIN = re.compile(r"-----BEGIN[A-Z0-9 ]* PRIVATE KEY(?: BLOCK)?-----")
_PEM_END = re.compile(r"-----END[A-Z0-9 ]* PRIVATE KEY(?: BLOCK)?-----")

# --- key/value forms (matched on the lowercased line: an IGNORECASE alternation is 4x slower) ---
# A key *ending* in one of these words holds a secret: HF_TOKEN, client_secret, db_pwd, AccountKey;
# num_tokens, tokenizer, token_type_ids, secret_santa, password_reset, OLDPWD do not.
_KEY_WORDS = "|".join(
    [w.replace("_?", "[-_]?") for w in SECRET_KEY_WORDS if w != "pwd"]
    + [
        r"token(?<!pad_token)(?<!eos_token)(?<!bos_token)(?<!unk_token)(?<!sep_token)(?<!cls_token)"
        r"(?<!mask_token)",  # not a tokenizer's special tokens
        r"[-_]pwd",
        r"passphrase",
        r"credentials?",
        r"access[-_]?key",
        r"secret[-_]?key",
        r"auth",
        r"authorization",
        r"jwt",
    ]
)
_VALUE = (
    r"(?:\"(?P<dq>[^\"\n]{0,512})\"|'(?P<sq>[^'\n]{0,512})'"  # quoted: the whole content
    r"|['\"]?(?P<bare>(?:(?:bearer|basic|token|digest)[ \t]+)?"  # bare: up to a delimiter or &next=
    r"(?:[^\s'\"`,;()\[\]{}&]|&(?![\w.-]+=))+))"
)
_KEY_VALUE = re.compile(
    rf"(?:{_KEY_WORDS})(?![\w-])"
    r"(?:['\"]?\]?[ \t]*(?::=|=>|==|[:=]|%3d|%3a)(?!=)[ \t]*"  # key = v, key: v, "key": v, ['key'] = v, key%3Dv
    r"|['\"][ \t]*,[ \t]*(?=['\"]))" + _VALUE  # setdefault("KEY", "v")
)
_FLAG_VALUE = re.compile(rf"(?<![\w-])--?[\w-]*?(?:{_KEY_WORDS})(?![\w-])[ \t]+(?!-)" + _VALUE)
_AUTH_SCHEME = re.compile(r"(?:bearer|basic|token|digest)[ \t]+(?=\S)")
# Values that are not secrets: counts, flags, placeholders, type names and words of prose.
_NOT_A_SECRET = re.compile(
    r"(?i)[-+]?[\d.,_]+(?:e[-+]?\d+)?|true|false|none|null|nil|undefined|yes|no|on|off|"
    r"str|bytes|int|bool|float|any|optional|secretstr|\**|x{3,}|<[^>]*>|\[[^\]]*]|redacted|masked|hidden|"
    r"not|is|was|the|a|an|must|missing|invalid|expired|required|incorrect|empty|provided|set|found|"
    r"ok|failed|denied|enabled|disabled"
)
_CODE_REFERENCE = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+")  # self.token, args.hf_token
_FILE_PATH = re.compile(r"(?:~|\.{1,2})?/[\w./@-]*\.[A-Za-z][A-Za-z0-9]{0,4}")  # key_file: /etc/x.pem
_VARIABLE = re.compile(rf"[a-z0-9_]*(?:{_KEY_WORDS})")  # api_key=api_key passes a variable along
_SECRET_KEY = re.compile(rf"[\w .-]*?(?:{_KEY_WORDS})")  # a dict key naming a secret: "HF_TOKEN", "db password"

# --- cheap gates: most lines have neither, and then skip all but a few patterns -----------------
# Every real token of the formats above holds a run of 20+ of these (Slack's xox-/xapp- may be cut
# short by dashes, so they have their own gate). The lookbehind tests each run once.
_TOKEN_HINT = re.compile(r"(?<![\w=-])[\w=-]{20}|xox|xapp")
# Every keyword and context rule needs one of these in the lowercased line.
_WORD_HINT = re.compile(r"key|pass|pwd|secret|token|auth|cred|jwt|contrase|bearer|wandb|://|%3a%2f%2f")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_UNTIL_SPACE = re.compile(r"[^\s'\"]*")
_TAIL = re.compile(r"(?:[\w-]|\.(?=[\w-]))*")  # rest of a token a fixed-length pattern stopped inside


def _match_end(pattern: re.Pattern[str], line: str, start: int, end: int | None = None) -> int:
    """Where `pattern`, which matches the empty string too (so always matches), stops when applied at `start`."""
    m = pattern.match(line, start, len(line) if end is None else end)
    assert m is not None, pattern.pattern
    return m.end()


def _mixed(s: str) -> bool:
    """Upper case, lower case and a digit: random keys have all three, words and hex don't."""
    return any(c.isupper() for c in s) and any(c.islower() for c in s) and any(c.isdigit() for c in s)


def _entropy(s: str) -> float:
    return _BASE64_ENTROPY.calculate_shannon_entropy(s)


def _random_looking(s: str) -> bool:
    return _entropy(s) > _BASE64_ENTROPY.entropy_limit and not is_sequential_string(s)


def _is_secret_value(value: str, bare: bool, after: str) -> bool:
    if not value or _NOT_A_SECRET.fullmatch(value) or is_templated_secret(value) or value.startswith("$"):
        return False
    if _FILE_PATH.fullmatch(value):
        return False
    if bare and (after[:1] in ("(", "[") or _CODE_REFERENCE.fullmatch(value)):
        return False  # password = get_password(), token=os.environ[...], pad = tokenizer.eos_token
    return not (bare and _VARIABLE.fullmatch(value))


def _key_value_spans(regex: re.Pattern, line: str, lowered: str) -> Iterator[tuple[int, int]]:
    for m in regex.finditer(lowered):
        if lowered[m.start() - 1 : m.start()] == "/":
            continue  # a path (/etc/passwd: Permission denied), not a key
        group = "dq" if m.group("dq") is not None else "sq" if m.group("sq") is not None else "bare"
        start, end = m.span(group)
        scheme = _AUTH_SCHEME.match(lowered, start, end)
        if scheme:  # Authorization: Bearer xyz keeps "Bearer" readable
            start = scheme.end()
        if _is_secret_value(line[start:end], group == "bare", line[end : end + 1]):
            yield start, end


def _token_spans(line: str) -> Iterator[tuple[int, int]]:
    """Vendor token formats: the detect-secrets catalogue, then our own."""
    for regex, group in _PLUGIN_PATTERNS:
        for m in regex.finditer(line):
            start, end = m.span(group)
            if not group:
                start = _match_end(_READABLE_PREFIX, line, start, end)
                end = _match_end(_UNTIL_SPACE, line, start, end)
            yield start, end
    for m in _JWT.finditer(line):
        if JwtTokenDetector.is_formally_valid(m.group()):
            yield m.span()
    for m in _OWN_TOKENS.finditer(line):
        if not m.group().startswith("sk-") or _mixed(m.group()):  # sk-resnet50-imagenet is a name
            yield m.span()


def _context_spans(line: str, lowered: str) -> Iterator[tuple[int, int]]:
    """Secrets recognised by what surrounds them: a secret-sounding key, Bearer, wandb login, a URL."""
    yield from _key_value_spans(_KEY_VALUE, line, lowered)
    yield from _key_value_spans(_FLAG_VALUE, line, lowered)
    for m in _BEARER.finditer(lowered):
        if _mixed(line[m.start(1) : m.end(1)]):  # "Bearer token-based auth" is prose
            yield m.span(1)
    for m in _WANDB.finditer(lowered):
        yield m.span(1) if m.group(1) else m.span(2)
    for m in _URL_PASSWORD.finditer(lowered):
        yield m.span(1) if m.group(1) else m.span(2)


def _shape_spans(line: str) -> Iterator[tuple[int, int]]:
    """Random-looking strings: a bare AWS-secret-shaped word, or any long quoted one."""
    for m in _AWS_SECRET_SHAPE.finditer(line):
        if _mixed(m.group()) and _random_looking(m.group()):
            yield m.span()
    for m in _BASE64_ENTROPY.regex.finditer(line):
        if len(m.group(2)) >= 20 and _random_looking(m.group(2)):
            yield m.span(2)


def _find(line: str) -> list[tuple[int, int]]:
    """Spans of secrets in one line (or window of a long line)."""
    spans = list(_shape_spans(line))
    lowered = line.lower()
    if len(lowered) != len(line):  # a few non-ASCII letters lowercase to two characters
        lowered = line.translate(_ASCII_LOWER)
    if _TOKEN_HINT.search(lowered):
        spans += _token_spans(line)
    if _WORD_HINT.search(lowered):
        spans += _context_spans(line, lowered)
    return spans


def _pem_body(line: str) -> bool:
    """A base64 line of a private key seen on its own (its BEGIN/END lines elsewhere)."""
    m = _PEM_BODY_LINE.fullmatch(line) if len(line) <= 130 else None
    if not m or not _mixed(m.group(1)):
        return False
    body = m.group(1).rstrip("=")
    return (
        len(m.group(1)) in _PEM_LINE_WIDTHS
        or m.group(1).endswith("=")
        or _entropy(body) > min(math.log2(len(body)) - 1, _BASE64_ENTROPY.entropy_limit)
    )


def _redact_line(line: str) -> str:
    if _pem_body(line):
        return MASK
    if len(line) <= _WINDOW:
        spans = _find(line)
    else:
        spans = [
            (s + at, e + at)
            for at in range(0, len(line) - _OVERLAP, _WINDOW - _OVERLAP)
            for s, e in _find(line[at : at + _WINDOW])
        ]
    if not spans:
        return line
    out, pos = [], 0
    for start, end in sorted(spans):
        if start >= end or end <= pos:  # empty, or inside the mask just written
            continue
        end = _match_end(_TAIL, line, end)  # a key longer than its pattern is masked whole
        if start < pos:  # overlaps the mask just written: widen it
            pos = end
            continue
        out += [line[pos:start], MASK]
        pos = end
    out.append(line[pos:])
    return "".join(out)


def _remove_pem_blocks(text: str) -> str:
    """Replace each BEGIN…END private key block (found with plain searches: linear)."""
    out, pos = [], 0
    for begin in _PEM_BEGIN.finditer(text):
        if begin.start() < pos:
            continue
        end = _PEM_END.search(text, begin.end())
        if not end:
            break  # truncated block: its body lines are masked one by one
        out += [text[pos : begin.start()], PEM_REMOVED]
        pos = end.end()
    return "".join(out) + text[pos:]


# A report's lines are masked when it is rendered and again when the client sends it (and again for
# each update of the same message): remembering recent short lines makes the repeats free. A masked
# line is its own answer (masking is idempotent), so the client's pass over rendered text hits too.
# Plain dict operations are atomic under the GIL; the memo is cleared whole when full (bounded:
# _MEMO_SIZE lines of at most _MEMO_LINE characters, under 10 MB).
_MEMO: dict[str, str] = {}
_MEMO_SIZE, _MEMO_LINE = 8192, 512


def _redact_line_memo(line: str) -> str:
    masked = _MEMO.get(line)
    if masked is None:
        masked = _redact_line(line)
        if len(line) <= _MEMO_LINE:
            if len(_MEMO) >= _MEMO_SIZE:
                _MEMO.clear()
            _MEMO[line] = masked
            _MEMO[masked] = masked
    return masked


def redact(text: str) -> str:
    """`text` with every secret replaced by MASK (keys, `Bearer`, `AccountKey=` stay readable)."""
    if not text:
        return text
    if "PRIVATE KEY" in text:
        text = _remove_pem_blocks(text)
    return "\n".join(_redact_line_memo(line) for line in text.split("\n"))


def redact_value(value, key=""):
    """Redact every string inside nested dicts/lists/tuples (keys are kept; returns a new structure).

    A string under a secret-sounding key ({"password": "hunter2"}) is masked whole.
    """
    if isinstance(value, str):
        if _SECRET_KEY.fullmatch(str(key).lower()) and _is_secret_value(value, False, ""):
            return MASK
        return redact(value)
    if isinstance(value, (list, tuple)):
        return type(value)(redact_value(v, key) for v in value)
    if isinstance(value, dict):
        return {k: redact_value(v, k) for k, v in value.items()}
    return value


_BLOCK_KIT_IDS = ("type", "action_id", "block_id", "style", "value")


def redact_blocks(value):
    """Redact every string inside a Block Kit structure, except identifiers Slack routes on."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_blocks(v) for v in value]
    if isinstance(value, dict):
        return {k: (v if k in _BLOCK_KIT_IDS else redact_blocks(v)) for k, v in value.items()}
    return value


def redact_report(report: Report) -> Report:
    """A copy of the report with every string masked as in a message, made before anything clips, stores or
    posts the report."""
    return Report.model_validate(redact_blocks(report.to_json()))
