"""A group's whole night (bot/rules/ladder/night.py) and the league options (bot/rules/ladder/options.py):
LADDER-CFG-1, LADDER-PMU-6, LADDER-GHOST-6, LADDER-ATT-2, LADDER-NORM-2, LADDER-BONUS-4."""

from fractions import Fraction

import pytest
from pydantic import ValidationError

from bot.rules.ladder.groups import NightPresence
from bot.rules.ladder.night import Absentee, GameSlot, GroupNight, score_group_night
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.premakeup import MachinePremakeups, SeasonUsage, Slot
from bot.rules.ladder.scoring import EntryKind, GameResult

M = 1_000_000
OPTIONS = LadderOptions()
A, B, C = 1, 2, 3


def test_defaults_follow_the_sheet():
    """LADDER-CFG-1 / LADDER-CFG-2: 10 weeks, 5 games, check-in 19:15, start 19:30, $6 dues; every
    LADDER-AMB default configurable, and an impossible payout split refused."""
    assert (OPTIONS.regular_weeks, OPTIONS.games_per_match, OPTIONS.weekly_dues_cents) == (10, 5, 600)
    assert (OPTIONS.check_in.hour, OPTIONS.check_in.minute, OPTIONS.group_start.minute) == (19, 15, 30)
    assert LadderOptions.model_validate({"pmu_4th_point": "to_third"}).pmu_4th_point == "to_third"
    with pytest.raises(ValidationError):
        LadderOptions(small_league_split=(80, 25))
    with pytest.raises(ValidationError):
        LadderOptions(surprise=1)  # type: ignore[call-arg]


def test_tv6_absent_player_second_taf_use_is_zero():
    """LADDER-TV-6 / LADDER-PMU-4 / LADDER-GHOST-6: A's S1 was used; the 2nd use is 0 → B 4, C 2, A 0."""
    taf = MachinePremakeups("TAF", s1=50 * M, used=frozenset({Slot.S1}))
    night = GroupNight(
        slots=[GameSlot("TAF", 50 * M)],
        ranks={A: 1, B: 2, C: 3},
        played={(0, B): 30 * M, (0, C): 12 * M},
        absentees={A: Absentee({"TAF": taf}, SeasonUsage(uses=1, missed_weeks=1))},
    )
    scored = score_group_night(night, OPTIONS)
    game = scored.games[0]
    assert isinstance(game, GameResult)
    assert dict(game.points) == {B: 4, C: 2, A: 0}
    a_entry = next(e for e in scored.entries[0] if e.player == A)
    assert (a_entry.kind, a_entry.placement, a_entry.official) == (EntryKind.PREMAKEUP, 0, 0)
    assert scored.premakeups[A]["TAF"].locked
    assert scored.usage[A].uses == 2


def test_late_player_misses_two_games_then_plays():
    """LADDER-TV-22 (c) / LADDER-ATT-2 / LADDER-PMU-6 / LADDER-GHOST-1: games 1-2 on a premakeup or a
    half-normalizer ghost (0 points), then games 3-5 played; the player counts as present for movement."""
    slots = [GameSlot(name, 10 * M) for name in ("AFM", "TAF", "MB", "TZ", "CV")]
    played = {(i, p): (10 - i) * M + p for i in range(5) for p in (B, C)}
    played |= {(i, A): 20 * M for i in range(2, 5)}
    mb_only = {"AFM": MachinePremakeups("AFM", s1=8 * M, s2=2 * M)}
    night = GroupNight(slots, {A: 3, B: 1, C: 2}, played, {A: Absentee(mb_only)})
    scored = score_group_night(night, OPTIONS)
    kinds = [next(e.kind for e in entries if e.player == A) for entries in scored.entries]
    assert kinds == [EntryKind.PREMAKEUP, EntryKind.HALF_GHOST] + [EntryKind.PLAYED] * 3
    assert scored.presence[A] is NightPresence.PRESENT
    assert scored.usage[A].uses == 1
    # LADDER-NORM-2: AFM premakeup 8M / 10M + TAF ghost 0 + three 20M / 10M games
    assert scored.tns[A] == Fraction(8, 10) + 6


