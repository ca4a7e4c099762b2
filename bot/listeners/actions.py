"""Buttons and checkboxes on an answer, and its modals: Fix applied…, Not this, Draft a signature."""

from __future__ import annotations

from bot.followups import FollowUps
from bot.render import (
    ACK,
    CHECKLIST,
    DRAFT,
    DRAFT_VIEW,
    FIX,
    FIX_VIEW,
    MORE,
    MUTE,
    NOT_THIS,
    NOT_THIS_VIEW,
    UNMUTE,
    USEFUL,
)
from bot.responder import Responder


def register(app, responder: Responder, followups: FollowUps) -> None:
    @app.action(ACK)
    @app.action(FIX)
    @app.action(NOT_THIS)
    @app.action(MORE)
    @app.action(CHECKLIST)
    @app.action(USEFUL)
    @app.action(MUTE)
    @app.action(UNMUTE)
    @app.action(DRAFT)
    def on_button(ack, body, client):
        ack()
        responder.press(client, body)

    @app.view(FIX_VIEW)
    def on_fix_submitted(ack, body, view, client):
        errors = responder.fix_submitted(client, followups, body, view)
        if errors:
            ack(response_action="errors", errors=errors)
        else:
            ack()

    @app.view(NOT_THIS_VIEW)
    def on_not_this_submitted(ack, body, view, client):
        ack()
        responder.submitted(responder.not_this_submitted, client, body, view)

    @app.view(DRAFT_VIEW)
    def on_draft_submitted(ack, body, view, client):
        ack()  # the form closes at once; the draft follows in the thread
        responder.submitted(responder.draft_submitted, client, body, view)
