"""config/manifest.yml asks for the scopes the bot's code needs, and no others.

The Web API methods the bot calls are read from bot/ itself (an AST walk), so a new call
without its scope, or a scope left behind by a removed feature, fails here."""

from __future__ import annotations

import ast

import pytest
import yaml  # type: ignore[import-untyped]  # types-PyYAML is not in requirements-dev.lock; only this test reads YAML
from conftest import ROOT
from slack_sdk import WebClient
from slack_sdk.web.base_client import BaseClient

PLACEHOLDER_URL = "https://denpex.example.com/slack/events"

# The bot scopes each Web API method needs, from "Required scopes" on https://api.slack.com/methods/<method>
# (slack_sdk's name, dots for underscores: chat_postMessage is chat.postMessage). conversations.replies needs the
# history scope of the conversation's type: the bot reads threads in public and private channels.
METHOD_SCOPES: dict[str, set[str]] = {
    "auth_test": set(),  # called by Bolt at start-up
    "chat_getPermalink": set(),
    "chat_postEphemeral": {"chat:write"},
    "chat_postMessage": {"chat:write"},
    "chat_update": {"chat:write"},
    "conversations_history": {"channels:history", "groups:history"},
    "conversations_replies": {"channels:history", "groups:history"},
    "files_info": {"files:read"},
    # slack_sdk's helper over files.getUploadURLExternal and files.completeUploadExternal
    "files_upload_v2": {"files:write"},
    "usergroups_users_list": {"usergroups:read"},
    "views_open": set(),
}
# The scope each bot event needs, from https://api.slack.com/events/<event> (message.channels etc.: the message event).
EVENT_SCOPES = {
    "app_mention": "app_mentions:read",
    "file_shared": "files:read",
    "message.channels": "channels:history",
    "message.groups": "groups:history",
    "message.im": "im:history",
    "message.mpim": "mpim:history",
}
SLACK_METHODS = {name for name in dir(WebClient) if not name.startswith("_")} - set(dir(BaseClient))


def manifest() -> dict:
    return yaml.safe_load((ROOT / "config" / "manifest.yml").read_text())


def methods_called() -> dict[str, str]:
    """{Web API method (slack_sdk's name): one place the bot calls it}, from every module under bot/."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            method = node.func.attr
            if method == "api_call" and node.args and isinstance(node.args[0], ast.Constant):
                method = str(node.args[0].value).replace(".", "_")  # client.api_call("chat.postMessage", ...)
            if method in SLACK_METHODS or method in METHOD_SCOPES:
                found.setdefault(method, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def scopes_needed() -> dict[str, str]:
    """{scope: why}, for every scope the code or the manifest's own features need."""
    app = manifest()
    needed = {
        scope: f"{method} ({where})"
        for method, where in methods_called().items()
        for scope in METHOD_SCOPES.get(method, ())
    }
    needed.update(
        {
            EVENT_SCOPES[event]: f"the {event} event"
            for event in app["settings"]["event_subscriptions"]["bot_events"]
            if event in EVENT_SCOPES
        }
    )
    if app["features"].get("slash_commands"):
        needed["commands"] = "the slash commands"
    return needed


def test_the_walk_finds_the_calls_we_know_of():
    assert {"chat_postMessage", "chat_update", "files_info", "files_upload_v2", "views_open"} <= methods_called().keys()


@pytest.mark.parametrize("method", sorted(methods_called()))
def test_every_method_the_bot_calls_has_its_scopes_listed(method):
    assert method in METHOD_SCOPES, (
        f"{methods_called()[method]} calls {method}: add it to METHOD_SCOPES with the bot scopes that "
        f"https://api.slack.com/methods/{method.replace('_', '.')} lists"
    )


def test_every_needed_scope_is_requested():
    requested = set(manifest()["oauth_config"]["scopes"]["bot"])
    missing = {scope: why for scope, why in scopes_needed().items() if scope not in requested}
    assert not missing, f"config/manifest.yml lacks scopes the bot needs: {missing}"


def test_every_requested_scope_is_needed():
    unused = set(manifest()["oauth_config"]["scopes"]["bot"]) - scopes_needed().keys()
    assert not unused, f"config/manifest.yml asks for scopes no code or event needs: {sorted(unused)}"


def test_every_subscribed_event_has_a_known_scope():
    unknown = set(manifest()["settings"]["event_subscriptions"]["bot_events"]) - EVENT_SCOPES.keys()
    assert not unknown, f"add these events to EVENT_SCOPES (https://api.slack.com/events): {sorted(unknown)}"


def test_http_mode_urls_are_present():
    """Socket Mode ignores them; HTTP mode needs all three, and the placeholder says which host to put in."""
    app = manifest()
    assert app["settings"]["event_subscriptions"]["request_url"] == PLACEHOLDER_URL
    assert app["settings"]["interactivity"]["request_url"] == PLACEHOLDER_URL
    commands = app["features"]["slash_commands"]
    assert commands and all(command["url"] == PLACEHOLDER_URL for command in commands)
