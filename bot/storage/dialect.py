"""The few differences between the SQLite and PostgreSQL SQL this project writes, in one place.

The stores write SQL both databases accept (``ON CONFLICT``, ``RETURNING``, ``?`` placeholders);
what differs is translated here, explicitly:

* placeholders: ``?`` becomes ``$1, $2, ...`` for asyncpg;
* migrations are written for SQLite and translated for PostgreSQL: ``INTEGER PRIMARY KEY
  AUTOINCREMENT`` becomes ``BIGSERIAL PRIMARY KEY``, ``INTEGER`` becomes ``BIGINT`` (Discord ids
  are 64-bit), ``REAL`` becomes ``DOUBLE PRECISION`` (epoch seconds need more than 24 bits); a
  line starting ``--sqlite:`` is a statement for SQLite only (a backfill that needs ``rowid``), one
  starting ``--postgresql:`` for PostgreSQL only (its own date functions); each is a comment to the other;
* a table's seats as one JSON array (``seats_json``).
"""

from __future__ import annotations

import re
from functools import lru_cache

SQLITE = "sqlite"
POSTGRESQL = "postgresql"


def is_url(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))


@lru_cache(maxsize=2048)
def numbered(sql: str) -> str:
    """``?`` placeholders as ``$n``, leaving quoted text alone."""
    out: list[str] = []
    n = 0
    quote: str | None = None
    for ch in sql:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


SQLITE_ONLY = re.compile(r"^--sqlite:\s?(.*)$", re.MULTILINE)
POSTGRESQL_ONLY = re.compile(r"^--postgresql:\s?(.*)$", re.MULTILINE)


def migration(sql: str, dialect: str) -> str:
    """A migration file's text for ``dialect``."""
    if dialect == SQLITE:
        return SQLITE_ONLY.sub(r"\1", sql)
    sql = POSTGRESQL_ONLY.sub(r"\1", sql)
    sql = re.sub(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", "BIGSERIAL PRIMARY KEY", sql, flags=re.I)
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)


SEAT_COLUMNS = "position, user_id, name, away, timeouts, level, replaced"


def seats_json(dialect: str) -> str:
    """A subquery giving the seats of game table ``t`` as a JSON array of arrays, in seat order."""
    if dialect == POSTGRESQL:
        return (
            f"(SELECT COALESCE(json_agg(json_build_array({SEAT_COLUMNS}) ORDER BY position), '[]')::text"
            " FROM seats WHERE table_id = t.id)"
        )
    return (
        f"(SELECT json_group_array(json_array({SEAT_COLUMNS}))"
        " FROM (SELECT * FROM seats WHERE table_id = t.id ORDER BY position))"
    )


def upsert(table: str, columns: tuple[str, ...], key: tuple[str, ...]) -> str:
    """``INSERT OR REPLACE`` in a form both databases accept: insert, or overwrite the row with
    the same ``key``."""
    values = ", ".join("?" for _ in columns)
    rest = [c for c in columns if c not in key]
    sets = ", ".join(f"{c} = excluded.{c}" for c in rest)
    action = f"DO UPDATE SET {sets}" if rest else "DO NOTHING"
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({values})"
        f" ON CONFLICT ({', '.join(key)}) {action}"
    )
