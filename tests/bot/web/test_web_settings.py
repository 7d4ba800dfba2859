"""The web pages' settings (WEB_PORT, WEB_HOST, WEB_BASE_URL, WEB_SECRET, WEB_TRUST_FORWARDED, WEB_PROCESS) and
`puluc-bot web`'s refusals: each mistake one line that says what to write."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import ConfigError, load_config, read_config
from tests.helpers import TOKEN

SECRET = "x" * 12 + "0123456789abcdefghijklmnop"


def problems(environ: dict[str, str]) -> str:
    with pytest.raises(ConfigError) as raised:
        load_config({"DISCORD_TOKEN": TOKEN, **environ})
    return "\n".join(raised.value.problems)


def test_the_pages_are_off_by_default() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN})
    assert config.web_port is None and config.web_base_url is None and config.web_secret is None
    assert config.web_host == "127.0.0.1" and config.web_trust_forwarded is False
    assert config.web_own_process is True  # when WEB_PORT is set, the pages run in a process of their own


def test_the_pages_with_every_setting() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "WEB_PORT": "8081", "WEB_HOST": "0.0.0.0", "WEB_SECRET": SECRET,
                          "WEB_BASE_URL": "https://puluc.example.org/", "WEB_TRUST_FORWARDED": "yes",
                          "WEB_PROCESS": "bot"})
    assert (config.web_port, config.web_host, config.web_base_url, config.web_trust_forwarded,
            config.web_own_process) == (8081, "0.0.0.0", "https://puluc.example.org", True, False)
    assert SECRET in config.secrets  # never logged
    assert SECRET not in repr(config)


def test_a_port_or_base_url_without_a_secret_says_how_to_make_one() -> None:
    assert "WEB_SECRET" in problems({"WEB_PORT": "8081"}) and "token_urlsafe" in problems({"WEB_PORT": "8081"})
    assert "WEB_SECRET" in problems({"WEB_BASE_URL": "https://x.example"})


@pytest.mark.parametrize(("name", "value", "expected"), [
    ("WEB_PORT", "70000", "WEB_PORT must be a TCP port from 1 to 65535"),
    ("WEB_SECRET", "short", "at least 32 random characters"),
    ("WEB_SECRET", "a" * 40, "at least 32 random characters"),
    ("WEB_BASE_URL", "puluc.example.org", "http:// or https://"),
    ("WEB_BASE_URL", "https://x.example/?a=1", "no ?query"),
    ("WEB_HOST", "not a host!", "WEB_HOST must be an IP address or a host name"),
    ("WEB_TRUST_FORWARDED", "maybe", "WEB_TRUST_FORWARDED must be one of NO or YES"),
    ("WEB_PROCESS", "child", "WEB_PROCESS must be one of OWN or BOT"),
])
def test_each_mistake_is_one_line_naming_the_setting(name: str, value: str, expected: str) -> None:
    found = problems({"WEB_SECRET": SECRET, name: value})
    assert expected in found and found.count("\n") == 0
    if name == "WEB_SECRET":
        assert value not in found  # a secret is never repeated


def test_the_web_command_needs_no_token_but_refuses_sqlite(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_URL", "WEB_PORT", "WEB_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WEB_PORT", "8081")
    monkeypatch.setenv("WEB_SECRET", SECRET)
    assert not read_config({"WEB_PORT": "8081", "WEB_SECRET": SECRET}, None, needs_token=False).problems
    assert main(["web"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "puluc-bot web: error: DATABASE_URL is a SQLite file" in err
    assert "DISCORD_TOKEN" not in err


def test_the_web_command_without_port_or_secret_names_both(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "WEB_PORT", "WEB_SECRET"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", "postgresql://puluc@127.0.0.1:1/puluc")
    assert main(["web"]) == 1
    err = capsys.readouterr().err
    assert "set WEB_PORT" in err and "set WEB_SECRET" in err and err.count("\n") == 2


def test_check_says_where_the_pages_are_served() -> None:
    from bot.cli.preflight import describe_web

    config = load_config({"DISCORD_TOKEN": TOKEN, "WEB_PORT": "8081", "WEB_SECRET": SECRET,
                          "WEB_BASE_URL": "https://puluc.example.org"})
    assert describe_web(config) == ("web pages: served on http://127.0.0.1:8081; the bot links to them under "
                                    "https://puluc.example.org")
