"""CSV files people take elsewhere: standings for a spreadsheet, results for the IFPA.

The writers are format-neutral (columns and rows; bands of finishers); `team_standings_rows` and `team_bands`
turn the team format's standings and playoff bracket into them. A ladder or field format adds its own adapter.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing bot.services loads the export service, which imports this module
    from bot.services.standings import StandingsView

Cell = str | int | None
TEAM_STANDINGS_COLUMNS = ("conference", "rank", "team", "played", "wins", "losses", "win_pct", "match_points",
                          "away_played", "away_wins", "decided_by")  # fmt: skip
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
