"""The league file's tables come from the metadata: a format's new tables join without code in the exchange."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import SQLModel

from bot.exchange.registry import JSON_PLAIN, JSON_REFERENCES, POLYMORPHIC_REFERENCES, league_tables


def test_every_league_table_is_in_the_file_with_its_section() -> None:
    specs = {spec.name: spec for spec in league_tables()}
    assert set(specs) == {t.name for t in SQLModel.metadata.sorted_tables} - {"league", "bot_state"}
    assert specs["venue"].section == "common" and specs["match_lineup"].section == "team"
    assert specs["match_visit"].owner.name == "match_id" and specs["team"].owner.name == "league_id"
    order = list(specs)
    assert order.index("match") < order.index("game_score") and order[-1] == "audit_entry"
    team_columns = [column.name for column in specs["team"].columns]
    assert team_columns[0] == "id" and "league_id" not in team_columns and "name_key" not in team_columns


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
