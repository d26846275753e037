"""Which tables a league file holds, found from SQLModel's metadata rather than listed by hand.

A table belongs to a league when it has a `league_id` column, or a required foreign key to a table that does
(a match's check-ins belong to the match). Each table joins the section named for the storage module that
defines it: a format's modules (`Format.tables`: `storage.matches` and `storage/ladder.py` are the team's and
the ladder's) make its section, `storage.models` is "common", any other module its own name; so a format's new
tables join the file without code here. What metadata cannot say is which JSON
columns hold ids of other rows: those are declared in `JSON_REFERENCES` (and text columns that spell ids in
`TEXT_REFERENCES`), and every JSON column must be named there or in `JSON_PLAIN` (a unit test holds new tables
to that).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import SQLModel

import storage  # noqa: F401  (importing the package registers every table on the metadata)
from bot import formats

LEAGUE_TABLE = "league"
IMPLIED_COLUMNS = ("league_id", "guild_id")  # the league the file is imported as, and its server
# `name_key` is computed from `name` on import, so a hand edit cannot disagree with it; `match.facts_version`
# only tells stored results apart (storage/results.py) and starts again at 0.
DERIVED_COLUMNS = ("name_key", "facts_version")
DERIVED_TABLES = frozenset({"match_final_result"})  # copies of computed results, computed again on demand

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


def _id_lists(table: str) -> Callable[[Any, Lookup], Any]:
    """A list of id lists (a ladder night's next groups)."""

    def remap(value: Any, lookup: Lookup) -> Any:
        return [[lookup(table, int(item)) for item in inner] for inner in value]

    return remap


def _keyed_by_id(table: str) -> Callable[[Any, Lookup], Any]:
    """A JSON object whose keys are ids (JSON keys are text); the values are kept."""

    def remap(value: Any, lookup: Lookup) -> Any:
        return {str(lookup(table, int(key))): item for key, item in (value or {}).items()}

    return remap


def _night_machines(value: Any, lookup: Lookup) -> Any:
    """A ladder night's working set: [{"id": machine id, "name", "normalizer"}, …]."""
    return [{**machine, "id": lookup("machine", int(machine.get("id")))} for machine in value or []]


def _playoff_orders(value: Any, lookup: Lookup) -> Any:
    """A ladder group's one-ball playoffs (LADDER-AMB-5): {slot: [ladder_player ids, winner first]}."""
    return {slot: _id_list("ladder_player")(order, lookup) for slot, order in (value or {}).items()}


def _optional(remap: Callable[[Any, Lookup], Any]) -> Callable[[Any, Lookup], Any]:
    return lambda value, lookup: None if value is None else remap(value, lookup)


def _players_key(text: str, lookup: Lookup) -> str:
    """Sorted player ids joined by commas (`field_facts.players_key`), sorted again after mapping."""
    return ",".join(str(player) for player in sorted(lookup("player", int(item)) for item in text.split(",")))


def _finals_picks(value: Any, lookup: Lookup) -> Any:
    """A finals game's picks: [{"seed", "kind", "machine": machine id or null, "plays_first"}, …]."""
    return [
        {**pick, "machine": None if pick.get("machine") is None else lookup("machine", int(pick["machine"]))}
        for pick in value or []
    ]


def _finals_tiebreaks(value: Any, lookup: Lookup) -> Any:
    """FIELD-STAND-2 tie-breakers: {players_key: [player ids, best first]}."""
    return {_players_key(key, lookup): _id_list("player")(order, lookup) for key, order in (value or {}).items()}


JSON_REFERENCES: dict[tuple[str, str], Callable[[Any, Lookup], Any]] = {
    ("match_lineup", "games"): _lineup_games,
    ("lineup_replacement", "players"): _id_list("player"),
    ("tiebreaker_setup", "home_players"): _id_list("player"),
    ("tiebreaker_setup", "away_players"): _id_list("player"),
    ("alternative_result", "scores"): _keyed_by_id("player"),  # storage/discipline.py: TEAM-DISP-3's result B
    # storage/ladder.py: groups and their order hold ladder_player ids, slots and a night's machines machine ids
    ("ladder_night", "machines"): _night_machines,
    ("ladder_night", "next_groups"): _optional(_id_lists("ladder_player")),
    ("ladder_group", "members"): _id_list("ladder_player"),
    ("ladder_group", "ranks"): _keyed_by_id("ladder_player"),
    ("ladder_group", "slots"): _optional(_id_list("machine")),
    ("ladder_group", "playoff_orders"): _playoff_orders,
    # storage/field.py: players are player ids, machines machine ids
    ("field_night", "machine_ids"): _id_list("machine"),
    ("field_correction", "group_players"): _id_list("player"),
    ("field_correction", "votes"): _keyed_by_id("player"),
    ("field_playoff", "order"): _id_list("player"),
    ("field_finals", "seeds"): _id_list("player"),
    ("field_finals", "tiebreaks"): _finals_tiebreaks,
    ("field_finals_game", "picks"): _finals_picks,
}
# Text columns that spell out row ids: remapped like JSON_REFERENCES.
TEXT_REFERENCES: dict[tuple[str, str], Callable[[Any, Lookup], Any]] = {
    ("field_playoff", "players_key"): _optional(_players_key),
}
# JSON kept as it is: options, audit snapshots (as recorded, with the ids of the database they came from),
# challenged games as [round, game] pairs, scheduled posts' timings, premakeup slot names, a ladder result's
# games (machines by name).
JSON_PLAIN = frozenset(
    {
        ("league", "options"),
        ("league", "option_history"),  # earlier option versions (COMMON-LEAGUE-2)
        ("league", "extra_commissioner_role_ids"),  # Discord role ids, not rows
        ("audit_entry", "before"),
        ("audit_entry", "after"),
        ("match_challenge", "games"),
        ("league_posting", "timings"),  # storage/posts.py, on main since this branch started
        ("ladder_premakeup", "order"),  # slot names, e.g. ["S2", "AVG", "S1"]
        ("ladder_premakeup", "used"),
        ("ladder_result", "games"),  # per slot: machine name, kind, placement, official, points
        ("field_night", "boards"),  # group number → Discord channel and message ids of its board, not rows
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
        if table.name == LEAGUE_TABLE or table.name in DERIVED_TABLES:
            continue
        owner = _owner(table, specs)
        if owner is not None:
            specs[table.name] = TableSpec(table, sections.get(table.name, "common"), owner)
    polymorphic = {table for table, _ in POLYMORPHIC_REFERENCES}
    embedded = _under({table for table, _ in (*JSON_REFERENCES, *TEXT_REFERENCES)}, specs)
    return sorted(specs.values(), key=lambda spec: (spec.name in polymorphic, spec.name in embedded))


def _under(tables: set[str], specs: dict[str, TableSpec]) -> set[str]:
    """`tables` and every table below them through required foreign keys. No foreign key says which rows the ids
    inside a JSON or text column name (a ladder night's machines), so those tables are imported after the
    others, with the tables that hang from them, when every row those ids may name exists."""
    found = set(tables)
    for name, spec in specs.items():  # parents come first in `specs`
        if spec.references(spec.owner) in found or any(
            key.column.table.name in found for column in spec.table.columns for key in column.foreign_keys
        ):
            found.add(name)
    return found


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
    section_of_module = {"storage.models": "common"}
    section_of_module.update({module: fmt.name for fmt in formats.registered() for module in fmt.tables})
    sections = {}
    for mapper in SQLModel._sa_registry.mappers:
        model = mapper.class_
        module = model.__module__
        section = section_of_module.get(module, module.rsplit(".", 1)[-1])
        for table in mapper.tables:
            sections[table.name] = section
    return sections
