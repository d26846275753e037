"""The league file: `league.json` (format version, the league, which table files follow) and one CSV per table.

Ids in the files are the row's position in its table (1, 2, …, in database id order) and references use them,
so a league exported, imported into any database and exported again gives the same bytes. This module writes
and reads the files and exports; `league_import` checks and imports them. See docs/league-file.md.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import SQLModel

from bot.exchange.cells import write_cell
from bot.exchange.registry import (
    JSON_REFERENCES,
    LEAGUE_TABLE,
    POLYMORPHIC_REFERENCES,
    TEXT_REFERENCES,
    Lookup,
    TableSpec,
    league_tables,
)
from bot.services.lookup import find_league
from storage.db import Database
from storage.models import League

FORMAT_VERSION = 2  # 2: the league's earlier option versions, `option_history` (COMMON-LEAGUE-2)
READABLE_VERSIONS = (1, 2)  # version 1 had none: its league's options applied from the beginning
# Columns a version-1 file may carry that the tables no longer have, ignored on import: a season's stage is derived
# from what was played (COMMON-SEASON-1), not stored. Columns added since (e.g. `ladder_player.seed`) are
# nullable, so an older file without them imports with none.
RETIRED_COLUMNS = {"season": frozenset({"status"})}
MANIFEST = "league.json"
LEAGUE_COLUMNS = ("name", "format", "timezone", "options", "option_history", "guild_id", "commissioner_role_id",
                  "created_at", "created_by")  # fmt: skip

LEAGUE: sa.Table = SQLModel.metadata.tables["league"]

Files = dict[str, bytes]  # file name → content, as in the directory or zip


# --- files on disk ----------------------------------------------------------------------------------------


def read_files(path: Path) -> Files:
    """A league file from a directory or a zip."""
    if path.is_dir():
        return {item.name: item.read_bytes() for item in sorted(path.iterdir()) if item.is_file()}
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in sorted(archive.namelist()) if not name.endswith("/")}


def write_files(files: Files, path: Path) -> None:
    """Into a directory, or a zip when the path ends in .zip (fixed timestamps, so equal files zip equally)."""
    if path.suffix == ".zip":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in sorted(files):
                archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), files[name])
        return
    path.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (path / name).write_bytes(content)


# --- export -----------------------------------------------------------------------------------------------


async def export_league(connection: AsyncConnection, league: League) -> Files:
    specs = league_tables()
    ids: dict[str, dict[int, int]] = {LEAGUE_TABLE: {league.id or 0: 1}}
    rows_of: dict[str, list[sa.Row[Any]]] = {}
    for spec in specs:
        query = sa.select(spec.table).where(_belongs(spec, specs, league.id or 0) | _about(spec, specs, league.id or 0))
        rows = list((await connection.execute(query.order_by(*spec.table.primary_key.columns))).all())
        rows_of[spec.name] = rows
        if spec.has_id:
            ids[spec.name] = {row.id: position for position, row in enumerate(rows, start=1)}

    def to_file(table: str, db_id: int) -> int:
        return ids[table][db_id]

    files: Files = {}
    sections: dict[str, list[str]] = {}
    for spec in specs:
        if rows_of[spec.name]:
            files[spec.file_name] = _table_csv(spec, rows_of[spec.name], to_file)
            sections.setdefault(spec.section, []).append(spec.file_name)
    manifest = {
        "format_version": FORMAT_VERSION,
        "league": {name: _header_value(LEAGUE.c[name], getattr(league, name)) for name in LEAGUE_COLUMNS},
        "sections": sections,
    }
    files[MANIFEST] = (json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    return files


def _belongs(spec: TableSpec, specs: list[TableSpec], league_id: int) -> sa.ColumnElement[bool]:
    """Rows of the league: by `league_id`, or through the parent row their owner column points at."""
    if spec.owner.name == "league_id":
        return spec.owner == league_id
    parent = next(s for s in specs if s.name == spec.references(spec.owner))
    referenced = next(iter(spec.owner.foreign_keys)).column
    return spec.owner.in_(sa.select(referenced).where(_belongs(parent, specs, league_id)))


def _about(spec: TableSpec, specs: list[TableSpec], league_id: int) -> sa.ColumnElement[bool]:
    """Rows with no league of their own that name a row of the league: the audit entry of a ladder score or a
    field check-in (those rows have no `league_id` to copy). Imported, they belong to the league."""
    conditions = []
    for (table, column), entity in POLYMORPHIC_REFERENCES.items():
        if table != spec.name or not spec.owner.nullable:
            continue
        for target in specs:
            if target.has_id and target.name != spec.name:
                ids = sa.select(target.table.c.id).where(_belongs(target, specs, league_id))
                conditions.append((spec.table.c[entity] == target.name) & spec.table.c[column].in_(ids))
    if not conditions:
        return sa.false()
    return spec.owner.is_(None) & sa.or_(*conditions)


def _table_csv(spec: TableSpec, rows: list[sa.Row[Any]], lookup: Lookup) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([column.name for column in spec.columns])
    for row in rows:
        values = dict(row._mapping)
        translated = translate_ids(spec, values, lookup, exporting=True)
        if spec.has_id:
            translated["id"] = lookup(spec.name, values["id"])
        writer.writerow([write_cell(column, translated[column.name]) for column in spec.columns])
    return out.getvalue().encode()


def translate_ids(spec: TableSpec, values: dict[str, Any], lookup: Lookup, *, exporting: bool) -> dict[str, Any]:
    """The row with every id of another league row mapped through `lookup` (database ↔ file ids).

    On export, an audit entry about a row that no longer exists keeps no id (there is nothing to point at)."""
    out = dict(values)
    for column in spec.columns:
        value = values.get(column.name)
        target = spec.references(column)
        if target is not None and value is not None:
            out[column.name] = lookup(target, value)
        elif (spec.name, column.name) in JSON_REFERENCES:
            out[column.name] = JSON_REFERENCES[spec.name, column.name](value, lookup)
        elif (spec.name, column.name) in TEXT_REFERENCES:
            out[column.name] = TEXT_REFERENCES[spec.name, column.name](value, lookup)
        elif (spec.name, column.name) in POLYMORPHIC_REFERENCES and value is not None:
            entity = values[POLYMORPHIC_REFERENCES[spec.name, column.name]]
            try:
                out[column.name] = lookup(entity, value)
            except KeyError:
                if not exporting:
                    raise
                out[column.name] = None
    return out


def _header_value(column: sa.Column[Any], value: Any) -> Any:
    if value is None or isinstance(column.type, sa.JSON | sa.Integer):
        return value
    return write_cell(column, value)


async def export_by_name(db: Database, guild_id: int, league_name: str | None) -> Files:
    async with db.reading() as session:
        league = await find_league(session, guild_id, league_name)
        return await export_league(await session.connection(), league)
