"""Config: read from `.env` and the environment, checked against their one definition, one line per mistake,
the token never echoed, relative paths anchored to the `.env` file's folder."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, EnvFile, find_env_file, load_config, read_config
from bot.config_spec import LIMIT_SETTINGS, LOG_LEVEL, SETTINGS, NumberSetting
from bot.storage.urls import SqliteUrl
from tests.helpers import TOKEN

NUMBERS = [setting for setting in SETTINGS if isinstance(setting, NumberSetting)]


@pytest.fixture(autouse=True)
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs in an empty folder of its own, so no developer's .env is ever read."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    return cwd


def write_env(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / ".env"
    path.write_text(text, encoding="utf-8")
    return path


def config_error(environ: dict[str, str], env_file: EnvFile | Path | None = None) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(environ, env_file)
    message = str(caught.value)
    assert "\n" not in message, "a configuration error must be one line"
    return message


def test_defaults_apply_when_only_the_token_is_given(elsewhere: Path) -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN})
    assert config.discord_token == TOKEN
    assert config.database == SqliteUrl(elsewhere / "data" / "puluc.db")
    assert config.dev_guild_id is None
    assert config.log_level == "INFO"
    assert config.turn_timer_seconds == 600
    assert config.ai_budget_ms == 300
    assert config.max_open_games_per_user == 3
    assert config.font_path is None
    assert config.env_file is None


def test_env_file_is_read(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=debug\nTURN_TIMER_SECONDS=120\n")
    config = load_config({}, env_file)
    assert config.discord_token == TOKEN
    assert config.log_level == "DEBUG"
    assert config.turn_timer_seconds == 120
    assert config.env_file == EnvFile(env_file, True)


def test_environment_overrides_env_file(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, "DISCORD_TOKEN=not-a-token\nAI_BUDGET_MS=50\n")
    config = load_config({"DISCORD_TOKEN": TOKEN, "AI_BUDGET_MS": "900"}, env_file)
    assert config.discord_token == TOKEN
    assert config.ai_budget_ms == 900


def test_the_default_env_file_is_the_one_in_the_current_folder(elsewhere: Path) -> None:
    assert find_env_file() == EnvFile(elsewhere / ".env", False)
    write_env(elsewhere, f"DISCORD_TOKEN={TOKEN}\n")
    found = find_env_file()
    assert found == EnvFile(elsewhere / ".env", True)
    assert load_config({}, found).discord_token == TOKEN


def test_a_named_env_file_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"--env-file .*typo/\.env: no such file"):
        find_env_file(tmp_path / "typo" / ".env")
    assert "no such file" in config_error({"DISCORD_TOKEN": TOKEN}, tmp_path / "absent.env")


def test_a_named_env_file_that_is_a_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"is a folder; name the file itself"):
        find_env_file(tmp_path)


def test_a_folder_called_env_in_the_current_folder_is_an_error(elsewhere: Path) -> None:
    (elsewhere / ".env").mkdir()
    with pytest.raises(ConfigError, match=r"\.env is a folder"):
        find_env_file()


def test_relative_paths_are_relative_to_the_env_files_folder(tmp_path: Path, elsewhere: Path) -> None:
    home = tmp_path / "srv" / "puluc"
    (home / "fonts").mkdir(parents=True)
    (home / "fonts" / "board.ttf").write_bytes(b"\0")
    env_file = write_env(home, f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL=sqlite:///data/puluc.db\nFONT_PATH=fonts/board.ttf\n")
    config = load_config({}, find_env_file(env_file))
    assert config.database == SqliteUrl(home / "data" / "puluc.db")
    assert config.font_path == home / "fonts" / "board.ttf"
    # Started from elsewhere, the same file names the same database, and never one under the current folder.
    assert not str(config.database.where).startswith(str(elsewhere))


def test_relative_paths_without_an_env_file_are_relative_to_the_current_folder(elsewhere: Path) -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "sqlite:///state/../puluc.db"})
    assert config.database == SqliteUrl(elsewhere / "puluc.db")


def test_absolute_database_url_gives_an_absolute_path(tmp_path: Path) -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": f"sqlite:///{tmp_path}/p.db"})
    assert config.database == SqliteUrl(tmp_path / "p.db")


def test_an_in_memory_database_is_refused_for_the_bot() -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "sqlite:///:memory:"})
    assert "keeps nothing" in message
    assert "DATABASE_URL=sqlite:///data/puluc.db" in message


def test_copied_env_example_with_blank_values_uses_the_defaults(tmp_path: Path) -> None:
    example = (Path(__file__).parents[2] / ".env.example").read_text(encoding="utf-8")
    env_file = write_env(tmp_path, example.replace("DISCORD_TOKEN=", f"DISCORD_TOKEN={TOKEN}", 1))
    from_example = load_config({}, env_file)
    from_defaults = load_config({"DISCORD_TOKEN": TOKEN}, EnvFile(tmp_path / ".env", False))
    assert from_example.misspelt == ()
    assert from_example == replace(from_defaults, env_file=from_example.env_file)


def test_missing_token_says_where_the_env_file_was_looked_for(elsewhere: Path) -> None:
    message = config_error({}, find_env_file())
    assert message.startswith("DISCORD_TOKEN is not set")
    assert f"no .env file at {elsewhere / '.env'}" in message
    assert "--env-file" in message and "developer portal" in message


def test_missing_token_names_the_env_file_that_was_read(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, "DISCORD_TOKEN=\n")
    message = config_error({}, env_file)
    assert message.startswith("DISCORD_TOKEN is not set")
    assert str(env_file) in message


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        (f"Bot {TOKEN}", "remove the leading 'Bot ' prefix"),
        (f'"{TOKEN}"', "wrapped in quotes"),
        (TOKEN[:20] + " " + TOKEN[21:], "contains whitespace"),
        ("0123456789abcdef0123456789abcdef", "may be the client secret"),
        ("MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw", "it has 2 dot-separated parts, a bot token has three"),
        (TOKEN.replace("s3cr3t", "s3cr!t"), "characters a bot token never has"),
        ("abc.def.ghi", "its first, second and third parts are too short"),
        ("MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw.s3cr3tPart", "its third part is too short"),
        ("MTA1NzQ4OTk4NzY1NDMyMTAxMg..s3cr3tPartThatMustNeverBePrinted0", "its second part is too short"),
    ],
)
def test_malformed_token_is_rejected_with_what_is_wrong(token: str, expected: str) -> None:
    message = config_error({"DISCORD_TOKEN": token})
    assert message.startswith("DISCORD_TOKEN ")
    assert expected in message


@pytest.mark.parametrize(
    "token",
    [
        f"Bot {TOKEN}",
        TOKEN.replace(".", " ", 1),
        "s3cr3tPartThatMustNeverBePrinted0",
        TOKEN + ".x",
        "abcXYZ.defUVW.ghiRST",
        "MTA1NzQ4OTk4NzY1NDMyMTAxMg.GhXyZw.s3cr3t",
    ],
)
def test_error_messages_never_contain_any_part_of_the_token(token: str) -> None:
    message = config_error({"DISCORD_TOKEN": token})
    for part in token.replace(" ", ".").split("."):
        if len(part) >= 4:
            assert part not in message


def test_settings_repr_hides_the_token() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN})
    assert "s3cr3t" not in repr(config)
    assert "s3cr3t" not in str(config)


@pytest.mark.parametrize(
    "url", ["mysql://localhost/puluc", "postgres://localhost", "sqlite://host/puluc.db", "data/puluc.db", "sqlite:///p.db?mode=ro"]
)
def test_bad_database_url_is_one_clear_line(url: str) -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert message.startswith(("DATABASE_URL ", f"DATABASE_URL={url} "))


def test_a_bare_path_as_database_url_is_told_the_url_to_write() -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "data/puluc.db"})
    assert "DATABASE_URL=sqlite:///data/puluc.db" in message and "(none)" not in message


@pytest.mark.parametrize("url", ["postgresql://puluc:pw@[::1/puluc", "postgresql://puluc:pw@[db.example]:5432/puluc"])
def test_a_malformed_ipv6_host_is_one_line_without_the_password(url: str) -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert message.startswith("DATABASE_URL has a malformed host: an IPv6 address goes in square brackets")
    assert "pw" not in message


def test_a_postgres_url_without_its_slashes_is_refused_without_echoing_the_password() -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql:puluc:pw@db/puluc"})
    assert message.startswith("DATABASE_URL needs :// after its scheme") and "pw" not in message


# -- every mistake in one pass ----------------------------------------------------------------------------


def test_every_bad_setting_is_reported_in_one_pass_one_line_each() -> None:
    environ = {"DISCORD_TOKEN": TOKEN, "TURN_TIMER_SECONDS": "5", "LOG_LEVEL": "loud", "AI_BUDGET_MS": "fast",
               "DEV_GUILD_ID": "my server", "TURN_TIMER_SECOND": "60"}
    with pytest.raises(ConfigError) as caught:
        load_config(environ)
    problems = caught.value.problems
    assert [problem.split(" ", 1)[0] for problem in problems] == [
        "DEV_GUILD_ID", "LOG_LEVEL", "TURN_TIMER_SECONDS", "AI_BUDGET_MS"]
    assert all("\n" not in problem for problem in problems)
    assert str(caught.value) == "\n".join(problems)
    report = read_config(environ)
    assert report.failed == {"DEV_GUILD_ID", "LOG_LEVEL", "TURN_TIMER_SECONDS", "AI_BUDGET_MS"}
    # The other settings are read as given, the failed ones stand at their defaults.
    assert report.config.turn_timer_seconds == 600 and report.config.log_level == "INFO"


def test_a_misspelt_token_name_keeps_its_hint_though_the_token_is_then_missing(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, f"DISCORD_TOKN={TOKEN}\n")
    with pytest.raises(ConfigError) as caught:
        load_config({}, env_file)
    (problem,) = caught.value.problems
    assert problem.startswith("DISCORD_TOKEN is not set")
    assert caught.value.hints == (
        f"{env_file} sets DISCORD_TOKN, which is no setting of the bot (ignored); did you mean DISCORD_TOKEN?",)
    for part in TOKEN.split("."):
        assert part not in str(caught.value) + " ".join(caught.value.hints)


def test_a_line_of_env_that_cannot_be_read_is_named_by_file_and_line_and_the_rest_is_read(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, f"DISCORD_TOKEN={TOKEN}\n# timers\nTURN TIMER=60\nLOG_LEVEL=debug\n")
    report = read_config({}, env_file)
    assert report.problems == (
        (f"{env_file}, line 3 (the one that starts with TURN), is not a setting: write NAME=value on one line, a "
         "value with spaces or # in quotes that close on the same line, and # only to start a comment; that line "
         "was ignored."),)
    assert report.config.log_level == "DEBUG" and report.config.discord_token == TOKEN


def test_an_unclosed_quote_on_the_token_line_is_reported_without_the_token(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, f'LOG_LEVEL=info\nDISCORD_TOKEN="{TOKEN}\n')
    with pytest.raises(ConfigError) as caught:
        load_config({}, env_file)
    assert f"{env_file}, line 2 (the one that starts with DISCORD_TOKEN), is not a setting" in str(caught.value)
    for part in TOKEN.split("."):
        assert part not in str(caught.value)


def test_the_application_id_is_read_from_the_tokens_first_part() -> None:
    assert load_config({"DISCORD_TOKEN": TOKEN}).application_id == 1057489987654321012
    # Three parts of the right lengths whose first is not a number in base64: no id, and no invite.
    odd = "QUJDREVGR0hJSktMTU5PUA." + TOKEN.split(".", 1)[1]
    assert load_config({"DISCORD_TOKEN": odd}).application_id is None


def test_dev_guild_id_is_a_server_id() -> None:
    assert load_config({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "123456789012345678"}).dev_guild_id == (
        123456789012345678
    )
    assert "DEV_GUILD_ID must be a server id" in config_error({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "my server"})
    assert "DEV_GUILD_ID" in config_error({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "0"})
    assert "DEV_GUILD_ID" in config_error({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": str(2**63)})


@pytest.mark.parametrize(("text", "level"), [("warn", "WARNING"), ("WARN", "WARNING"), ("Warning", "WARNING"),
                                             ("debug", "DEBUG"), ("fatal", "CRITICAL"), (" info ", "INFO")])
def test_log_level_takes_any_case_and_the_usual_aliases(text: str, level: str) -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": text})
    assert config.log_level == level
    assert config.log_level_number > 0


def test_an_unknown_log_level_says_what_to_write() -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"})
    assert message.startswith(f"LOG_LEVEL must be {LOG_LEVEL.rule}")
    assert "'LOUD'" in message and "LOG_LEVEL=INFO" in message


@pytest.mark.parametrize("spec", NUMBERS, ids=lambda spec: spec.name)
def test_each_number_setting_takes_its_bounds_and_nothing_outside(
    spec: NumberSetting[int] | NumberSetting[float],
) -> None:
    for value in (spec.minimum, spec.maximum):
        config = load_config({"DISCORD_TOKEN": TOKEN, spec.name: str(value)})
        # The limits on members and servers are read into one mapping by name (Config.limits).
        found = config.limits[spec.name] if spec in LIMIT_SETTINGS else getattr(config, spec.name.lower())
        assert found == value
    step = 1 if spec.kind is int else 0.5
    for value in (spec.minimum - step, spec.maximum + step):
        message = config_error({"DISCORD_TOKEN": TOKEN, spec.name: str(value)})
        assert message.startswith(f"{spec.name} must be {spec.rule}; got {str(value)!r}.")
        assert f"Write for example {spec.name}={spec.default}" in message


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TURN_TIMER_SECONDS", "700000"),
        ("TURN_TIMER_SECONDS", "ten minutes"),
        ("AI_BUDGET_MS", "600000"),
        ("AI_BUDGET_MS", "1.5"),
        ("MAX_OPEN_GAMES_PER_USER", "0"),
        ("COMMAND_COOLDOWN_SECONDS", "-1"),
        ("AI_MOVE_DELAY_SECONDS", "nan"),
        ("AI_MOVE_DELAY_SECONDS", "inf"),
    ],
)
def test_out_of_range_numbers_are_rejected_with_what_to_write(name: str, value: str) -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, name: value})
    assert message.startswith(f"{name} must be")
    assert repr(value) in message
    assert f"Write for example {name}=" in message


def test_fractional_delays_are_accepted() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "AI_MOVE_DELAY_SECONDS": "0.5", "COMMAND_COOLDOWN_SECONDS": "0"})
    assert config.ai_move_delay_seconds == 0.5
    assert config.command_cooldown_seconds == 0.0


def test_font_path_must_be_a_file(tmp_path: Path) -> None:
    message = config_error({"DISCORD_TOKEN": TOKEN, "FONT_PATH": str(tmp_path / "missing.ttf")})
    assert message.startswith("FONT_PATH points to")
    font = tmp_path / "f.ttf"
    font.write_bytes(b"\0")
    assert load_config({"DISCORD_TOKEN": TOKEN, "FONT_PATH": str(font)}).font_path == font


def test_a_misspelt_setting_in_the_env_file_is_noticed(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, f"DISCORD_TOKEN={TOKEN}\nTURN_TIMER=60\nPOSTGRES_PASSWORD=x\n")
    config = load_config({}, env_file)
    assert config.misspelt == (("TURN_TIMER", "TURN_TIMER_SECONDS"),)
    assert config.turn_timer_seconds == 600


def test_settings_are_frozen() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN})
    with pytest.raises(AttributeError):
        config.log_level = "DEBUG"  # type: ignore[misc]
    assert isinstance(config, Config)


def test_the_token_and_its_signature_are_the_secrets_logs_hide() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN})
    assert config.secrets == (TOKEN, "s3cr3tPartThatMustNeverBePrinted0")
