"""Importing a league file: every file checked, every problem reported with its file, line and reason, and only
then the whole league written in one transaction (or, on a dry run, written and rolled back). See
docs/league-file.md; the file's layout and the export are in `league_file`.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot import formats
from bot.exchange.cells import CellError, read_cell
from bot.exchange.league_file import (
    FORMAT_VERSION,
    LEAGUE,
    LEAGUE_COLUMNS,
    MANIFEST,
    READABLE_VERSIONS,
    RETIRED_COLUMNS,
    Files,
    translate_ids,
)
from bot.exchange.problems import ImportReport
from bot.exchange.registry import DERIVED_COLUMNS, LEAGUE_TABLE, TableSpec, league_tables
from bot.rules import setup as setup_rules
from bot.rules.refusals import Refusal
from storage.db import Database


@dataclass
class _ParsedTable:
    spec: TableSpec
    rows: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (line, values with file ids)
    ids: set[int] = field(default_factory=set)  # every row's id, bad rows too: only the bad row is reported


class _RollBack(Exception):
    """Leaves the import's transaction without committing: a dry run, or a problem found while writing."""


async def import_league(db: Database, files: Files, *, guild_id: int | None, dry_run: bool) -> ImportReport:
    """Check every file; if nothing is wrong, write the league in one transaction (rolled back on a dry run)."""
    report = ImportReport(dry_run=dry_run)
    read = _read_manifest(files, report)
    header, version = read if read is not None else (None, FORMAT_VERSION)
    tables = _read_tables(files, report, version)
    if header is not None:
        _check_references(tables, report)
    if header is None or not report.ok:
        return report
    league_values = {**header, "guild_id": guild_id if guild_id is not None else header["guild_id"]}
    report.league_name = league_values["name"]
    report.counts = {table.spec.name: len(table.rows) for table in tables}
    try:
        async with db.writing() as session:
            connection = await session.connection()
            await _write(connection, league_values, tables, report)
            if dry_run or not report.ok:
                raise _RollBack
    except _RollBack:
        pass
    except IntegrityError as exc:
        report.add("(database)", None, f"the database refused a row: {exc.orig}")
    return report


def _read_manifest(files: Files, report: ImportReport) -> tuple[dict[str, Any], int] | None:
    """The league's columns and the file's format version, or None (reported) when league.json is unusable."""
    if MANIFEST not in files:
        report.add(MANIFEST, None, "missing: a league file starts with league.json")
        return None
    try:
        manifest = json.loads(files[MANIFEST].decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        report.add(MANIFEST, getattr(exc, "lineno", None), f"not valid JSON: {exc}")
        return None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("league"), dict):
        report.add(MANIFEST, None, 'not a league file: expected {"format_version": …, "league": {…}, …}')
        return None
    version = manifest.get("format_version")
    if version not in READABLE_VERSIONS:
        readable = " and ".join(str(v) for v in READABLE_VERSIONS)
        report.add(MANIFEST, None, f"format_version {version!r}: this pinleague reads versions {readable}")
        return None
    raw = manifest["league"]
    if version == 1:  # before dated options: the league's options applied from its beginning
        raw = {**raw, "option_history": []}
    league: dict[str, Any] = {}
    for name in LEAGUE_COLUMNS:
        column = LEAGUE.c[name]
        value = raw.get(name)
        try:
            if isinstance(column.type, sa.JSON | sa.Integer):
                if value is None and not column.nullable:
                    raise CellError(f"`{name}` is required")
                whole = isinstance(value, int) and not isinstance(value, bool)
                if value is not None and isinstance(column.type, sa.Integer) and not whole:
                    raise CellError(f"`{name}` {value!r} is not a whole number")
                league[name] = value
            else:
                league[name] = read_cell(column, "" if value is None else str(value))
        except CellError as exc:
            report.add(MANIFEST, None, f"league: {exc}")
    if not report.ok:
        return None
    _check_league(league, report)
    for section, names in (manifest.get("sections") or {}).items():
        for name in names:
            if name not in files:
                report.add(MANIFEST, None, f"section {section!r} lists {name}, which is not in the league file")
    return (league, version) if report.ok else None


