"""The fake Slack workspace is strict and answers like Slack: proven with slack_sdk and slack_bolt."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
import tracemalloc
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from fake_slack import FakeSlack, SlackDriver, blockkit
from fake_slack.blockkit import InvalidBlocks, assert_valid_blocks, assert_valid_view, validate_blocks, validate_view
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler
from slack_sdk.signature import SignatureVerifier

TS = re.compile(r"^\d{10}\.\d{6}$")


@pytest.fixture
def fake():
    with FakeSlack() as f:
        yield f


@pytest.fixture
def client(fake):
    return WebClient(token=fake.bot_token, base_url=fake.api_url)


def slack_error(excinfo) -> dict:
    return excinfo.value.response.data


def header(text: str) -> dict:
    return {"type": "header", "text": {"type": "plain_text", "text": text}}


def section(text: str) -> dict:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def button(action_id: str, text: str = "Go", value: str = "v", **kw) -> dict:
    return {
        "type": "button",
        "action_id": action_id,
        "text": {"type": "plain_text", "text": text},
        "value": value,
        **kw,
    }


def checkbox_options(n: int) -> list[dict]:
    return [{"text": {"type": "plain_text", "text": f"opt {i}"}, "value": f"v{i}"} for i in range(n)]


def modal(title: str = "Diagnose", **kw) -> dict:
    return {
        "type": "modal",
        "callback_id": "diagnose",
        "title": {"type": "plain_text", "text": title},
        "submit": {"type": "plain_text", "text": "Run"},
        "blocks": [
            {
                "type": "input",
                "block_id": "job",
                "label": {"type": "plain_text", "text": "Job"},
                "element": {"type": "plain_text_input", "action_id": "job_id"},
            }
        ],
        **kw,
    }


# ----------------------------------------------------------------------------------------------
# auth and transport


def test_auth_test_reports_the_bot(client, fake):
    r = client.auth_test()
    assert r.status_code == 200
    assert r.data == {
        "ok": True,
        "url": "https://denpex-test.slack.com/",
        "team": "Denpex Test",
        "user": "denpex",
        "team_id": "T0001",
        "user_id": "U0BOT",
        "bot_id": "B0BOT",
        "is_enterprise_install": False,
    }
    call = fake.calls_to("auth.test")[0]
    assert call.headers["Authorization"] == "Bearer xoxb-test-token"


def test_a_wrong_or_missing_token_is_refused(fake):
    with pytest.raises(SlackApiError) as e:
        WebClient(token="xoxb-wrong", base_url=fake.api_url).chat_postMessage(channel="C123", text="x")
    assert slack_error(e)["error"] == "invalid_auth"
    assert e.value.response.status_code == 200
    with pytest.raises(SlackApiError) as e:
        WebClient(base_url=fake.api_url).auth_test()
    assert slack_error(e) == {"ok": False, "error": "not_authed"}
    # Slack never reads a token from a JSON body
    r = httpx.post(fake.api_url + "auth.test", json={"token": fake.bot_token})
    assert r.status_code == 200 and r.json()["error"] == "not_authed"
    # ... but accepts it as a form field, and warns about the missing charset like Slack
    r = httpx.post(fake.api_url + "auth.test", data={"token": fake.bot_token})
    assert r.json()["ok"] is True and r.json()["warning"] == "missing_charset"
    assert fake.messages("C123") == []


def test_unknown_and_deprecated_methods(client):
    with pytest.raises(SlackApiError) as e:
        client.api_call("chat.frobnicate", json={"channel": "C123"})
    assert slack_error(e)["error"] == "unknown_method"
    with pytest.raises(SlackApiError) as e:
        client.api_call("files.upload", data={"channels": "C123", "content": "x", "filename": "a.txt"})
    assert slack_error(e)["error"] == "method_deprecated"


def test_missing_scope_names_the_scope():
    with FakeSlack(scopes=["chat:write"]) as narrow:
        c = WebClient(token=narrow.bot_token, base_url=narrow.api_url)
        c.chat_postMessage(channel="C123", text="fine")
        with pytest.raises(SlackApiError) as e:
            c.files_info(file="F1")
        assert slack_error(e)["error"] == "missing_scope"
        assert slack_error(e)["needed"] == "files:read"
        assert slack_error(e)["provided"] == "chat:write"


def test_rate_limit_then_retry_handler_succeeds(fake, client):
    fake.rate_limit("chat.postMessage", times=1, retry_after=1)
    with pytest.raises(SlackApiError) as e:
        client.chat_postMessage(channel="C123", text="first")
    assert e.value.response.status_code == 429
    assert e.value.response.headers["Retry-After"] == "1"
    assert slack_error(e) == {"ok": False, "error": "ratelimited"}
    assert fake.messages("C123") == []

    fake.rate_limit("chat.postMessage", times=1, retry_after=1)
    retrying = WebClient(
        token=fake.bot_token, base_url=fake.api_url, retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=2)]
    )
    started = time.monotonic()
    r = retrying.chat_postMessage(channel="C123", text="second")
    assert r["ok"] and time.monotonic() - started >= 1
    assert [c.status for c in fake.calls_to("chat.postMessage")] == [429, 429, 200]
    assert [m["text"] for m in fake.messages("C123")] == ["second"]


# ----------------------------------------------------------------------------------------------
# messages


def test_post_message_threads_and_ts(client, fake):
    parent = client.chat_postMessage(channel="C123", text="diagnosing")
    assert parent["channel"] == "C123" and TS.match(parent["ts"])
    assert parent["message"]["text"] == "diagnosing" and parent["message"]["bot_id"] == "B0BOT"
    reply = client.chat_postMessage(channel="C123", text="done", thread_ts=parent["ts"], blocks=[section("*done*")])
    assert float(reply["ts"]) > float(parent["ts"])
    assert reply["message"]["thread_ts"] == parent["ts"]
    assert reply["message"]["blocks"][0]["block_id"]  # Slack fills block_id in
    thread = fake.thread("C123", parent["ts"])
    assert [m["text"] for m in thread] == ["diagnosing", "done"]
    assert thread[0]["reply_count"] == 1 and thread[0]["latest_reply"] == reply["ts"]
    assert [m["ts"] for m in fake.messages("C123", include_replies=False)] == [parent["ts"]]
    replies = client.conversations_replies(channel="C123", ts=parent["ts"])
    assert [m["ts"] for m in replies["messages"]] == [parent["ts"], reply["ts"]]
    assert replies["has_more"] is False
    page = client.conversations_replies(channel="C123", ts=parent["ts"], limit=1)
    assert page["has_more"] and page["response_metadata"]["next_cursor"]
    rest = client.conversations_replies(
        channel="C123", ts=parent["ts"], limit=1, cursor=page["response_metadata"]["next_cursor"]
    )
    assert [m["ts"] for m in rest["messages"]] == [reply["ts"]]


@pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing")
@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"channel": "C999", "text": "x"}, "channel_not_found"),
        ({"channel": "C123"}, "no_text"),
        ({"channel": "C123", "text": ""}, "no_text"),
        ({"channel": "C123", "text": "x" * 40_001}, "msg_too_long"),
        ({"channel": "C123", "text": "x", "thread_ts": "0"}, "invalid_thread_ts"),
        ({"channel": "C123", "text": "x", "thread_ts": "1700000000.000100"}, "thread_not_found"),
    ],
)
def test_post_message_refusals(client, fake, kwargs, error):
    with pytest.raises(SlackApiError) as e:
        client.chat_postMessage(**kwargs)
    assert slack_error(e)["error"] == error
    assert fake.messages("C123") == []


def test_blocks_must_be_a_json_array(fake):
    for blocks in ("not json", '{"type": "divider"}'):
        r = httpx.post(
            fake.api_url + "chat.postMessage",
            headers={"Authorization": f"Bearer {fake.bot_token}"},
            data={"channel": "C123", "text": "x", "blocks": blocks},
        )
        assert r.status_code == 200 and r.json()["error"] == "invalid_blocks_format"
    r = httpx.post(
        fake.api_url + "chat.postMessage",
        headers={"Authorization": f"Bearer {fake.bot_token}"},
        data={"channel": "C123", "text": "x", "blocks": json.dumps([{"type": "divider"}])},
    )
    assert r.json()["ok"] is True


def test_a_channel_the_bot_is_not_in(fake, client):
    fake.add_channel("C777", "elsewhere", is_member=False)
    with pytest.raises(SlackApiError) as e:
        client.chat_postMessage(channel="C777", text="x")
    assert slack_error(e)["error"] == "not_in_channel"


def test_too_long_header_is_invalid_blocks_with_slacks_reason(client, fake):
    with pytest.raises(SlackApiError) as e:
        client.chat_postMessage(channel="C123", text="x", blocks=[header("h" * 151)])
    assert slack_error(e)["error"] == "invalid_blocks"
    assert slack_error(e)["response_metadata"]["messages"] == [
        "[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]"
    ]
    client.chat_postMessage(channel="C123", text="x", blocks=[header("h" * 150)])


def test_51_blocks_are_refused_50_accepted(client):
    with pytest.raises(SlackApiError) as e:
        client.chat_postMessage(channel="C123", text="x", blocks=[{"type": "divider"}] * 51)
    assert slack_error(e)["response_metadata"]["messages"] == [
        "[ERROR] no more than 50 items allowed [json-pointer:/blocks]"
    ]
    assert client.chat_postMessage(channel="C123", text="x", blocks=[{"type": "divider"}] * 50)["ok"]


def test_duplicate_action_id_is_refused(client):
    blocks = [{"type": "actions", "elements": [button("rerun"), button("rerun", "Again")]}]
    with pytest.raises(SlackApiError) as e:
        client.chat_postMessage(channel="C123", text="x", blocks=blocks)
    assert slack_error(e)["error"] == "invalid_blocks"
    assert slack_error(e)["errors"] == [
        '`action_id` "rerun" already exists [json-pointer:/blocks/0/elements/1/action_id]'
    ]


def test_eleven_checkbox_options_are_refused(client):
    blocks = [
        {
            "type": "section",
            "text": {"type": "mrkdwn", "text": "pick"},
            "accessory": {"type": "checkboxes", "action_id": "pick", "options": checkbox_options(11)},
        }
    ]
    with pytest.raises(SlackApiError) as e:
        client.chat_postMessage(channel="C123", text="x", blocks=blocks)
    assert slack_error(e)["errors"] == ["no more than 10 items allowed [json-pointer:/blocks/0/accessory/options]"]


def test_chat_update_replaces_in_place(client, fake):
    posted = client.chat_postMessage(channel="C123", text="working", blocks=[section("working")])
    client.chat_postMessage(channel="C123", text="other")
    r = client.chat_update(channel="C123", ts=posted["ts"], text="finished", blocks=[section("*finished*")])
    assert r["ts"] == posted["ts"] and r["text"] == "finished"
    msgs = fake.messages("C123")
    assert [m["text"] for m in msgs] == ["finished", "other"]
    assert msgs[0]["blocks"][0]["text"]["text"] == "*finished*" and msgs[0]["edited"]["user"] == "U0BOT"


@pytest.mark.parametrize(
    "channel, ts, error",
    [
        ("C123", "1700000000.000100", "message_not_found"),
        ("C999", None, "channel_not_found"),
    ],
)
def test_chat_update_refusals(client, fake, channel, ts, error):
    posted = client.chat_postMessage(channel="C123", text="x")
    with pytest.raises(SlackApiError) as e:
        client.chat_update(channel=channel, ts=ts or posted["ts"], text="y")
    assert slack_error(e)["error"] == error


def test_chat_update_of_someone_elses_message(client, fake):
    msg = fake.add_message("C123", "a user's message")
    with pytest.raises(SlackApiError) as e:
        client.chat_update(channel="C123", ts=msg["ts"], text="hijack")
    assert slack_error(e)["error"] == "cant_update_message"


def test_post_ephemeral_and_permalink(client, fake):
    r = client.chat_postEphemeral(channel="C123", user="U123", text="only you")
    assert TS.match(r["message_ts"]) and fake.ephemeral_messages("C123", "U123")[0]["message"]["text"] == "only you"
    fake.add_channel("C200", "team", members=["U0BOT"])
    with pytest.raises(SlackApiError) as e:
        client.chat_postEphemeral(channel="C200", user="U123", text="x")
    assert slack_error(e)["error"] == "user_not_in_channel"
    parent = client.chat_postMessage(channel="C123", text="p")
    reply = client.chat_postMessage(channel="C123", text="r", thread_ts=parent["ts"])
    link = client.chat_getPermalink(channel="C123", message_ts=reply["ts"])["permalink"]
    assert link == (
        f"https://denpex-test.slack.com/archives/C123/p{reply['ts'].replace('.', '')}?thread_ts={parent['ts']}&cid=C123"
    )


def test_reactions(client, fake):
    msg = fake.add_message("C123", "logs attached")
    assert client.reactions_add(channel="C123", timestamp=msg["ts"], name="eyes")["ok"]
    assert fake.message("C123", msg["ts"])["reactions"] == [{"name": "eyes", "users": ["U0BOT"], "count": 1}]
    for kwargs, error in [
        ({"timestamp": msg["ts"], "name": "eyes"}, "already_reacted"),
        ({"timestamp": "1700000000.000100", "name": "eyes"}, "message_not_found"),
        ({"timestamp": msg["ts"], "name": ":eyes:"}, "invalid_name"),
    ]:
        with pytest.raises(SlackApiError) as e:
            client.reactions_add(channel="C123", **kwargs)
        assert slack_error(e)["error"] == error


# ----------------------------------------------------------------------------------------------
# Block Kit, directly


@pytest.mark.parametrize(
    "blocks, reason",
    [
        (
            [{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}],
            "must be less than 3001 characters [json-pointer:/blocks/0/text/text]",
        ),
        (
            [{"type": "section", "fields": [{"type": "mrkdwn", "text": "f"}] * 11}],
            "no more than 10 items allowed [json-pointer:/blocks/0/fields]",
        ),
        (
            [{"type": "section", "fields": [{"type": "mrkdwn", "text": "f" * 2001}]}],
            "must be less than 2001 characters [json-pointer:/blocks/0/fields/0/text]",
        ),
        (
            [{"type": "context", "elements": [{"type": "mrkdwn", "text": "c"}] * 11}],
            "no more than 10 items allowed [json-pointer:/blocks/0/elements]",
        ),
        (
            [{"type": "actions", "elements": [button(f"b{i}") for i in range(26)]}],
            "no more than 25 items allowed [json-pointer:/blocks/0/elements]",
        ),
        (
            [{"type": "actions", "elements": [button("b", text="t" * 76)]}],
            "must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]",
        ),
        (
            [{"type": "actions", "elements": [button("b", value="v" * 2001)]}],
            "must be less than 2001 characters [json-pointer:/blocks/0/elements/0/value]",
        ),
        (
            [{"type": "actions", "elements": [button("b", url="https://x/" + "u" * 3000)]}],
            "must be less than 3001 characters [json-pointer:/blocks/0/elements/0/url]",
        ),
        (
            [{"type": "actions", "elements": [button("b", style="warning")]}],
            "must be a valid enum value [json-pointer:/blocks/0/elements/0/style]",
        ),
        (
            [{"type": "actions", "elements": [button("a" * 256)]}],
            "must be less than 256 characters [json-pointer:/blocks/0/elements/0/action_id]",
        ),
        (
            [{"type": "header", "text": {"type": "mrkdwn", "text": "h"}}],
            "must be a valid enum value [json-pointer:/blocks/0/text/type]",
        ),
        (
            [{"type": "section", "text": {"type": "mrkdwn", "text": ""}}],
            "must be more than 0 characters [json-pointer:/blocks/0/text/text]",
        ),
        (
            [{"type": "divider", "block_id": "b" * 256}],
            "must be less than 256 characters [json-pointer:/blocks/0/block_id]",
        ),
        (
            [{"type": "divider", "block_id": "d"}, {"type": "divider", "block_id": "d"}],
            '`block_id` "d" already exists [json-pointer:/blocks/1/block_id]',
        ),
        ([{"type": "table", "rows": []}], "failed to match all allowed schemas [json-pointer:/blocks/0]"),
        ([{"type": "divider", "color": "red"}], "invalid additional property: color [json-pointer:/blocks/0]"),
        (
            [
                {
                    "type": "actions",
                    "elements": [
                        {
                            "type": "checkboxes",
                            "action_id": "c",
                            "options": checkbox_options(2),
                            "initial_options": checkbox_options(3)[2:],
                        }
                    ],
                }
            ],
            "must exactly match one of the options [json-pointer:/blocks/0/elements/0/initial_options/0]",
        ),
        (
            [
                {
                    "type": "actions",
                    "elements": [
                        {
                            "type": "checkboxes",
                            "action_id": "c",
                            "options": [{"text": {"type": "mrkdwn", "text": "o"}, "value": "v" * 151}],
                        }
                    ],
                }
            ],
            "must be less than 151 characters [json-pointer:/blocks/0/elements/0/options/0/value]",
        ),
        (
            [{"type": "actions", "elements": [{"type": "checkboxes", "action_id": "c", "options": []}]}],
            "must provide at least 1 item [json-pointer:/blocks/0/elements/0/options]",
        ),
        (
            [{"type": "actions", "elements": [{"type": "plain_text_input", "action_id": "t"}]}],
            "failed to match all allowed schemas [json-pointer:/blocks/0/elements/0]",
        ),
    ],
)
def test_block_kit_limits(blocks, reason):
    assert reason in validate_blocks(blocks)


def test_a_realistic_report_is_valid_and_assert_helper_raises():
    blocks = [
        header("cuda.oom on rank 3"),
        {
            "type": "section",
            "text": {"type": "mrkdwn", "text": "*Tried to allocate* 8.00 GiB"},
            "fields": [{"type": "mrkdwn", "text": f"*k{i}*\nv"} for i in range(10)],
            "accessory": button("details", "Details", "812345"),
        },
        {
            "type": "context",
            "elements": [
                {"type": "mrkdwn", "text": "rank 3 · gpu-node-00"},
                {"type": "image", "image_url": "https://x/i.png", "alt_text": "i"},
            ],
        },
        {"type": "divider"},
        {
            "type": "rich_text",
            "elements": [{"type": "rich_text_preformatted", "elements": [{"type": "text", "text": "Traceback..."}]}],
        },
        {
            "type": "actions",
            "elements": [
                button("rerun", "Re-run", "812345", style="primary"),
                {
                    "type": "checkboxes",
                    "action_id": "ranks",
                    "options": checkbox_options(10),
                    "initial_options": checkbox_options(10)[:2],
                },
                {
                    "type": "static_select",
                    "action_id": "sev",
                    "placeholder": {"type": "plain_text", "text": "Severity"},
                    "options": checkbox_options(3),
                },
            ],
        },
        {"type": "image", "image_url": "https://x/plot.png", "alt_text": "loss curve"},
    ]
    assert validate_blocks(blocks) == []
    assert_valid_blocks(json.dumps(blocks))
    with pytest.raises(InvalidBlocks) as e:
        assert_valid_blocks(blocks + [header("x" * 200)])
    assert e.value.errors == ["must be less than 151 characters [json-pointer:/blocks/7/text/text]"]
    assert blockkit.check_message("x" * 40_001) == ("msg_too_long", [])
    assert blockkit.check_message(None, None) == ("no_text", [])
    assert blockkit.check_message(None, "[oops") == ("invalid_blocks_format", [])


def test_view_validation():
    assert validate_view(modal()) == []
    assert validate_view(modal("t" * 25)) == ["must be less than 25 characters [json-pointer:/view/title/text]"]
    no_submit = modal()
    del no_submit["submit"]
    assert validate_view(no_submit) == ["missing required field: submit [json-pointer:/view]"]
    home = {"type": "home", "blocks": [{"type": "divider"}] * 101}
    assert validate_view(home) == ["no more than 100 items allowed [json-pointer:/view/blocks]"]
    assert_valid_view({"type": "home", "blocks": [{"type": "divider"}] * 100})
    with pytest.raises(InvalidBlocks):
        assert_valid_view(modal(close={"type": "plain_text", "text": "c" * 25}))


# ----------------------------------------------------------------------------------------------
# views


def test_views_open_update_push_publish(client, fake):
    trigger = fake.issue_trigger("U123")
    opened = client.views_open(trigger_id=trigger, view=modal())["view"]
    assert opened["id"].startswith("V") and opened["callback_id"] == "diagnose" and opened["hash"]
    assert fake.open_view("U123", "diagnose")["id"] == opened["id"]
    with pytest.raises(SlackApiError) as e:
        client.views_open(trigger_id=trigger, view=modal())
    assert slack_error(e)["error"] == "exchanged_trigger_id"
    with pytest.raises(SlackApiError) as e:
        client.views_open(trigger_id="12345.98765.abcd2358fdea", view=modal())
    assert slack_error(e)["error"] == "invalid_arguments"
    with pytest.raises(SlackApiError) as e:
        client.views_open(trigger_id=fake.issue_trigger(), view=modal("t" * 25))
    assert slack_error(e)["response_metadata"]["messages"] == [
        "[ERROR] must be less than 25 characters [json-pointer:/view/title/text]"
    ]

    updated = client.views_update(view_id=opened["id"], hash=opened["hash"], view=modal("Running"))["view"]
    assert updated["title"]["text"] == "Running" and updated["hash"] != opened["hash"]
    with pytest.raises(SlackApiError) as e:
        client.views_update(view_id=opened["id"], hash=opened["hash"], view=modal())
    assert slack_error(e)["error"] == "hash_conflict"
    with pytest.raises(SlackApiError) as e:
        client.views_update(view_id="VNOPE", view=modal())
    assert slack_error(e)["error"] == "not_found"

    pushed = client.views_push(trigger_id=fake.issue_trigger(), view=modal("Step 2"))["view"]
    assert pushed["root_view_id"] == opened["id"] and pushed["previous_view_id"] == opened["id"]

    home = client.views_publish(user_id="U123", view={"type": "home", "blocks": [section("hi")]})["view"]
    assert fake.home_view("U123")["id"] == home["id"]
    with pytest.raises(SlackApiError) as e:
        client.views_publish(user_id="U123", view={"type": "home", "blocks": [{"type": "divider"}] * 101})
    assert slack_error(e)["error"] == "invalid_arguments"


def test_trigger_ids_expire(fake, client):
    fake.trigger_ttl = 0.05
    trigger = fake.issue_trigger()
    time.sleep(0.1)
    with pytest.raises(SlackApiError) as e:
        client.views_open(trigger_id=trigger, view=modal())
    assert slack_error(e)["error"] == "expired_trigger_id"


# ----------------------------------------------------------------------------------------------
# files


def test_files_info_and_thread_files(client, fake):
    parent = fake.add_message("C123", "job 812345 died")
    f = fake.add_file("C123", "rank3.log", b"CUDA out of memory\n", thread_ts=parent["ts"])
    info = client.files_info(file=f["id"])["file"]
    assert info["id"] == f["id"] and info["name"] == "rank3.log" and info["size"] == 19
    assert info["mimetype"] == "text/plain" and info["filetype"] == "text"
    assert info["url_private"] == f"{fake.url}files-pri/T0001-{f['id']}/rank3.log"
    assert info["url_private_download"] == f"{fake.url}files-pri/T0001-{f['id']}/download/rank3.log"
    share = info["shares"]["public"]["C123"][0]
    assert share["thread_ts"] == parent["ts"] and TS.match(share["ts"])
    assert info["channels"] == ["C123"]
    replies = client.conversations_replies(channel="C123", ts=parent["ts"])["messages"]
    assert replies[1]["files"][0]["id"] == f["id"]
    with pytest.raises(SlackApiError) as e:
        client.files_info(file="FNOPE")
    assert slack_error(e)["error"] == "file_not_found"


def test_download_needs_the_bearer_token(fake):
    f = fake.add_file("C123", "train.log", b"loss=nan\n")
    url = f["url_private_download"]
    ok = httpx.get(url, headers={"Authorization": f"Bearer {fake.bot_token}"})
    assert ok.status_code == 200 and ok.content == b"loss=nan\n"
    assert ok.headers["Content-Type"] == "text/plain"
    for headers in ({}, {"Authorization": "Bearer xoxb-wrong"}):
        refused = httpx.get(url, headers=headers)
        assert refused.status_code == 302
        assert refused.headers["Location"].startswith(fake.url + "?redir=%2Ffiles-pri%2F")
    followed = httpx.get(url, follow_redirects=True)
    assert followed.status_code == 200 and followed.headers["Content-Type"].startswith("text/html")
    assert b"Sign in" in followed.content and b"loss=nan" not in followed.content


def test_a_150_mb_file_is_streamed_from_disk(fake, tmp_path):
    path = tmp_path / "huge.log"
    size = 150 * 1024 * 1024
    with open(path, "wb") as fh:
        fh.truncate(size)
        fh.seek(size - 4)
        fh.write(b"END\n")
    tracemalloc.start()
    try:
        f = fake.add_file("C123", "huge.log", path)
        digest = hashlib.sha256()
        with httpx.stream(
            "GET", f["url_private_download"], headers={"Authorization": f"Bearer {fake.bot_token}"}, timeout=30
        ) as r:
            assert r.status_code == 200 and int(r.headers["Content-Length"]) == size
            for chunk in r.iter_raw(1 << 20):
                digest.update(chunk)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    expected = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 22), b""):
            expected.update(chunk)
    assert digest.hexdigest() == expected.hexdigest()
    assert peak < 32 * 1024 * 1024, peak


def test_upload_flow_end_to_end_with_files_upload_v2(client, fake):
    parent = client.chat_postMessage(channel="C123", text="diagnosis")
    r = client.files_upload_v2(
        channel="C123",
        thread_ts=parent["ts"],
        content="rank 3: OOM\n",
        filename="report.txt",
        title="Report",
        initial_comment="full report",
    )
    file_id = r["file"]["id"]
    assert [
        c.method
        for c in fake.calls
        if c.method in ("files.getUploadURLExternal", "upload", "files.completeUploadExternal")
    ] == ["files.getUploadURLExternal", "upload", "files.completeUploadExternal"]
    thread = fake.thread("C123", parent["ts"])
    assert thread[1]["text"] == "full report" and thread[1]["files"][0]["id"] == file_id
    info = client.files_info(file=file_id)["file"]
    assert info["title"] == "Report" and info["size"] == 12 and info["user"] == "U0BOT"
    assert info["shares"]["public"]["C123"][0]["thread_ts"] == parent["ts"]
    got = httpx.get(info["url_private_download"], headers={"Authorization": f"Bearer {fake.bot_token}"})
    assert got.content == b"rank 3: OOM\n"
    assert fake.uploads() == [
        {"id": file_id, "name": "report.txt", "declared_length": 12, "size": 12, "uploaded": True, "completed": True}
    ]


def test_upload_flow_by_hand_multipart_and_refusals(client, fake):
    with pytest.raises(SlackApiError) as e:
        client.files_getUploadURLExternal(filename="", length=3)
    assert slack_error(e)["error"] == "invalid_arguments"
    ticket = client.files_getUploadURLExternal(filename="a.json", length=7)
    assert ticket["upload_url"].startswith(fake.url + "upload/v1/") and ticket["file_id"].startswith("F")
    with pytest.raises(SlackApiError) as e:  # completing before the bytes arrived
        client.files_completeUploadExternal(files=[{"id": ticket["file_id"]}], channel_id="C123")
    assert slack_error(e)["error"] == "file_not_found"
    up = httpx.post(ticket["upload_url"], files={"file": ("a.json", b'{"a":1}', "application/json")})
    assert up.status_code == 200 and up.text == "OK - 7"
    with pytest.raises(SlackApiError) as e:
        client.files_completeUploadExternal(files=[{"id": ticket["file_id"]}], channel_id="C999")
    assert slack_error(e)["error"] == "invalid_channel"
    done = client.files_completeUploadExternal(files=[{"id": ticket["file_id"], "title": "A"}], channel_id="C123")
    assert done["files"][0]["title"] == "A"
    assert fake.file_content(ticket["file_id"]) == b'{"a":1}'
    assert fake.messages("C123")[-1]["files"][0]["mimetype"] == "application/json"
    assert httpx.post(ticket["upload_url"], content=b"again").status_code == 404
    # a raw, chunked body (what a streaming client sends) is stored as is
    second = client.files_getUploadURLExternal(filename="b.bin", length=6)
    assert httpx.post(second["upload_url"], content=iter([b"abc", b"def"])).text == "OK - 6"
    client.files_completeUploadExternal(files=[{"id": second["file_id"]}])  # no channel: private
    assert fake.file(second["file_id"])["channels"] == [] and fake.file_content(second["file_id"]) == b"abcdef"


# ----------------------------------------------------------------------------------------------
# the driver, against a real slack_bolt app


class _BoltServer:
    """Serves a slack_bolt App over HTTP the way its adapters do."""

    def __init__(self, app):
        from slack_bolt.request import BoltRequest

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                req = BoltRequest(body=body.decode(), query="", headers={k: [v] for k, v in self.headers.items()})
                resp = app.dispatch(req)
                out = (resp.body or "").encode()
                self.send_response(resp.status)
                for k, vs in resp.headers.items():
                    for v in vs:
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/slack/events"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def bolt(fake):
    from slack_bolt import App

    app = App(signing_secret=fake.signing_secret, client=WebClient(token=fake.bot_token, base_url=fake.api_url))
    seen: list = []

    @app.event("app_mention")
    def mention(event, say):
        seen.append(("app_mention", event))
        say(text="on it", thread_ts=event["ts"])

    @app.event("file_shared")
    def file_shared(event):
        seen.append(("file_shared", event))

    @app.event({"type": "message", "subtype": "file_share"})
    def file_share(event):
        seen.append(("file_share", event))

    @app.command("/denpex")
    def command(ack, command, respond, client):
        ack()
        seen.append(("command", command))
        client.views_open(trigger_id=command["trigger_id"], view=modal())
        respond(text=f"diagnosing {command['text']}")

    @app.action("rerun")
    def rerun(ack, body, respond):
        ack()
        seen.append(("action", body))
        respond(replace_original=True, text="re-running")

    @app.view("diagnose")
    def submitted(ack, view):
        ack()
        seen.append(("view", view))

    server = _BoltServer(app)
    driver = SlackDriver(server.url, fake.signing_secret, fake)
    try:
        yield driver, seen
    finally:
        driver.close()
        server.close()


def test_driver_signs_like_slack(bolt, fake):
    driver, _ = bolt
    verifier = SignatureVerifier(fake.signing_secret)
    assert driver.url_verification("chal-123").json() == {"challenge": "chal-123"}
    assert verifier.is_valid_request(driver.last.body, driver.last.headers)
    assert driver.last.headers["X-Slack-Signature"].startswith("v0=")

    assert driver.url_verification("x", stale=True).status_code == 401
    assert not verifier.is_valid_request(driver.last.body, driver.last.headers)
    assert int(time.time()) - int(driver.last.headers["X-Slack-Request-Timestamp"]) >= 6 * 60
    assert driver.url_verification("x", bad_signature=True).status_code == 401
    assert not verifier.is_valid_request(driver.last.body, driver.last.headers)
    assert driver.url_verification("x", signature="v0=" + "0" * 64).status_code == 401


def test_event_delivery_and_retry_headers(bolt, fake):
    driver, seen = bolt
    msg = fake.add_message("C123", "<@U0BOT> why did 812345 die?")
    event = {"type": "app_mention", "user": "U123", "text": msg["text"], "ts": msg["ts"], "channel": "C123"}
    r = driver.event(event, event_id="Ev0000000001")
    assert r.status_code == 200
    envelope = json.loads(driver.last.body)
    assert envelope["type"] == "event_callback" and envelope["event_id"] == "Ev0000000001"
    assert envelope["authorizations"][0]["user_id"] == "U0BOT" and envelope["team_id"] == "T0001"
    fake.wait_for(lambda: len(fake.thread("C123", msg["ts"])) == 2, timeout=5)
    assert fake.thread("C123", msg["ts"])[1]["text"] == "on it"

    driver.retry_last_event(retry_num=1, retry_reason="http_timeout")
    assert driver.last.body == driver.sent[-2].body
    assert driver.last.headers["X-Slack-Retry-Num"] == "1"
    assert driver.last.headers["X-Slack-Retry-Reason"] == "http_timeout"
    assert SignatureVerifier(fake.signing_secret).is_valid_request(driver.last.body, driver.last.headers)
    r = driver.event(event, event_id="Ev0000000001", retry_num=2, retry_reason="http_error")
    assert r.status_code == 200 and driver.last.headers["X-Slack-Retry-Num"] == "2"


def test_command_response_url_modal_and_submission(bolt, fake):
    driver, seen = bolt
    r = driver.command("812345")
    assert r.status_code == 200
    fields = driver.last.payload
    assert set(fields) == {
        "token",
        "team_id",
        "team_domain",
        "channel_id",
        "channel_name",
        "user_id",
        "user_name",
        "command",
        "text",
        "api_app_id",
        "is_enterprise_install",
        "response_url",
        "trigger_id",
    }
    assert fields["response_url"].startswith(fake.url)
    fake.wait_for(lambda: fake.response_url_posts() and fake.open_view("U123", "diagnose"), timeout=5)
    assert fake.response_url_posts()[0].args["text"] == "diagnosing 812345"
    assert fake.ephemeral_messages("C123", "U123")[0]["message"]["text"] == "diagnosing 812345"

    r = driver.view_submission("diagnose", {"job": {"job_id": "812345"}})
    assert r.status_code == 200
    fake.wait_for(lambda: any(kind == "view" for kind, _ in seen), timeout=5)
    view = next(v for kind, v in seen if kind == "view")
    assert view["state"]["values"] == {"job": {"job_id": {"type": "plain_text_input", "value": "812345"}}}
    assert fake.open_view("U123", "diagnose") is None  # an empty ack closes the modal
    with pytest.raises(LookupError):
        driver.view_submission("diagnose", {"job": {"job_id": "1"}})


def test_block_action_on_a_real_message(bolt, fake, client):
    driver, seen = bolt
    posted = client.chat_postMessage(
        channel="C123",
        text="failed",
        blocks=[section("cuda.oom"), {"type": "actions", "elements": [button("rerun", "Re-run", "812345")]}],
    )
    r = driver.block_action("rerun", message_ts=posted["ts"], channel="C123")
    assert r.status_code == 200
    payload = driver.last.payload
    assert payload["actions"][0]["value"] == "812345"
    assert payload["actions"][0]["block_id"] == posted["message"]["blocks"][1]["block_id"]
    assert payload["container"] == {
        "type": "message",
        "message_ts": posted["ts"],
        "channel_id": "C123",
        "is_ephemeral": False,
    }
    fake.wait_for(lambda: fake.message("C123", posted["ts"])["text"] == "re-running", timeout=5)
    with pytest.raises(LookupError):
        driver.block_action("delete_everything", message_ts=posted["ts"], channel="C123")


def test_one_upload_gives_two_events(bolt, fake):
    driver, seen = bolt
    f = fake.add_file("C123", "rank0.log", b"ok\n")
    first, second = driver.file_upload_events(f)
    assert first.status_code == second.status_code == 200
    bodies = [json.loads(r.body) for r in driver.sent[-2:]]
    assert bodies[0]["event_id"] != bodies[1]["event_id"]
    assert bodies[0]["event"]["subtype"] == "file_share" and bodies[0]["event"]["files"][0]["id"] == f["id"]
    assert bodies[1]["event"]["type"] == "file_shared" and bodies[1]["event"]["file_id"] == f["id"]
    fake.wait_for(lambda: {k for k, _ in seen} >= {"file_share", "file_shared"}, timeout=5)


def test_wait_for_times_out(fake):
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        fake.wait_for(lambda: fake.calls_to("chat.postMessage"), timeout=0.2)
    assert time.monotonic() - started < 1
