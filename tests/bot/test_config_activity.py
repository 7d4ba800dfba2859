"""The Discord Activity's settings: both or neither, the client of the bot's own application, a secret that
never shows, and Discord's API address."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import ConfigError, load_config
from bot.config_spec import SETTINGS
from tests.helpers import TOKEN

APPLICATION = "1057489987654321012"  # the application TOKEN belongs to
SECRET = "Zx8-client-secret_0123456789abcd"


def settings(**values: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": TOKEN, **values}


def test_without_the_client_the_activity_is_off() -> None:
    config = load_config(settings())
    assert not config.activity_on and config.activity_client is None
    assert config.discord_api_url == "https://discord.com/api/v10"


def test_the_client_id_and_secret_turn_the_activity_on_and_the_secret_stays_hidden() -> None:
    config = load_config(settings(DISCORD_CLIENT_ID=APPLICATION, DISCORD_CLIENT_SECRET=SECRET))
    assert config.activity_on
    assert config.activity_client is not None and config.activity_client.client_id == int(APPLICATION)
    assert SECRET not in repr(config) and SECRET in config.secrets


@pytest.mark.parametrize("given", ["DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET"])
def test_one_without_the_other_says_what_is_missing(given: str) -> None:
    value = APPLICATION if given == "DISCORD_CLIENT_ID" else SECRET
    with pytest.raises(ConfigError) as raised:
        load_config(settings(**{given: value}))
    (problem,) = raised.value.problems
    missing = "DISCORD_CLIENT_SECRET" if given == "DISCORD_CLIENT_ID" else "DISCORD_CLIENT_ID"
    assert problem.startswith(f"{given} is set but {missing} is not")
    assert SECRET not in problem


def test_a_client_of_another_application_is_refused() -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(settings(DISCORD_CLIENT_ID="123456789012345678", DISCORD_CLIENT_SECRET=SECRET))
    assert "is not the application of DISCORD_TOKEN (application 1057489987654321012)" in str(raised.value)


@pytest.mark.parametrize("secret", [TOKEN, "a b", '"quoted"'])
def test_a_secret_that_cannot_be_one_is_refused_without_echoing_it(secret: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(settings(DISCORD_CLIENT_ID=APPLICATION, DISCORD_CLIENT_SECRET=secret))
    assert secret not in str(raised.value)
    assert "DISCORD_CLIENT_SECRET" in str(raised.value)


def test_a_client_id_that_is_no_id_is_refused() -> None:
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_ID must be the application id"):
        load_config(settings(DISCORD_CLIENT_ID="my-app", DISCORD_CLIENT_SECRET=SECRET))


@pytest.mark.parametrize("url", ["discord.com/api", "ftp://discord.com/api", "https://", "https://x.org/api?v=10"])
def test_the_api_url_must_be_an_http_url(url: str) -> None:
    with pytest.raises(ConfigError, match="DISCORD_API_URL must be an http"):
        load_config(settings(DISCORD_API_URL=url))


def test_the_api_url_loses_a_trailing_slash() -> None:
    assert load_config(settings(DISCORD_API_URL="http://127.0.0.1:8999/api/v10/")).discord_api_url == (
        "http://127.0.0.1:8999/api/v10")


@pytest.fixture
def bare_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No bot setting in the environment, an empty working folder (no .env), a database file of the test."""
    for setting in SETTINGS:
        monkeypatch.delenv(setting.name, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'puluc.db'}")


@pytest.mark.usefixtures("bare_environment")
def test_check_says_whether_the_activity_is_on(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check"]) == 0
    assert "puluc-bot: Discord Activity: off (set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET" in (
        capsys.readouterr().out)
    monkeypatch.setenv("DISCORD_CLIENT_ID", APPLICATION)
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", SECRET)
    assert main(["--check"]) == 0
    out, err = capsys.readouterr()
    assert f"puluc-bot: Discord Activity: configured for application {APPLICATION} but not served" in out
    monkeypatch.setenv("WEB_PORT", "8081")
    monkeypatch.setenv("WEB_SECRET", "a-long-random-web-secret-0123456789abcdef")
    assert main(["--check"]) == 0
    out, err = capsys.readouterr()
    assert f"puluc-bot: Discord Activity: on for application {APPLICATION}" in out
    assert SECRET not in out + err