def _check_league(league: dict[str, Any], report: ImportReport) -> None:
    try:
        league["name_key"] = setup_rules.clean_name(league["name"], option="name", max_length=100).key
    except Refusal as exc:
        report.add(MANIFEST, None, f"league: {exc.message}")
    try:
        ZoneInfo(league["timezone"])
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long for a tzdata path
        report.add(MANIFEST, None, f"league: timezone {league['timezone']!r} is not an IANA time zone name")
    try:
        formats.named(league["format"]).options.model_validate(league["options"] or {})
    except ValidationError as exc:
        report.add(MANIFEST, None, f"league: options are not valid for a {league['format'].value} league: {exc}")
    _check_option_history(league, report)


def _check_option_history(league: dict[str, Any], report: ImportReport) -> None:
    """COMMON-LEAGUE-2: earlier versions oldest first, each `{"until": "YYYY-MM-DD", "options": {…}}` valid for
    the format, their dates rising."""
    history = league["option_history"]
    if not isinstance(history, list):
        report.add(MANIFEST, None, "league: option_history must be a list of earlier option versions")
        return
    previous = None
    for number, entry in enumerate(history, start=1):
        where = f"league: option_history entry {number}"
        if not isinstance(entry, dict) or set(entry) != {"until", "options"} or not isinstance(entry["options"], dict):
            report.add(MANIFEST, None, f'{where} must be {{"until": "YYYY-MM-DD", "options": {{…}}}}')
            continue
        try:
            until = date.fromisoformat(str(entry["until"]))
        except ValueError:
            report.add(MANIFEST, None, f"{where}: until {entry['until']!r} is not a YYYY-MM-DD date")
            continue
        if previous is not None and until <= previous:
            report.add(MANIFEST, None, f"{where}: until {until} must come after the entry before it ({previous})")
        previous = until
        try:
            formats.named(league["format"]).options.model_validate(entry["options"])
        except ValidationError as exc:
            report.add(MANIFEST, None, f"{where}: options are not valid for a {league['format'].value} league: {exc}")


def _read_tables(files: Files, report: ImportReport, version: int) -> list[_ParsedTable]:
    specs = {spec.file_name: spec for spec in league_tables()}
    for name in sorted(files):
        if name != MANIFEST and name not in specs:
            report.add(name, None, "no such table in this version of the league file")
    retired: dict[str, frozenset[str]] = RETIRED_COLUMNS if version == 1 else {}
    return [
        _read_table(spec, files[spec.file_name], report, retired.get(spec.name, frozenset()))
        for spec in specs.values()
        if spec.file_name in files
    ]


def _read_table(spec: TableSpec, content: bytes, report: ImportReport, retired: frozenset[str]) -> _ParsedTable:
    """One table's rows; `retired`: columns an older file may still have, ignored."""
    parsed = _ParsedTable(spec)
    file = spec.file_name
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        report.add(file, None, "not UTF-8 text: save the spreadsheet as CSV UTF-8")
        return parsed
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None:
        report.add(file, 1, "empty file: the first line names the columns")
        return parsed
    columns = {column.name: column for column in spec.columns}
    for name in header:
        if name not in columns and name not in retired:
            report.add(file, 1, f"unknown column `{name}`; {spec.name} has {', '.join(columns)}")
    missing = [name for name, column in columns.items() if name not in header and not column.nullable]
    for name in missing:
        report.add(file, 1, f"missing column `{name}`")
    if missing:
        return parsed
    for cells in _records(reader):
        line, row = cells
        if len(row) != len(header):
            report.add(file, line, f"{len(row)} cells where the header has {len(header)}")
            continue
        values: dict[str, Any] = {name: None for name in columns}
        bad = False
        for name, text in zip(header, row, strict=True):
            if name not in columns:
                continue
            try:
                values[name] = read_cell(columns[name], text)
            except CellError as exc:
                report.add(file, line, str(exc))
                bad = True
        row_id = values.get("id")
        if row_id is not None and (row_id in parsed.ids or row_id < 1):
            report.add(file, line, f"id {row_id} is repeated or not positive: ids are 1, 2, 3, … in a table")
            continue
        if row_id is not None:
            parsed.ids.add(row_id)
        if bad or not _derive(spec, values, file, line, report):
            continue
        parsed.rows.append((line, values))
    _check_unique(parsed, report)
    return parsed


