"""CSV files people take elsewhere: standings for a spreadsheet, results for the IFPA.

The writers are format-neutral (columns and rows; bands of finishers); each format has its adapters:
`team_standings_rows`/`team_bands`, `ladder_standings_rows`/`ladder_bands`, `field_standings_rows`/`field_bands`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing bot.services loads the export service, which imports this module
    from bot.rules.field.finals import IfpaRow
    from bot.services.field.standings import FieldStandingsView
    from bot.services.ladder.standings import LadderStandings
    from bot.services.team.standings import StandingsView

Cell = str | int | None
TEAM_STANDINGS_COLUMNS = ("conference", "rank", "team", "played", "wins", "losses", "win_pct", "match_points",
                          "away_played", "away_wins", "decided_by")  # fmt: skip
LADDER_STANDINGS_COLUMNS = ("division", "position", "name", "tlp", "ans", "weeks", "playoff_place", "dropped")
FIELD_STANDINGS_COLUMNS = ("rank", "name", "total", "raw_total", "weeks_played")
IFPA_COLUMNS = ("position", "name", "ifpa_number")


@dataclass(frozen=True)
class Finisher:
    name: str
    ifpa_number: int | None


def csv_file(columns: Sequence[str], rows: Iterable[Sequence[Cell]]) -> bytes:
    """UTF-8 CSV with a header line; None is an empty cell."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([["" if cell is None else cell for cell in row] for row in rows])
    return out.getvalue().encode()


def ifpa_results_csv(bands: Sequence[Sequence[Finisher]]) -> bytes:
    """FIELD-IFPA-1: finishers in order; everyone in a band shares a position, and the next band's position
    counts everyone above it (1, 2, 3, 3, 5, …). Within a band, alphabetical."""
    rows: list[tuple[int, str, int | None]] = []
    for band in bands:
        position = len(rows) + 1
        for finisher in sorted(band, key=lambda f: f.name.casefold()):
            rows.append((position, finisher.name, finisher.ifpa_number))
    return csv_file(IFPA_COLUMNS, rows)


def team_standings_rows(view: StandingsView) -> list[tuple[Cell, ...]]:
    """Each conference's table as /standings shows it (TEAM-STAND-1), one line per team."""
    rows: list[tuple[Cell, ...]] = []
    for table in view.tables:
        for row in table.rows:
            rows.append(
                (table.name, row.rank, table.teams[row.team].name, row.played, row.wins, row.losses,
                 f"{float(row.win_pct):.3f}", row.match_points, row.away_played, row.away_wins,
                 row.decided_by.value if row.decided_by else None)
            )  # fmt: skip
    return rows


@dataclass(frozen=True)
class PlayoffFinish:
    """How far each playoff team of one bracket went."""

    seeds: tuple[int, ...]  # seeds[0] is seed 1
    champion: int | None
    lost_in_round: Mapping[int, int]  # team → the round it was knocked out in


def team_bands(ranks: Mapping[int, int], playoff: PlayoffFinish | None) -> list[list[int]]:
    """A conference's teams in finishing order, tied teams in one band (season results and playoffs).

    Playoff teams come first: the champion, then any team still in an unfinished bracket (by seed), then the
    losers of each round from the last round down (a round's losers share a band). The other teams follow by
    their standings rank, teams sharing a rank sharing a band."""
    bands: list[list[int]] = []
    if playoff is not None:
        lost = playoff.lost_in_round
        if playoff.champion is not None:
            bands.append([playoff.champion])
        bands.extend([team] for team in playoff.seeds if team not in lost and team != playoff.champion)
        for round_number in sorted(set(lost.values()), reverse=True):
            bands.append(sorted(team for team, knocked_out in lost.items() if knocked_out == round_number))
    placed = {team for band in bands for team in band}
    by_rank: dict[int, list[int]] = {}
    for team, rank in sorted(ranks.items(), key=lambda item: item[1]):
        if team not in placed:
            by_rank.setdefault(rank, []).append(team)
    bands.extend(by_rank.values())
    return bands


def ladder_standings_rows(view: LadderStandings) -> list[tuple[Cell, ...]]:
    """The ladder table as /standings shows it (LADDER-STAND-1/2): per division, TLP, ties by ANS."""
    return [
        (row.division, row.position, row.name, row.tlp, _number(row.ans), row.weeks,
         "yes" if row.qualifies else "no", "yes" if row.dropped else "no")
        for row in view.rows
    ]  # fmt: skip


def ladder_bands(view: LadderStandings) -> list[list[int]]:
    """Final ladder standings as finishing bands of player ids (LADDER-STAND-2): division A above B, players
    level on position share a band; players dropped for No-Shows (LADDER-ATT-5) follow everyone still in."""
    order = sorted(view.rows, key=lambda row: (row.dropped, row.division or "", row.position))
    bands: dict[tuple[bool, str, int], list[int]] = {}
    for row in order:
        bands.setdefault((row.dropped, row.division or "", row.position), []).append(row.player_id)
    return list(bands.values())


def field_standings_rows(view: FieldStandingsView) -> list[tuple[Cell, ...]]:
    """The field season table (FIELD-STAND-1): total after the dropped weeks, raw total, weeks played."""
    return [
        (row.rank, view.names.get(int(row.player), "?"), _number(row.total), _number(row.raw_total), row.weeks_played)
        for row in view.rows
    ]


def field_bands(rows: Sequence[IfpaRow]) -> list[list[int]]:
    """FIELD-IFPA-1/2's rows (finalists, then the league) as bands of player ids sharing a position."""
    bands: dict[int, list[int]] = {}
    for row in rows:
        bands.setdefault(row.position, []).append(int(row.player))
    return [bands[position] for position in sorted(bands)]


def _number(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.3f}"
