"""DATABASE_URL: which backend and which database, and never the password in anything printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.errors import UnsupportedDatabaseUrl
from bot.storage.urls import PostgresUrl, SqliteUrl, parse_database_url


def test_sqlite_paths_relative_and_absolute() -> None:
    assert parse_database_url("sqlite:///data/puluc.db") == SqliteUrl(Path("data/puluc.db"))
    assert parse_database_url("sqlite:////var/lib/puluc/puluc.db") == SqliteUrl(Path("/var/lib/puluc/puluc.db"))


@pytest.mark.parametrize(
    "url", ["mysql://u@h/db", "postgresql://u@h", "postgresql:///db", "data/puluc.db", "sqlite://host/x.db",
            "sqlite:///", "postgresql://u@h:99999/db", "postgresql://u@h/a/b"]
)
def test_urls_that_name_no_database_are_refused(url: str) -> None:
    with pytest.raises(UnsupportedDatabaseUrl):
        parse_database_url(url)


def test_sqlite_with_one_slash_is_refused_with_the_fix() -> None:
    with pytest.raises(UnsupportedDatabaseUrl, match="three slashes"):
        parse_database_url("sqlite:/puluc.db")


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_postgres_url_names_host_port_and_database_without_the_password(scheme: str) -> None:
    parsed = parse_database_url(f"{scheme}://puluc:s3cret%21@db.example.org:6543/puluc_prod?sslmode=require")
    assert isinstance(parsed, PostgresUrl)
    assert (parsed.host, parsed.port, parsed.database, parsed.user) == ("db.example.org", 6543, "puluc_prod", "puluc")
    assert parsed.where == "db.example.org:6543/puluc_prod"
    assert "s3cret" not in repr(parsed) and "s3cret" not in parsed.where
    assert "s3cret" in parsed.dsn  # only the driver sees it


def test_postgres_defaults_to_port_5432_and_shows_ipv6_in_brackets() -> None:
    parsed = parse_database_url("postgresql://postgres@127.0.0.1/test")
    assert isinstance(parsed, PostgresUrl) and parsed.where == "127.0.0.1:5432/test"
    parsed = parse_database_url("postgresql://postgres@[::1]:5433/test")
    assert isinstance(parsed, PostgresUrl) and parsed.where == "[::1]:5433/test"


def test_a_bad_postgres_url_is_refused_without_echoing_the_password() -> None:
    with pytest.raises(UnsupportedDatabaseUrl) as refused:
        parse_database_url("postgresql://u:hunter2@h:notaport/db")
    assert "hunter2" not in str(refused.value)
