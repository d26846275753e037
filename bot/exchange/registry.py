"""Which tables a league file holds, found from SQLModel's metadata rather than listed by hand.

A table belongs to a league when it has a `league_id` column, or a required foreign key to a table that does
(a match's check-ins belong to the match). Each table joins the section named for the storage module that
defines it (`storage.models` is "common", `storage.matches` is "team"; a new `storage/ladder.py` would be
"ladder"), so a format's new tables join the file without code here. What metadata cannot say is which JSON
columns hold ids of other rows: those are declared in `JSON_REFERENCES`, and every JSON column must be named
there or in `JSON_PLAIN` (a unit test holds new tables to that).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import SQLModel

import storage  # noqa: F401  (importing the package registers every table on the metadata)

LEAGUE_TABLE = "league"
IMPLIED_COLUMNS = ("league_id", "guild_id")  # the league the file is imported as, and its server
DERIVED_COLUMNS = ("name_key",)  # computed from `name` on import, so a hand edit cannot disagree with it
SECTION_OF_MODULE = {"storage.models": "common", "storage.matches": "team"}

Lookup = Callable[[str, int], int]  # (table, id) → the id it maps to; raises KeyError when there is no such row


def _id_list(table: str) -> Callable[[Any, Lookup], Any]:
    def remap(value: Any, lookup: Lookup) -> Any:
        return [lookup(table, int(item)) for item in value or []]

    return remap


def _lineup_games(value: Any, lookup: Lookup) -> Any:
    """A declared lineup: [{"players": [player ids], "machine": machine id or null}, …]."""
    games = []
    for game in value or []:
        machine = game.get("machine")
        games.append(
            {
                **game,
                "players": [lookup("player", int(player)) for player in game.get("players", [])],
                "machine": None if machine is None else lookup("machine", int(machine)),
            }
        )
    return games


JSON_REFERENCES: dict[tuple[str, str], Callable[[Any, Lookup], Any]] = {
    ("match_lineup", "games"): _lineup_games,
    ("lineup_replacement", "players"): _id_list("player"),
    ("tiebreaker_setup", "home_players"): _id_list("player"),
    ("tiebreaker_setup", "away_players"): _id_list("player"),
}
# JSON kept as it is: options, audit snapshots (as recorded, with the ids of the database they came from),
# challenged games as [round, game] pairs, scheduled posts' timings.
JSON_PLAIN = frozenset(
    {
        ("league", "options"),
        ("audit_entry", "before"),
        ("audit_entry", "after"),
        ("match_challenge", "games"),
        ("league_posting", "timings"),  # storage/posts.py, on main since this branch started
    }
)
# An id column whose table is named by another column of the row (the audit entry's `entity`).
POLYMORPHIC_REFERENCES = {("audit_entry", "entity_id"): "entity"}


@dataclass(frozen=True)
class TableSpec:
    table: sa.Table
    section: str
    owner: sa.Column[Any]  # the column that ties a row to the league, directly or through its parent

    @property
    def name(self) -> str:
        return self.table.name

    @property
    def file_name(self) -> str:
        return f"{self.table.name}.csv"

    @property
    def has_id(self) -> bool:
        """Rows with an `id` are numbered in the file; a table keyed by its league (settings) has one row."""
        return "id" in self.table.columns

    @property
    def columns(self) -> list[sa.Column[Any]]:
        """The columns a file carries, in table order (`id` first)."""
        skipped = (*IMPLIED_COLUMNS, *DERIVED_COLUMNS)
        return [column for column in self.table.columns if column.name not in skipped]

    def references(self, column: sa.Column[Any]) -> str | None:
        """The league table an id column points at, if it is a foreign key inside the league."""
        for key in column.foreign_keys:
            if key.column.table.name != LEAGUE_TABLE:
                return key.column.table.name
        return None


def league_tables(metadata: sa.MetaData | None = None) -> list[TableSpec]:
    """Every table a league owns, parents before children (the order rows are imported in); tables whose rows
    name any other table (audit entries) come last, when every row they may name exists."""
    sections = _sections()
    specs: dict[str, TableSpec] = {}
    for table in (metadata or SQLModel.metadata).sorted_tables:
        if table.name == LEAGUE_TABLE:
            continue
        owner = _owner(table, specs)
        if owner is not None:
            specs[table.name] = TableSpec(table, sections.get(table.name, "common"), owner)
    polymorphic = {table for table, _ in POLYMORPHIC_REFERENCES}
    return sorted(specs.values(), key=lambda spec: spec.name in polymorphic)


def _owner(table: sa.Table, owned: dict[str, TableSpec]) -> sa.Column[Any] | None:
    if "league_id" in table.columns:
        return table.columns["league_id"]
    for column in table.columns:
        if column.nullable:
            continue
        if any(key.column.table.name in owned for key in column.foreign_keys):
            return column
    return None


def _sections() -> dict[str, str]:
    sections = {}
    for mapper in SQLModel._sa_registry.mappers:
        model = mapper.class_
        module = model.__module__
        section = SECTION_OF_MODULE.get(module, module.rsplit(".", 1)[-1])
        for table in mapper.tables:
            sections[table.name] = section
    return sections
