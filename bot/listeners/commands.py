"""`/denpex`: help, this channel's status, diagnose (a pasted log or a job id), watch and unwatch a job."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from bot import render
from bot.diagnose import Diagnoser, JobAsked, NotAllowed, Paste, Refused, read_diagnose_command
from bot.fetch import FetchError
from bot.inbox import Inbox
from bot.responder import Responder, Target, group_members
from bot.store import Store
from bot.watching.jobs import JobWatches
from bot.work import ShuttingDown, Task

log = logging.getLogger("denpex.bot")


def _tell(client, body: dict, text: str) -> None:
    """Say `text` to whoever ran the command, if Slack takes it (logged when it does not)."""
    try:
        client.chat_postEphemeral(channel=body["channel_id"], user=body.get("user_id", ""), text=text)
    except Exception:
        log.exception("telling the user failed too")


def register(
    app, store: Store, inbox: Inbox, responder: Responder, service: Diagnoser, watches: JobWatches
) -> Callable[..., bool]:
    """Listen for `/denpex`; returns how a diagnose command is answered (a resumed request is answered so too)."""

    def watch(body: dict, ack, client, verb: str) -> None:
        """`/denpex watch|unwatch <job>`: acknowledged at once; the scheduler is asked off the listener threads."""
        user, channel = body.get("user_id", ""), body["channel_id"]
        reference = (body.get("text") or "").strip().partition(" ")[2].strip()
        if not reference:
            ack(text=render.watch_needs_job(verb))
            return
        try:
            ref = service.job_for(reference, user, group_members(client))
        except FetchError as exc:
            ack(text=render.warning(exc))
            return
        except NotAllowed as exc:
            ack(text=render.not_allowed(exc.ref.cluster))
            return
        ack()

        def say(text: str) -> None:
            if text:
                client.chat_postEphemeral(channel=channel, user=user, text=text)

        def work() -> None:
            def reply(ts: str, text: str) -> None:
                client.chat_postMessage(channel=channel, thread_ts=ts, text=text)

            try:
                if verb == "watch":
                    say(
                        watches.start(
                            ref,
                            channel,
                            user,
                            lambda text: client.chat_postMessage(channel=channel, text=text)["ts"],
                            reply,
                        )
                    )
                else:
                    say(watches.stop(ref, channel, user, reply))
            except FetchError as exc:
                say(render.warning(exc))
            except Exception as exc:  # Slack refused the post (not in the channel), the database failed, ...
                log.exception("/denpex %s %s failed", verb, ref.job_id)
                _tell(client, body, render.warning(f"I could not {verb} `{ref.job_id}`: {exc}"))

        try:
            responder.intake.submit(Task(f"{verb} {ref.cluster}/{ref.job_id}", work))
        except ShuttingDown:
            say(render.RESTARTING)

    def diagnose(body: dict, ack, client, key: str | None) -> bool:
        """`/denpex diagnose …`; True when the work was handed to the responder (which finishes `key`)."""
        user = body.get("user_id", "")
        try:
            asked = read_diagnose_command(body.get("text") or "")
            ref = service.job_for(asked.reference, user, group_members(client)) if isinstance(asked, JobAsked) else None
        except Refused as exc:
            ack(text=str(exc))
            return False
        except FetchError as exc:
            ack(text=render.warning(exc))
            return False
        except NotAllowed as exc:
            ack(text=render.not_allowed(exc.ref.cluster))
            return False
        ack()
        what = render.job_asked(ref.raw) if ref is not None else render.PASTED
        target = Target(
            body["channel_id"], None, user, key, asked=what
        )  # announced in the channel, answered in its thread
        if ref is not None:
            responder.diagnose_job(client, target, ref)
        elif isinstance(asked, Paste):
            responder.diagnose_text(client, target, asked.text, asked.notes)
        return True

    @app.command("/denpex")
    def on_command(ack, body, client):
        verb = (body.get("text") or "").strip().partition(" ")[0].lower()
        if verb == "status":
            channel = body["channel_id"]
            text = render.status_with_watches(
                store.open_incidents(channel),
                store.watches_in(channel),
                channel,
                responder.workspace_url(client),
                service.unrecognised_open_for(),
            )
            ack(text=text)
            return
        if verb == "hosts":
            ack(text=service.hosts_text())
            return
        if verb in ("watch", "unwatch"):
            watch(body, ack, client, verb)
            return
        if verb != "diagnose":
            ack(text=render.help_message(verb))
            return
        key = f"command:{body.get('trigger_id') or body.get('channel_id', '') + ':' + str(time.time())}"
        inbox.accept(key, "command", body)  # recorded before the ack; a slash command is never retried
        try:
            inbox.finish_unless_handed(key, lambda: diagnose(body, ack, client, key))
        except Exception as exc:
            # Never out of the listener: Bolt answers an exception raised after ack() by clearing the ack it
            # has not sent yet, and Slack then shows the user a timeout instead of what we said
            log.exception("/denpex diagnose failed after its ack")
            _tell(client, body, render.warning(f"I could not answer this: {exc}"))

    return diagnose
