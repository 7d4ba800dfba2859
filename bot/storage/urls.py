"""DATABASE_URL: which backend and which database, parsed once, printable without its password.

`sqlite:///relative/path.db` and `sqlite:////absolute/path.db` name a SQLite file (the embedded default);
`postgresql://user:password@host:port/dbname` (or `postgres://`) names a PostgreSQL database. Anything else
is refused with one line that says what to write.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bot.storage.errors import UnsupportedDatabaseUrl

DEFAULT_DATABASE_URL = "sqlite:///data/puluc.db"
POSTGRES_SCHEMES = ("postgresql", "postgres")
_EXAMPLES = "sqlite:///data/puluc.db, sqlite:////srv/puluc/puluc.db or postgresql://user:password@host:5432/dbname"


@dataclass(frozen=True, slots=True)
class SqliteUrl:
    """A SQLite database file. The settings loader makes a relative path absolute (bot/config.py says how)."""

    path: Path

    @property
    def where(self) -> str:
        return str(self.path.expanduser().absolute())


@dataclass(frozen=True, slots=True)
class PostgresUrl:
    """A PostgreSQL database. `dsn` holds the password: it never appears in `repr` or `where`."""

    dsn: str = field(repr=False)
    host: str
    port: int
    database: str
    user: str | None

    @property
    def where(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address keeps its brackets
        return f"{host}:{self.port}/{self.database}"


DatabaseUrl = SqliteUrl | PostgresUrl


def parse_database_url(url: str) -> DatabaseUrl:
    """The database `url` names; `UnsupportedDatabaseUrl` (one line, no password) when it names none."""
    parts = urlsplit(url.strip())
    if parts.scheme == "sqlite":
        # urlsplit reads "sqlite:/x.db" and "sqlite:///x.db" alike; only the second is a relative path.
        if parts.netloc or not url.strip().startswith("sqlite:///") or len(parts.path) < 2:
            raise UnsupportedDatabaseUrl(
                "DATABASE_URL needs three slashes and a file: sqlite:///relative/path.db or "
                "sqlite:////absolute/path.db"
            )
        if parts.query or parts.fragment:
            raise UnsupportedDatabaseUrl(
                "DATABASE_URL takes no ?query or #fragment for SQLite; give only the file path"
            )
        return SqliteUrl(Path(parts.path[1:]))
    if parts.scheme in POSTGRES_SCHEMES:
        try:
            port = parts.port or 5432
        except ValueError:
            raise UnsupportedDatabaseUrl(
                "DATABASE_URL has a port that is not a number between 1 and 65535 (postgresql://user:password@host:5432/dbname)"
            ) from None
        database = unquote(parts.path.lstrip("/"))
        if not parts.hostname or not database or "/" in database:
            raise UnsupportedDatabaseUrl(
                "DATABASE_URL for PostgreSQL needs a host and a database name: postgresql://user:password@host:5432/dbname"
            )
        if parts.fragment:
            raise UnsupportedDatabaseUrl("DATABASE_URL takes no #fragment")
        return PostgresUrl(
            url.strip(), parts.hostname, port, database, unquote(parts.username) if parts.username else None
        )
    scheme = parts.scheme or "(none)"
    raise UnsupportedDatabaseUrl(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, not {scheme!r}; for example {_EXAMPLES}"
    )
