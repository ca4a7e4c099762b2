"""Secrets from files (`*_FILE`), as Docker and Kubernetes mount them."""

import pytest

from bot.settings import SettingsError, load_settings


def env_for(tmp_path, **extra) -> dict:
    return {"DENPEX_DB": str(tmp_path / "denpex.db"), **extra}


def test_secrets_are_read_from_files(tmp_path):
    (tmp_path / "bot").write_text("xoxb-from-file\n")
    (tmp_path / "signing").write_text("s3cr3t\n")
    s = load_settings(
        http=True,
        env=env_for(
            tmp_path, SLACK_BOT_TOKEN_FILE=str(tmp_path / "bot"), SLACK_SIGNING_SECRET_FILE=str(tmp_path / "signing")
        ),
    )
    assert (s.bot_token, s.signing_secret) == ("xoxb-from-file", "s3cr3t")
    (tmp_path / "app").write_text("xapp-1-A\n")
    s = load_settings(
        http=False, env=env_for(tmp_path, SLACK_BOT_TOKEN="xoxb-env", SLACK_APP_TOKEN_FILE=str(tmp_path / "app"))
    )
    assert (s.bot_token, s.app_token) == ("xoxb-env", "xapp-1-A")


@pytest.mark.parametrize(
    "extra,message",
    [
        ({"SLACK_BOT_TOKEN": "xoxb-a", "SLACK_BOT_TOKEN_FILE": "/run/secrets/t"}, "both SLACK_BOT_TOKEN and"),
        ({"SLACK_BOT_TOKEN_FILE": "/nonexistent/token"}, "SLACK_BOT_TOKEN_FILE: cannot read /nonexistent/token"),
    ],
)
def test_a_bad_secret_file_names_the_setting(tmp_path, extra, message):
    with pytest.raises(SettingsError, match=message):
        load_settings(http=False, env=env_for(tmp_path, SLACK_APP_TOKEN="xapp-1", **extra))


def test_a_file_holding_the_wrong_kind_of_token_is_refused(tmp_path):
    (tmp_path / "bot").write_text("xapp-not-a-bot-token\n")
    with pytest.raises(SettingsError, match="SLACK_BOT_TOKEN does not look like a xoxb"):
        load_settings(
            http=True, env=env_for(tmp_path, SLACK_BOT_TOKEN_FILE=str(tmp_path / "bot"), SLACK_SIGNING_SECRET="x")
        )
