"""Buttons and checkboxes on an answer, and the Fix applied… modal."""

from __future__ import annotations

from bot.followups import FollowUps
from bot.render import ACK, CHECKLIST, FIX, FIX_VIEW, MORE, NOT_THIS
from bot.responder import Responder


def register(app, responder: Responder, followups: FollowUps) -> None:
    @app.action(ACK)
    @app.action(FIX)
    @app.action(NOT_THIS)
    @app.action(MORE)
    @app.action(CHECKLIST)
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
