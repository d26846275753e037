"""The league file's tables come from the metadata: a format's new tables join without code in the exchange."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import SQLModel

from bot.exchange.registry import JSON_PLAIN, JSON_REFERENCES, POLYMORPHIC_REFERENCES, TEXT_REFERENCES, league_tables


def test_every_league_table_is_in_the_file_with_its_section() -> None:
    specs = {spec.name: spec for spec in league_tables()}
    derived = {"match_final_result"}  # stored copies of computed results: rebuilt on demand, not in the file
    assert set(specs) == {t.name for t in SQLModel.metadata.sorted_tables} - {"league", "bot_state"} - derived
    assert specs["venue"].section == "common" and specs["match_lineup"].section == "team"
    assert specs["match_visit"].owner.name == "match_id" and specs["team"].owner.name == "league_id"
    order = list(specs)
    assert order.index("match") < order.index("game_score") and order[-1] == "audit_entry"
    team_columns = [column.name for column in specs["team"].columns]
    assert team_columns[0] == "id" and "league_id" not in team_columns and "name_key" not in team_columns
    assert "facts_version" not in [column.name for column in specs["match"].columns]


def test_every_json_column_says_whether_it_holds_ids() -> None:
    """A new JSON column must be declared: ids inside it are renumbered (JSON_REFERENCES) or it is kept as is."""
    declared = set(JSON_REFERENCES) | JSON_PLAIN
    for table in SQLModel.metadata.sorted_tables:
        for column in table.columns:
            if isinstance(column.type, sa.JSON):
                assert (table.name, column.name) in declared, f"classify {table.name}.{column.name} in registry.py"
    assert set(POLYMORPHIC_REFERENCES) == {("audit_entry", "entity_id")}


def test_a_new_formats_tables_are_picked_up_through_their_foreign_keys() -> None:
    """A future format's tables (a group per league, results per group, one settings row per league keyed by the
    league) join the file as they are declared."""
    metadata = sa.MetaData()
    for table in SQLModel.metadata.sorted_tables:
        table.to_metadata(metadata)
    sa.Table("pairs_group", metadata, sa.Column("id", sa.Integer, primary_key=True),
             sa.Column("league_id", sa.ForeignKey("league.id"), nullable=False))  # fmt: skip
    sa.Table("pairs_result", metadata, sa.Column("id", sa.Integer, primary_key=True),
             sa.Column("group_id", sa.ForeignKey("pairs_group.id"), nullable=False),
             sa.Column("player_id", sa.ForeignKey("player.id"), nullable=False))  # fmt: skip
    sa.Table("pairs_settings", metadata, sa.Column("league_id", sa.ForeignKey("league.id"), primary_key=True),
             sa.Column("groups_of", sa.Integer, nullable=False))  # fmt: skip
    specs = {spec.name: spec for spec in league_tables(metadata)}
    settings = specs["pairs_settings"]
    assert not settings.has_id and [column.name for column in settings.columns] == ["groups_of"]
    assert specs["pairs_group"].owner.name == "league_id" and specs["pairs_group"].has_id
    assert specs["pairs_result"].owner.name == "group_id"
    assert specs["pairs_result"].references(specs["pairs_result"].table.c.player_id) == "player"
    order = list(specs)
    assert order.index("pairs_group") < order.index("pairs_result")


def test_ids_inside_ladder_and_field_json_are_renumbered() -> None:
    """Keys that are ids, ids in nested lists and objects, and the comma-joined key of tied players (sorted again
    after renumbering, as `field_facts.players_key` builds it) all follow the rows they name."""
    new = {"player": {3: 30, 12: 5}, "machine": {2: 20}, "ladder_player": {1: 11, 2: 7}}

    def lookup(table: str, old: int) -> int:
        return new[table][old]

    assert JSON_REFERENCES["field_finals", "tiebreaks"]({"3,12": [12, 3]}, lookup) == {"5,30": [5, 30]}
    assert TEXT_REFERENCES["field_playoff", "players_key"]("3,12", lookup) == "5,30"
    assert JSON_REFERENCES["field_correction", "votes"]({"12": True}, lookup) == {"5": True}
    assert JSON_REFERENCES["ladder_group", "ranks"]({"1": 4, "2": 5}, lookup) == {"11": 4, "7": 5}
    assert JSON_REFERENCES["ladder_group", "playoff_orders"]({"4": [2, 1]}, lookup) == {"4": [7, 11]}
    assert JSON_REFERENCES["ladder_night", "next_groups"]([[2, 1]], lookup) == [[7, 11]]
    assert JSON_REFERENCES["ladder_night", "machines"]([{"id": 2, "name": "X", "normalizer": 9}], lookup) == [
        {"id": 20, "name": "X", "normalizer": 9}
    ]
    picks = [{"seed": 1, "kind": "machine", "machine": 2, "plays_first": None}, {"seed": 4, "kind": "order",
             "machine": None, "plays_first": True}]  # fmt: skip
    assert [pick["machine"] for pick in JSON_REFERENCES["field_finals_game", "picks"](picks, lookup)] == [20, None]


def test_tables_with_ids_in_json_are_imported_after_the_rows_they_name() -> None:
    order = [spec.name for spec in league_tables()]
    for table, targets in {"ladder_night": ("machine", "ladder_player"), "ladder_score": ("ladder_group",),
                           "field_night": ("machine", "player"), "field_finals": ("player",)}.items():  # fmt: skip
        assert all(order.index(target) < order.index(table) for target in targets), (table, order)