def _records(reader: Any) -> Iterator[tuple[int, list[str]]]:
    """Each record with the line it starts on (a quoted cell may span lines)."""
    start = reader.line_num + 1
    for row in reader:
        if row:
            yield start, row
        start = reader.line_num + 1


def _derive(spec: TableSpec, values: dict[str, Any], file: str, line: int, report: ImportReport) -> bool:
    if "name_key" in DERIVED_COLUMNS and "name_key" in spec.table.columns:
        limit = getattr(spec.table.c.name.type, "length", None) or 100
        try:
            cleaned = setup_rules.clean_name(values["name"], option="name", max_length=limit)
        except Refusal as exc:
            report.add(file, line, exc.message)
            return False
        values["name_key"] = cleaned.key
    return True


def _check_unique(parsed: _ParsedTable, report: ImportReport) -> None:
    """Unique keys inside the league (the league column is the same on every row, so it is left out)."""
    table = parsed.spec.table
    keys = [
        [column.name for column in constraint.columns if column.name != "league_id"]
        for constraint in table.constraints
        if isinstance(constraint, sa.UniqueConstraint)
    ]
    keys += [[column.name] for column in table.columns if column.unique]
    for columns in keys:
        seen: dict[tuple[Any, ...], int] = {}
        for line, values in parsed.rows:
            key = tuple(values[name] for name in columns)
            if any(part is None for part in key):
                continue
            if key in seen:
                shown = ", ".join(f"{name}={values[name]}" for name in (n.replace("name_key", "name") for n in columns))
                report.add(parsed.spec.file_name, line, f"repeats line {seen[key]} ({shown}): must be unique")
            else:
                seen[key] = line


def _check_references(tables: list[_ParsedTable], report: ImportReport) -> None:
    ids = {table.spec.name: table.ids for table in tables}
    ids[LEAGUE_TABLE] = {1}

    def lookup(table: str, file_id: int) -> int:
        if file_id not in ids.get(table, set()):
            raise KeyError(f"{table} {file_id}, which is not in {table}.csv")
        return file_id

    for table in tables:
        for line, values in table.rows:
            try:
                translate_ids(table.spec, values, lookup, exporting=False)
            except KeyError as exc:
                report.add(table.spec.file_name, line, f"refers to {exc.args[0]}")
            except (TypeError, ValueError, AttributeError):
                report.add(table.spec.file_name, line, "a JSON column does not have the shape its table expects")


async def _write(
    connection: AsyncConnection, league_values: dict[str, Any], tables: list[_ParsedTable], report: ImportReport
) -> None:
    league_table = LEAGUE
    clash = await connection.execute(
        sa.select(league_table.c.id).where(
            league_table.c.guild_id == league_values["guild_id"], league_table.c.name_key == league_values["name_key"]
        )
    )
    if clash.first() is not None:
        report.add(MANIFEST, None, f"this server already has a league named {league_values['name']!r}")
        return
    inserted_league = await connection.execute(sa.insert(league_table).values(**league_values).returning(LEAGUE.c.id))
    league_id = inserted_league.scalar_one()
    new_ids: dict[str, dict[int, int]] = {LEAGUE_TABLE: {1: league_id}}

    def to_database(table: str, file_id: int) -> int:
        return new_ids[table][file_id]

    for parsed in tables:
        table = parsed.spec.table
        batch = []
        for _, values in parsed.rows:
            row = translate_ids(parsed.spec, values, to_database, exporting=False)
            row.pop("id", None)
            if "league_id" in table.columns:
                row["league_id"] = league_id
            if "guild_id" in table.columns:
                row["guild_id"] = league_values["guild_id"]
            batch.append(row)
        if not batch:
            continue
        if not parsed.spec.has_id:
            await connection.execute(sa.insert(table), batch)
            continue
        inserted = await connection.execute(sa.insert(table).returning(table.c.id, sort_by_parameter_order=True), batch)
        new_ids[parsed.spec.name] = {
            values["id"]: row_id for (_, values), (row_id,) in zip(parsed.rows, inserted.all(), strict=True)
        }
