"""Events: a log file shared (two events for one upload), a mention with a pasted log or in a log's thread."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot import render
from bot.diagnose import is_a_paste, looks_like_log_file, mention_text
from bot.inbox import Inbox
from bot.responder import Responder, Target
from bot.slack_files import shared_file, thread_files
from bot.work import ShuttingDown, Task

log = logging.getLogger("denpex.bot")

EVENTS = ({"type": "message", "subtype": "file_share"}, "file_shared", "message", "app_mention")


def register(app, inbox: Inbox, responder: Responder) -> Callable[[dict, object, str | None], bool]:
    """Listen for events; returns how an event is routed (a resumed request is routed so too)."""

    def answer_file(
        client, key: str | None, file_id: str, channel: str, thread_ts: str | None, user: str | None, info: dict
    ) -> bool:
        if not looks_like_log_file(info):
            return False
        # file_shared and message/file_share: one upload, one answer (the same request may claim it again)
        if not inbox.first_time(f"file:{file_id}", key):
            return False
        responder.diagnose_file(client, Target(channel, thread_ts, user, key), file_id)
        return True

    def route(event: dict, client, key: str | None) -> bool:
        """What an event asks for; True when the work was handed to the responder (which finishes `key`)."""
        kind, subtype = event.get("type"), event.get("subtype")
        if kind == "message" and subtype == "file_share":
            thread_ts = event.get("thread_ts") or event.get("ts")
            handed = False
            for f in event.get("files", []):  # the request is finished with the first file's answer
                if answer_file(
                    client, None if handed else key, f["id"], event["channel"], thread_ts, event.get("user"), f
                ):
                    handed = True
            return handed
        if kind == "file_shared":
            file_id = event.get("file_id") or (event.get("file") or {}).get("id")
            channel = event.get("channel_id")
            if not file_id or not channel:
                log.warning("file_shared event without a file id or a channel id: ignored")
                return False
            info, thread_ts = shared_file(client, file_id, channel)
            return answer_file(client, key, file_id, channel, thread_ts, event.get("user_id"), info)
        if kind == "app_mention":
            return on_mention(event, client, key)
        return False  # plain messages are not for the bot

    def on_mention(event: dict, client, key: str | None) -> bool:
        channel = event["channel"]
        thread_ts = event.get("thread_ts") or event["ts"]
        target = Target(channel, thread_ts, event.get("user"), key)
        text = mention_text(event.get("text") or "")
        if is_a_paste(text):
            responder.diagnose_text(client, target, text, [])
            return True
        files = [f for f in event.get("files", []) if looks_like_log_file(f)]
        if not files and event.get("thread_ts"):
            files = [f for f in thread_files(client, channel, event["thread_ts"]) if looks_like_log_file(f)]
        if files:
            responder.diagnose_file(client, target, files[0]["id"])
            return True
        client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=render.MENTION_WITHOUT_LOG)
        return False

    def on_event(body, client):
        key = f"event:{body['event_id']}" if body.get("event_id") else None

        def work() -> None:
            inbox.finish_unless_handed(key, lambda: route(body.get("event") or {}, client, key))

        try:  # routing reads Slack (files.info, the thread's parent): off Bolt's few listener threads
            responder.intake.submit(Task(f"event {key}", work, key=key))
        except ShuttingDown:
            inbox.handed_over([key] if key else [])  # accepted, not started: the next process answers it

    for event in EVENTS:
        app.event(event)(on_event)
    return route
