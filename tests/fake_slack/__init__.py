"""A strict fake Slack workspace for the bot's tests.

* :class:`FakeSlack` (server.py): the Web API, file hosting/uploads and response URLs over HTTP.
* :class:`SlackDriver` (driver.py): sends the bot signed events, slash commands and interactions.
* :mod:`fake_slack.blockkit`: Block Kit validation as Slack applies it.

Typical test::

    with FakeSlack() as fake:                      # C123 "general", users U123 and U0BOT exist
        app = make_app(base_url=fake.api_url, signing_secret=fake.signing_secret)
        driver = SlackDriver(app_url, fake.signing_secret, fake)
        msg = fake.add_message("C123", "<@U0BOT> diagnose")
        driver.event({"type": "app_mention", "user": "U123", "text": msg["text"],
                      "channel": "C123", "ts": msg["ts"]})
        fake.wait_for(lambda: len(fake.thread("C123", msg["ts"])) > 1)

Choices a test writer must know: unknown channels are ``channel_not_found`` (register them with
``add_channel``); file downloads without ``Authorization: Bearer <bot token>`` get a 302 to the
sign-in page (HTML if followed); trigger_ids expire after ``trigger_ttl`` (3 s) and work once;
response URLs work 5 times; the driver refuses to click elements that are not in the message
and to submit views the bot never opened (``strict=False`` to override).
"""

from .blockkit import (
    InvalidBlocks,
    assert_valid_blocks,
    assert_valid_view,
    check_message,
    validate_blocks,
    validate_view,
)
from .driver import SlackDriver, sign
from .server import DEFAULT_SCOPES, Call, FakeSlack

__all__ = [
    "Call",
    "DEFAULT_SCOPES",
    "FakeSlack",
    "InvalidBlocks",
    "SlackDriver",
    "assert_valid_blocks",
    "assert_valid_view",
    "check_message",
    "sign",
    "validate_blocks",
    "validate_view",
]
