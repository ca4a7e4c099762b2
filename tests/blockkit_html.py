"""A small Block Kit -> HTML renderer: a message laid out roughly as Slack's desktop client shows it in a
600 px column, so a reviewer (and bench/screenshots.py, through headless Chromium) can look at every message
kind. It renders what the bot sends: header, section (text, fields), context, actions (buttons,
checkboxes with descriptions), divider, input blocks of a modal; mrkdwn's bold, italic, code, code blocks,
quotes, links, mentions and `<!date>` tokens (shown by their fallback, in UTC)."""

from __future__ import annotations

import html
import re

EMOJI = {  # the emoji the bot uses, as a client draws them
    "red_circle": "🔴",
    "large_orange_circle": "🟠",
    "large_yellow_circle": "🟡",
    "white_circle": "⚪",
    "white_check_mark": "✅",
    "x": "❌",
    "eyes": "👀",
    "no_entry_sign": "🚫",
    "wrench": "🔧",
    "mag": "🔍",
    "mag_right": "🔎",
    "hourglass": "⌛",
    "hourglass_flowing_sand": "⏳",
    "grey_question": "❔",
    "arrow_heading_down": "⤵️",
    "ballot_box_with_check": "☑️",
    "books": "📚",
    "mute": "🔇",
    "+1": "👍",
    "repeat": "🔁",
    "construction": "🚧",
    "file_cabinet": "🗄️",
    "warning": "⚠️",
    "link": "🔗",
    "no_bell": "🔕",
    "rotating_light": "🚨",
    "memo": "📝",
    "checkered_flag": "🏁",
    "scissors": "✂️",
}
USERS = {"U123": "alice", "U456": "bob", "U0ALICE01": "alice", "U0BOBBY01": "bob"}

STYLE = """
body { font-family: Lato, 'Helvetica Neue', Arial, sans-serif; font-size: 15px; color: #1d1c1d; margin: 0;
       background: #fff; }
.msg { width: 600px; padding: 8px 20px 12px 20px; display: flex; gap: 8px; }
.avatar { width: 36px; height: 36px; border-radius: 4px; background: #4a154b; color: #fff; font-weight: 900;
          display: flex; align-items: center; justify-content: center; flex: none; }
.body { flex: 1; min-width: 0; }
.who { font-weight: 900; } .who small { font-weight: 400; color: #616061; font-size: 12px; margin-left: 4px; }
.header { font-size: 18px; font-weight: 900; margin: 6px 0 4px; line-height: 1.33; }
.section { margin: 4px 0; line-height: 1.46; word-wrap: break-word; }
.fields { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 16px; }
.context { color: #616061; font-size: 13px; margin: 6px 0; line-height: 1.4; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0; }
button { font: 700 13px Lato, Arial, sans-serif; border: 1px solid #dddddd; background: #fff; color: #1d1c1d;
         border-radius: 4px; height: 28px; padding: 0 12px; }
button.primary { background: #007a5a; color: #fff; border-color: #007a5a; }
button.danger { color: #e01e5a; border-color: #e01e5a; }
.check { display: flex; gap: 8px; margin: 4px 0; } .box { width: 14px; height: 14px; border: 1px solid #868686;
         border-radius: 3px; flex: none; margin-top: 3px; text-align: center; font-size: 11px; line-height: 14px; }
.box.on { background: #1264a3; color: #fff; border-color: #1264a3; }
.desc { color: #616061; font-size: 13px; }
code { font-family: Monaco, Menlo, Consolas, monospace; font-size: 12px; color: #e01e5a; background: #f8f8f8;
       border: 1px solid #e8e8e8; border-radius: 3px; padding: 1px 3px; }
pre { font-family: Monaco, Menlo, Consolas, monospace; font-size: 12px; background: #f8f8f8;
      border: 1px solid #e8e8e8; border-radius: 4px; padding: 8px; white-space: pre-wrap; margin: 4px 0; }
blockquote { border-left: 4px solid #dddddd; margin: 4px 0; padding-left: 12px; }
a { color: #1264a3; text-decoration: none; } .mention { background: #e8f5fa; color: #1264a3; border-radius: 3px; }
hr { border: none; border-top: 1px solid #dddddd; }
.modal { width: 520px; margin: 12px 20px; border: 1px solid #dddddd; border-radius: 8px; box-shadow: 0 4px 12px #0002; }
.modal .title { font-size: 20px; font-weight: 900; padding: 16px 24px; border-bottom: 1px solid #dddddd; }
.modal .blocks { padding: 12px 24px; } .modal .foot { padding: 12px 24px; border-top: 1px solid #dddddd;
         display: flex; justify-content: flex-end; gap: 8px; }
.input label { font-weight: 700; display: block; margin: 10px 0 4px; } .input .hint { color: #616061; font-size: 13px; }
.input .field { border: 1px solid #868686; border-radius: 4px; height: 34px; padding: 0 8px; color: #868686;
                display: flex; align-items: center; } .input .field.tall { height: 72px; align-items: flex-start; }
.reply { margin-left: 36px; width: 544px; border-left: 2px solid #e8e8e8; }
"""


def _emoji(text: str) -> str:
    return re.sub(r":([a-z0-9_+-]+):", lambda m: EMOJI.get(m.group(1), m.group(0)), text)


