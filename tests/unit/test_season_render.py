"""Schedule, standings and bracket text: what people read on a phone, and Discord's size limits."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from bot.render.team.playoffs import bracket_text
from bot.render.team.schedule import match_line, schedule_embed
from bot.render.team.standings import FIELD_MAX, HEADER, table_blocks, table_line, win_pct
from bot.rules.brackets import single_elimination
from bot.rules.team import playoffs
from bot.rules.team.model import MatchOutcome, Side
from bot.rules.team.scoring import Flag, MatchResult
from bot.rules.team.standings import StandingRow, TieStep
from bot.services.team.playoffs import ConferenceBracket
from bot.services.team.schedule import ScheduledLine, ScheduleView
from bot.services.team.standings import ConferenceTable
from storage.matches import Match
from storage.models import League, Season, Team, Venue

HOME, AWAY = Team(id=1, name="Flipper Kings"), Team(id=2, name="Ball Busters")
TUESDAY = date(2027, 3, 2)


def row(team: int, *, wins: int, played: int, step: TieStep | None = TieStep.RECORD, rank: int = 1) -> StandingRow:
    return StandingRow(
        team=team,
        rank=rank,
        played=played,
        wins=wins,
        losses=played - wins,
        win_pct=Fraction(wins, played) if played else Fraction(0),
        match_points=10 * wins,
        away_played=0,
        away_wins=0,
        last_regular_match=None,
        tied_with=frozenset({team + 1}) if step is None else frozenset(),
        decided_by=step,
    )


def line(result: MatchResult | None) -> ScheduledLine:
    match = Match(id=7, week=1, play_on=TUESDAY, home_team_id=1, away_team_id=2)
    return ScheduledLine(match, HOME, AWAY, Venue(id=3, name="Ace Arcade"), result)


def result(
    home: int,
    away: int,
    *,
    winner: Side | None,
    final: bool,
    available: int | None = 16,
    missing: tuple[str, ...] = (),
) -> MatchResult:
    outcome = None if winner is None else {winner: MatchOutcome.WIN, winner.other: MatchOutcome.LOSS}
    return MatchResult({Side.HOME: home, Side.AWAY: away}, outcome, available, final, missing)


def test_win_percentage_reads_like_a_sports_table() -> None:
    assert win_pct(row(1, wins=2, played=3)) == ".667"
    assert win_pct(row(1, wins=3, played=3)) == "1.000"
    assert win_pct(row(1, wins=0, played=3)) == ".000"
    assert win_pct(row(1, wins=0, played=0)) == "—"


def test_table_line_marks_ties_and_shortens_long_names() -> None:
    """TEAM-STAND-1: the deciding step per row; teams still level share a rank, marked with =."""
    assert table_line(row(1, wins=2, played=3, step=TieStep.HEAD_TO_HEAD), "Flipper Kings") == (
        "1   Flipper Kings   2-1  .667  20 H2H"
    )
    level = table_line(row(1, wins=1, played=2, step=None), "The Extraordinarily Long Name")
    assert level.startswith("1=  The Extraord… ") and level.endswith(" =")
    assert len(level) <= 40  # fits a phone's code block


def test_a_big_conference_splits_into_fields_discord_accepts() -> None:
    teams = {n: Team(id=n, name=f"Team {n}") for n in range(1, 41)}
    table = ConferenceTable("East", [row(n, wins=1, played=2, rank=n) for n in teams], teams, [])
    blocks = table_blocks(table)
    assert len(blocks) > 1 and all(len(block) <= FIELD_MAX and HEADER in block for block in blocks)
    assert sum(block.count("\n") - 2 for block in blocks) == 40  # every team once, under a header each time


def test_match_lines_show_the_score_and_what_is_missing() -> None:
    """TEAM-MATCH-4: a result counts once final; forfeits (TEAM-FORF-1) and double forfeits (TEAM-AMB-8)."""
    assert match_line(line(None)) == "Tue 03-02 · Ball Busters at Flipper Kings · Ace Arcade"
    nothing = result(0, 0, winner=None, final=False)
    assert match_line(line(nothing)).endswith("Flipper Kings · Ace Arcade · no result yet")
    played = result(10, 6, winner=Side.HOME, final=True)
    assert match_line(line(played)) == "Tue 03-02 · Ball Busters 6–10 **Flipper Kings** · Ace Arcade · final"
    unsigned = result(9, 0, winner=Side.HOME, final=False, available=None, missing=("HOME captain's confirmation",))
    assert match_line(line(unsigned)).endswith("· waiting for HOME captain's confirmation")
    forfeit = match_line(line(result(0, 12, winner=Side.AWAY, final=True, available=None)))
    assert "**Ball Busters** 12–0 Flipper Kings" in forfeit and forfeit.endswith("forfeit, final")
    both_out = MatchResult(
        {Side.HOME: 0, Side.AWAY: 0}, dict.fromkeys(Side, MatchOutcome.LOSS), None, True, flags=(Flag.DOUBLE_FORFEIT,)
    )
    assert match_line(line(both_out)).endswith("double forfeit, both lose")
    assert match_line(line(result(5, 3, winner=None, final=False))).endswith("· in progress")


def test_a_long_schedule_is_cut_with_a_note_under_discords_limit() -> None:
    view = ScheduleView(
        League(name="NYC"), Season(name="Season 1"), [line(None)] * 200, 20, None, None, "Season 1 (active)"
    )
    description = schedule_embed(view).description or ""
    assert len(description) <= 4000 and description.endswith("more: narrow it with `week:` or `team:`.")


def test_bracket_text_shows_byes_ready_matches_and_what_comes_next() -> None:
    """TEAM-PO-1, TEAM-AMB-14: three teams, so the top seed has a bye into the final."""
    teams = {n: Team(id=n, name=name) for n, name in [(1, "Kings"), (2, "Busters"), (3, "Drains")]}
    playoff = playoffs.PlayoffBracket((1, 2, 3), single_elimination(3))
    bracket = ConferenceBracket("East", teams, playoff, playoffs.playoff_progress(playoff, {}), {})
    assert bracket_text(bracket).splitlines() == [
        "Seeds: 1 Kings · 2 Busters · 3 Drains",
        "**Semifinals**",
        "W1-1 · (1) Kings · bye",
        "W1-2 · (2) Busters vs (3) Drains · to be scheduled",
        "**Final**",
        "W2-1 · (1) Kings vs winner of W1-2",
    ]