def test_full_night_points_bonus_and_tlp():
    """LADDER-BONUS-4 / LADDER-NORM-2: five games scored, the match bonus added to give week TLP."""
    slots = [GameSlot(f"M{i}", 10 * M) for i in range(5)]
    scores = {A: 50 * M, B: 20 * M, C: 10 * M}
    played = {(i, p): s + i for i in range(5) for p, s in scores.items()}
    scored = score_group_night(GroupNight(slots, {A: 2, B: 1, C: 3}, played), OPTIONS)
    assert dict(scored.game_points) == {A: 20, B: 10, C: 0}  # 4-2-0 every game
    assert scored.match is not None
    assert dict(scored.match.bonus) == {A: 4, B: 2, C: 0}
    assert dict(scored.match.week_tlp) == {A: 24, B: 12, C: 0}
    assert [f.player for f in scored.finish] == [A, B, C]
    assert scored.pending == []


def test_absent_all_night_without_premakeups_is_absent_for_movement():
    """LADDER-GROUP-5 / LADDER-SCORE-3: five ghost slots → 0 points, absent presence."""
    slots = [GameSlot(f"M{i}", 10 * M) for i in range(5)]
    played = {(i, p): (p + 1) * M for i in range(5) for p in (B, C)}
    scored = score_group_night(GroupNight(slots, {A: 1, B: 2, C: 3}, played, {A: Absentee()}), OPTIONS)
    assert scored.game_points[A] == 0
    assert scored.presence[A] is NightPresence.ABSENT
    assert scored.tns[A] == 0


def test_tied_game_holds_the_match_result():
    """LADDER-AMB-5: a tie between present players leaves the night pending until the playoff is entered."""
    slots = [GameSlot("M0", 10 * M)]
    played = {(0, A): 5 * M, (0, B): 5 * M, (0, C): 1 * M}
    pending = score_group_night(GroupNight(slots, {A: 1, B: 2, C: 3}, played), OPTIONS)
    assert pending.match is None and pending.pending == [0]
    settled = score_group_night(GroupNight(slots, {A: 1, B: 2, C: 3}, played, playoff_orders={0: [B, A]}), OPTIONS)
    assert settled.match is not None and settled.match.winner == B


def test_two_absentees_without_a_registry_finish_by_league_rank_and_earn_no_bonus():
    """LADDER-GHOST-1/4/5 / LADDER-BONUS-1: two players missing the night with no premakeups at all play as
    half-normalizer ghosts, placed and finishing by league rank; the bonus that would fall to them goes to no one."""
    slots = [GameSlot("M0", 10 * M), GameSlot("M1", 10 * M)]
    played = {(0, C): 4 * M, (1, C): 4 * M}
    scored = score_group_night(GroupNight(slots, {A: 2, B: 1, C: 3}, played), OPTIONS)
    for game in scored.games:
        assert isinstance(game, GameResult)
        assert game.order == (B, A, C)  # both ghosts at 5M, B (#1) ahead of A (#2)
    assert [(e.player, e.kind, e.rank) for e in scored.entries[0]] == [
        (A, EntryKind.HALF_GHOST, 2),
        (B, EntryKind.HALF_GHOST, 1),
        (C, EntryKind.PLAYED, 3),
    ]
    assert dict(scored.game_points) == {A: 0, B: 0, C: 2}  # 3rd takes the 1st-place point each game
    assert (scored.presence[A], scored.presence[B]) == (NightPresence.ABSENT, NightPresence.ABSENT)
    assert scored.match is not None
    assert scored.match.order == (C, B, A)  # level on points and TNS: league rank
    assert dict(scored.match.bonus) == {C: 4, B: 0, A: 0}


def test_a_premakeup_then_a_ghost_still_counts_as_premakeup_presence():
    """LADDER-PMU-6 / LADDER-GROUP-5 / LADDER-GHOST-2 / LADDER-SCORE-2: in a 2-player group, A's premakeup
    on M0 wins by tripling (the extra point void), then A is a half-normalizer ghost on M1, where B scores 3.
    A used a premakeup, so A is not absent for movement."""
    slots = [GameSlot("M0", 10 * M), GameSlot("M1", 10 * M)]
    played = {(0, B): 5 * M, (1, B): 5 * M}
    registry = {"M0": MachinePremakeups("M0", s1=20 * M)}
    scored = score_group_night(GroupNight(slots, {A: 1, B: 2}, played, {A: Absentee(registry)}), OPTIONS)
    first, second = scored.games
    assert isinstance(first, GameResult) and isinstance(second, GameResult)
    assert (dict(first.points), first.voided) == ({A: 3, B: 0}, 1)
    assert dict(second.points) == {A: 0, B: 3}
    assert scored.presence[A] is NightPresence.PREMAKEUP
    assert scored.tns[A] == 2
