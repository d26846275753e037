"""The format-neutral results writers and each format's finishing order."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from bot.exchange.reports import (
    Finisher,
    PlayoffFinish,
    csv_file,
    field_bands,
    ifpa_results_csv,
    ladder_bands,
    team_bands,
)
from bot.rules.field.finals import IfpaRow
from bot.services.ladder.standings import LadderRow, LadderStandings


def _rows(content: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(content.decode())))


def test_ifpa_positions_share_a_band_and_count_everyone_above() -> None:
    """FIELD-IFPA-1, FIELD-TV-19: finals bands 1, 2, 3, 4, 5–6, 7–8, 9–12, then non-finalists by league rank give
    1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 12, 13."""
    bands = [["S3"], ["S1"], ["S2"], ["S5"], ["S4", "S7"], ["S6", "S9"], ["S8", "S10", "S11"], ["S12"], ["S13"]]
    content = ifpa_results_csv([[Finisher(name, 1000 + int(name[1:])) for name in band] for band in bands])
    rows = _rows(content)
    assert [int(row["position"]) for row in rows] == [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 12, 13]
    assert [row["name"] for row in rows][:6] == ["S3", "S1", "S2", "S5", "S4", "S7"]
    assert rows[0]["ifpa_number"] == "1003"


def test_ifpa_file_leaves_a_missing_ifpa_number_empty_and_quotes_names() -> None:
    content = ifpa_results_csv([[Finisher('Ann "Flips" Lee, Jr.', None)]])
    assert content == b'position,name,ifpa_number\n1,"Ann ""Flips"" Lee, Jr.",\n'
    assert _rows(content) == [{"position": "1", "name": 'Ann "Flips" Lee, Jr.', "ifpa_number": ""}]


def test_team_bands_put_playoff_finish_first_then_the_standings() -> None:
    """TEAM-PO-1 bracket of four: champion, finalist, both semi-final losers sharing third; then the rest by
    standings rank, teams level on rank sharing a band."""
    ranks = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 7}
    finish = PlayoffFinish(seeds=(1, 2, 3, 4), champion=3, lost_in_round={1: 1, 4: 1, 2: 2})
    assert team_bands(ranks, finish) == [[3], [2], [1, 4], [5, 6], [7]]


def test_team_bands_of_an_unfinished_bracket_place_teams_still_in_by_seed() -> None:
    finish = PlayoffFinish(seeds=(1, 2, 3, 4), champion=None, lost_in_round={4: 1})
    assert team_bands({1: 1, 2: 2, 3: 3, 4: 4}, finish) == [[1], [2], [3], [4]]


def test_team_bands_without_playoffs_follow_the_standings() -> None:
    assert team_bands({10: 2, 11: 1, 12: 2}, None) == [[11], [10, 12]]


def test_csv_file_writes_empty_cells_for_none() -> None:
    assert csv_file(("a", "b"), [(1, None), ("x,y", 2)]) == b'a,b\n1,\n"x,y",2\n'


def test_ladder_results_rank_division_a_above_b_and_dropped_players_last() -> None:
    """LADDER-STAND-2: final standings per division; players level on position share a band; a player dropped
    for No-Shows (LADDER-ATT-5) follows everyone still in."""

    def row(player: int, division: str | None, position: int, *, dropped: bool = False) -> LadderRow:
        return LadderRow(position, f"P{player}", 0, Fraction(0), 10, division, dropped, False, player_id=player)

    rows = [row(1, "B", 1), row(2, "A", 2), row(3, "A", 1), row(4, "B", 2), row(5, "B", 2)]
    rows.append(row(6, "A", 3, dropped=True))
    assert ladder_bands(LadderStandings("L", 10, 10, rows)) == [[3], [2], [1], [4, 5], [6]]


def test_field_results_keep_the_ifpa_rows_positions() -> None:
    """FIELD-IFPA-1: the rows' shared positions become bands, in position order."""
    rows = [IfpaRow(1, 7, True), IfpaRow(2, 3, True), IfpaRow(3, 4, False), IfpaRow(3, 5, False), IfpaRow(5, 1, False)]
    assert field_bands(rows) == [[7], [3], [4, 5], [1]]
