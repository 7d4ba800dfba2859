"""Settings: read from `.env` and the environment, validated into one line per mistake, token never echoed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, load_settings
from bot.storage.urls import SqliteUrl
from tests.helpers import TOKEN

# Shaped like a bot token (id . timestamp . hmac) but not a real one.


def write_env(tmp_path: Path, text: str) -> Path:
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8")
    return path


def config_error(environ: dict[str, str], env_file: Path | None = None) -> str:
    with pytest.raises(ConfigError) as caught:
        load_settings(environ, env_file)
    message = str(caught.value)
    assert "\n" not in message, "a configuration error must be one line"
    return message


def test_defaults_apply_when_only_the_token_is_given() -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, None)
    assert settings.discord_token == TOKEN
    assert settings.database == SqliteUrl(Path("data/puluc.db"))
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.turn_timer_seconds == 600
    assert settings.ai_budget_ms == 300
    assert settings.max_open_games_per_user == 3
    assert settings.font_path is None


def test_env_file_is_read(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=debug\nTURN_TIMER_SECONDS=120\n")
    settings = load_settings({}, env_file)
    assert settings.discord_token == TOKEN
    assert settings.log_level == "DEBUG"
    assert settings.turn_timer_seconds == 120


def test_environment_overrides_env_file(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, "DISCORD_TOKEN=not-a-token\nAI_BUDGET_MS=50\n")
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "AI_BUDGET_MS": "900"}, env_file)
    assert settings.discord_token == TOKEN
    assert settings.ai_budget_ms == 900


def test_missing_env_file_is_not_an_error(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, tmp_path / "absent.env")
    assert settings.discord_token == TOKEN


def test_copied_env_example_with_blank_values_uses_defaults(tmp_path: Path) -> None:
    example = (Path(__file__).parents[2] / ".env.example").read_text(encoding="utf-8")
    env_file = write_env(tmp_path, example.replace("DISCORD_TOKEN=", f"DISCORD_TOKEN={TOKEN}", 1))
    assert load_settings({}, env_file) == load_settings({"DISCORD_TOKEN": TOKEN}, None)


def test_missing_token_names_the_setting_and_what_to_do() -> None:
    message = config_error({})
    assert "DISCORD_TOKEN is not set" in message
    assert ".env" in message and "developer portal" in message


def test_blank_token_counts_as_missing(tmp_path: Path) -> None:
    assert "DISCORD_TOKEN is not set" in config_error({}, write_env(tmp_path, "DISCORD_TOKEN=\n"))


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        (f"Bot {TOKEN}", "remove the leading 'Bot ' prefix"),
        (TOKEN[:20] + " " + TOKEN[21:], "contains whitespace"),
        ("0123456789abcdef0123456789abcdef", "may be the client secret"),
        ("MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw", "three dot-separated parts"),
        (TOKEN.replace("s3cr3t", "s3cr!t"), "three dot-separated parts"),
    ],
)
def test_malformed_token_is_rejected_with_a_reason(token: str, expected: str) -> None:
    message = config_error({"DISCORD_TOKEN": token})
    assert "DISCORD_TOKEN" in message
    assert expected in message


@pytest.mark.parametrize(
    "token",
    [f"Bot {TOKEN}", TOKEN.replace(".", " ", 1), "s3cr3tPartThatMustNeverBePrinted0", TOKEN + ".x"],
)
def test_error_messages_never_contain_the_token(token: str) -> None:
    message = config_error({"DISCORD_TOKEN": token})
    assert "s3cr3t" not in message


def test_settings_repr_hides_the_token() -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, None)
    assert "s3cr3t" not in repr(settings)
    assert "s3cr3t" not in str(settings)


@pytest.mark.parametrize(
    "url", ["mysql://localhost/puluc", "postgres://localhost", "sqlite://host/puluc.db", "data/puluc.db", "sqlite:///p.db?mode=ro"]
)
def test_bad_database_url_is_one_clear_line(url: str) -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert message.startswith("DATABASE_URL ")


def test_absolute_database_url_gives_an_absolute_path(tmp_path: Path) -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": f"sqlite:///{tmp_path}/p.db"}, None)
    assert settings.database == SqliteUrl(tmp_path / "p.db")


def test_dev_guild_id_is_a_server_id() -> None:
    assert load_settings({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "123456789012345678"}, None).dev_guild_id == (
        123456789012345678
    )
    assert "DEV_GUILD_ID must be a server id" in config_error({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "my server"})
    assert "DEV_GUILD_ID" in config_error({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "0"})


def test_log_level_must_be_a_known_level() -> None:
    assert "LOG_LEVEL must be one of" in config_error({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TURN_TIMER_SECONDS", "5"),
        ("TURN_TIMER_SECONDS", "ten minutes"),
        ("AI_BUDGET_MS", "1.5"),
        ("MAX_OPEN_GAMES_PER_USER", "0"),
        ("COMMAND_COOLDOWN_SECONDS", "-1"),
        ("AI_MOVE_DELAY_SECONDS", "nan"),
        ("AI_MOVE_DELAY_SECONDS", "inf"),
    ],
)
def test_out_of_range_numbers_are_rejected(name: str, value: str) -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, name: value})
    assert message.startswith(f"{name} must be")
    assert repr(value) in message


def test_fractional_delays_are_accepted() -> None:
    settings = load_settings(
        {"DISCORD_TOKEN": TOKEN, "AI_MOVE_DELAY_SECONDS": "0.5", "COMMAND_COOLDOWN_SECONDS": "0"}, None
    )
    assert settings.ai_move_delay_seconds == 0.5
    assert settings.command_cooldown_seconds == 0.0


def test_font_path_must_exist(tmp_path: Path) -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "FONT_PATH": str(tmp_path / "missing.ttf")})
    assert message.startswith("FONT_PATH points to")
    font = tmp_path / "f.ttf"
    font.write_bytes(b"\0")
    assert load_settings({"DISCORD_TOKEN": TOKEN, "FONT_PATH": str(font)}, None).font_path == font


def test_settings_are_frozen() -> None:
    settings = load_settings({"DISCORD_TOKEN": TOKEN}, None)
    with pytest.raises(AttributeError):
        settings.log_level = "DEBUG"  # type: ignore[misc]
    assert isinstance(settings, Settings)