def _inline(text: str) -> str:
    """mrkdwn outside code: entities, links, mentions, dates, bold, italic, strike, emoji."""

    def special(m: re.Match) -> str:
        body = m.group(1)
        if body.startswith("@"):
            uid = body[1:].split("|")[0]
            return f'<span class="mention">@{USERS.get(uid, uid)}</span>'
        if body.startswith("!date^"):
            return html.escape(body.rsplit("|", 1)[-1]) if "|" in body else html.escape(body)
        if body.startswith("!"):
            return f'<span class="mention">@{html.escape(body[1:].split("|")[0])}</span>'
        url, _, label = body.partition("|")
        return f'<a href="{html.escape(url)}">{html.escape(_unescape(label or url))}</a>'

    out = []
    for i, part in enumerate(re.split(r"(<[^<>]+>)", text)):
        if i % 2:
            out.append(special(re.match(r"<([^<>]+)>", part)))  # type: ignore[arg-type]
        else:
            piece = html.escape(_unescape(part), quote=False)
            piece = re.sub(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])", r"<b>\1</b>", piece)
            piece = re.sub(r"(?<![\w_])_([^_\n]+)_(?![\w_])", r"<i>\1</i>", piece)
            piece = re.sub(r"(?<![\w~])~([^~\n]+)~(?![\w~])", r"<s>\1</s>", piece)
            out.append(_emoji(piece))
    return "".join(out)


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def mrkdwn(text: str) -> str:
    """One mrkdwn text as HTML: code blocks and code spans verbatim (entities decoded), the rest formatted."""
    out = []
    for i, part in enumerate(re.split(r"(```.*?```)", text, flags=re.S)):
        if i % 2:
            out.append(f"<pre>{html.escape(_unescape(part[3:-3]))}</pre>")
            continue
        lines = []
        for line in part.split("\n"):
            quoted = line.startswith("&gt; ")
            if quoted:
                line = line[5:]
            spans = re.split(r"(`[^`\n]+`)", line)
            rendered = "".join(
                f"<code>{html.escape(_unescape(s[1:-1]))}</code>" if j % 2 else _inline(s) for j, s in enumerate(spans)
            )
            lines.append(f"<blockquote>{rendered}</blockquote>" if quoted else rendered)
        out.append("<br>".join(lines))
    return "".join(out)


def _text(obj: dict | None) -> str:
    if not obj:
        return ""
    return mrkdwn(obj["text"]) if obj.get("type") == "mrkdwn" else _emoji(html.escape(obj["text"]))


def _element(el: dict) -> str:
    kind = el.get("type")
    if kind == "button":
        return f'<button class="{el.get("style", "")}">{_text(el["text"])}</button>'
    if kind == "checkboxes":
        chosen = {o["value"] for o in el.get("initial_options", [])}
        rows = []
        for opt in el["options"]:
            on = opt["value"] in chosen
            desc = f'<div class="desc">{_text(opt["description"])}</div>' if opt.get("description") else ""
            rows.append(
                f'<div class="check"><div class="box{" on" if on else ""}">{"✓" if on else ""}</div>'
                f"<div>{_text(opt['text'])}{desc}</div></div>"
            )
        return f'<div style="width:100%">{"".join(rows)}</div>'
    if kind in ("plain_text_input", "static_select"):
        placeholder = _text(el.get("placeholder")) or (
            _text(el["initial_option"]["text"]) if "initial_option" in el else ""
        )
        return f'<div class="field{" tall" if el.get("multiline") else ""}">{placeholder}</div>'
    return f"<div>[{html.escape(str(kind))}]</div>"


def blocks_html(blocks: list[dict]) -> str:
    out = []
    for block in blocks:
        kind = block.get("type")
        if kind == "header":
            out.append(f'<div class="header">{_text(block["text"])}</div>')
        elif kind == "section":
            if "text" in block:
                out.append(f'<div class="section">{_text(block["text"])}</div>')
            if block.get("fields"):
                fields = "".join(f"<div>{_text(f)}</div>" for f in block["fields"])
                out.append(f'<div class="section fields">{fields}</div>')
        elif kind == "context":
            out.append(f'<div class="context">{" ".join(_text(e) for e in block["elements"])}</div>')
        elif kind == "actions":
            out.append(f'<div class="actions">{"".join(_element(e) for e in block["elements"])}</div>')
        elif kind == "divider":
            out.append("<hr>")
        elif kind == "input":
            hint = f'<div class="hint">{_text(block.get("hint"))}</div>' if block.get("hint") else ""
            optional = " <small>(optional)</small>" if block.get("optional") else ""
            out.append(
                f'<div class="input"><label>{_text(block["label"])}{optional}</label>{_element(block["element"])}'
                f"{hint}</div>"
            )
    return "".join(out)


def message_html(text: str, blocks: list[dict] | None, reply: bool = False, when: str = "3:12 AM") -> str:
    """One bot message (blocks, else its text as mrkdwn), with the app's name and avatar."""
    body = blocks_html(blocks) if blocks else f'<div class="section">{mrkdwn(text)}</div>'
    return (
        f'<div class="msg{" reply" if reply else ""}"><div class="avatar">d</div><div class="body">'
        f'<div class="who">denpex <small>APP {when}</small></div>{body}</div></div>'
    )


def view_html(view: dict) -> str:
    """A modal as Slack draws it: title, blocks, Cancel and submit."""
    submit = _text(view.get("submit")) or "Submit"
    close = _text(view.get("close")) or "Cancel"
    return (
        f'<div class="modal"><div class="title">{_text(view["title"])}</div><div class="blocks">'
        f'{blocks_html(view["blocks"])}</div><div class="foot"><button>{close}</button>'
        f'<button class="primary">{submit}</button></div></div>'
    )


def page(*parts: str) -> str:
    return f'<!doctype html><html><head><meta charset="utf-8"><style>{STYLE}</style></head><body>{"".join(parts)}</body></html>'
