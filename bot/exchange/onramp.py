"""The spreadsheet on-ramp: rosters and machine lists as CSV, read row by row into checked rows.

Pure: text in, rows and problems out. Every row is checked on its own (names, numbers, COMMON-MACH-2 capacities,
COMMON-PLAYER-1 IFPA data) so one bad cell never hides the next; the service then checks the rows against the
league (teams, registrations, roster limits) and writes them all or none.

rosters.csv: team, discord_id, name, role[, ifpa_number, ifpa_rank, adult]
machines.csv: venue, model[, variant, players, balls, address]
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.exchange.problems import ImportReport
from bot.rules import setup as rules
from bot.rules.refusals import InvalidInput, Refusal
from storage.models import RosterRole

ROSTER_COLUMNS = ("team", "discord_id", "name", "role", "ifpa_number", "ifpa_rank", "adult")
ROSTER_REQUIRED = ("team", "discord_id", "name", "role")
MACHINE_COLUMNS = ("venue", "model", "variant", "players", "balls", "address")
MACHINE_REQUIRED = ("venue", "model")
_MENTION = re.compile(r"^<@!?(\d+)>$")

Row = TypeVar("Row")
Value = TypeVar("Value")


@dataclass(frozen=True)
class RosterRow:
    line: int
    team: str
    discord_id: int
    name: str
    role: RosterRole
    ifpa_number: int | None
    ifpa_rank: int | None
    adult: bool


@dataclass(frozen=True)
class MachineRow:
    line: int
    venue: str
    address: str | None
    model: str
    variant: str | None
    players: int
    balls: int


def read_rosters(content: bytes, file: str, report: ImportReport) -> list[RosterRow]:
    def row(cells: _Cells) -> RosterRow:
        return RosterRow(
            line=cells.line,
            team=cells.name("team", rules.TEAM_NAME_MAX),
            discord_id=cells.check(lambda: _discord_id(cells["discord_id"]), 0),
            name=cells.name("name", rules.PLAYER_NAME_MAX),
            role=cells.check(lambda: _choice(cells["role"], "role", RosterRole), RosterRole.STARTER),
            ifpa_number=cells.check(lambda: rules.ifpa_number(_whole(cells["ifpa_number"], "ifpa_number")), None),
            ifpa_rank=cells.check(lambda: rules.ifpa_rank(_whole(cells["ifpa_rank"], "ifpa_rank")), None),
            adult=cells.check(lambda: _yes_no(cells["adult"], "adult"), False),
        )

    return _read(content, file, report, ROSTER_COLUMNS, ROSTER_REQUIRED, row)


def read_machines(content: bytes, file: str, report: ImportReport) -> list[MachineRow]:
    def row(cells: _Cells) -> MachineRow:
        return MachineRow(
            line=cells.line,
            venue=cells.name("venue", rules.VENUE_NAME_MAX),
            address=cells.optional("address", rules.ADDRESS_MAX),
            model=cells.name("model", rules.MODEL_NAME_MAX),
            variant=cells.optional("variant", rules.VARIANT_MAX),
            players=cells.check(lambda: rules.machine_capacity(_whole(cells["players"], "players") or 4), 4),
            balls=cells.check(lambda: rules.balls_per_game(_whole(cells["balls"], "balls") or 3), 3),
        )

    return _read(content, file, report, MACHINE_COLUMNS, MACHINE_REQUIRED, row)


class _Cells:
    """One record's cells by column, collecting every problem of the row instead of stopping at the first."""

    def __init__(self, line: int, values: dict[str, str]) -> None:
        self.line = line
        self.values = values
        self.problems: list[str] = []

    def __getitem__(self, column: str) -> str:
        return self.values.get(column, "")

    def check(self, read: Callable[[], Value], fallback: Value) -> Value:
        try:
            return read()
        except Refusal as exc:
            self.problems.append(exc.message + (f" (rule {exc.rule_id})" if exc.rule_id else ""))
            return fallback

    def name(self, column: str, max_length: int) -> str:
        return self.check(lambda: rules.clean_name(self[column], option=column, max_length=max_length).display, "")

    def optional(self, column: str, max_length: int) -> str | None:
        return self.check(lambda: rules.optional_text(self[column], option=column, max_length=max_length), None)


def _read(
    content: bytes,
    file: str,
    report: ImportReport,
    known: tuple[str, ...],
    required: tuple[str, ...],
    make: Callable[[_Cells], Row],
) -> list[Row]:
    try:
        text = content.decode("utf-8-sig")  # spreadsheets often save UTF-8 with a byte-order mark
    except UnicodeDecodeError:
        report.add(file, None, "not UTF-8 text: save the spreadsheet as CSV UTF-8")
        return []
    reader = csv.reader(io.StringIO(text, newline=""))
    header = [name.strip().casefold() for name in next(reader, [])]
    problems_before = len(report.problems)
    for name in header:
        if name not in known:
            report.add(file, 1, f"unknown column `{name}`; the columns are {', '.join(known)}")
    for name in required:
        if name not in header:
            report.add(file, 1, f"missing column `{name}` (required: {', '.join(required)})")
    if len(report.problems) > problems_before:
        return []
    rows = []
    for line, record in _records(reader):
        if len(record) > len(header):
            report.add(file, line, f"{len(record)} cells where the header has {len(header)}")
            continue
        cells = _Cells(line, {name: cell.strip() for name, cell in zip(header, record, strict=False)})
        row = make(cells)
        for problem in cells.problems:
            report.add(file, line, problem)
        if not cells.problems:
            rows.append(row)
    if not rows and len(report.problems) == problems_before:
        report.add(file, None, "no rows below the header")
    return rows


def _records(reader: Any) -> Iterator[tuple[int, list[str]]]:
    """Each non-blank record with the line it starts on (a quoted cell may span lines)."""
    start = reader.line_num + 1
    for cells in reader:
        if any(cell.strip() for cell in cells):
            yield start, cells
        start = reader.line_num + 1


def _whole(text: str | None, option: str) -> int | None:
    if text is None or not text.strip():
        return None
    try:
        return int(text.replace(",", ""))
    except ValueError:
        raise InvalidInput(f"`{option}` {text!r} is not a whole number") from None


def _discord_id(text: str) -> int:
    """A Discord user id as digits, or a mention <@id> (Developer Mode → Copy User ID)."""
    match = _MENTION.match(text)
    digits = match.group(1) if match else text
    if not digits.isdigit() or not 17 <= len(digits) <= 20:
        raise InvalidInput(f"`discord_id` {text!r} is not a Discord user id (17–20 digits; Copy User ID in Discord)")
    return int(digits)


def _choice(text: str, option: str, kind: type[RosterRole]) -> RosterRole:
    try:
        return kind(text.casefold())
    except ValueError:
        raise InvalidInput(f"`{option}` {text!r} is not one of {', '.join(m.value for m in kind)}") from None


def _yes_no(text: str | None, option: str) -> bool:
    value = (text or "").casefold()
    if value in ("", "no", "false", "n", "0"):
        return False
    if value in ("yes", "true", "y", "1"):
        return True
    raise InvalidInput(f"`{option}` {text!r} is not yes or no")
