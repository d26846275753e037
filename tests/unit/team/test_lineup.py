"""Match-night play (bot/rules/team/lineup.py): rounds, lineups, machines, short-handed teams, tie-breaker."""

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.refusals import Refusals, RuleViolation
from bot.rules.team.attendance import RosterEntry, Visit
from bot.rules.team.lineup import (
    Declarant,
    FailureChoice,
    GameEntry,
    GameProgress,
    GameStatus,
    Lineup,
    Machine,
    MajorFailureRemedy,
    MatchNight,
    Replacement,
    Seat,
    TieBreak,
    TieBreakFormat,
    abandoned_slots,
    as_played,
    choose_tiebreak,
    declare_tiebreak,
    defer_tiebreak_choice,
    eligible_players,
    eliminate_machine,
    games_for_machine_capacity,
    legal_machines,
    major_failure_remedy,
    play_order,
    record_single_player_failure,
    remove_machine,
    round_order,
    round_plan,
    start_game,
    unplayed_starters,
    validate_declaration,
    validate_replacement,
)
from bot.rules.team.model import RosterRole, RoundKind, ScoreStatus, Side
from bot.rules.team.options import TeamOptions

HOME, AWAY = Side.HOME, Side.AWAY
OPTIONS = TeamOptions()
START = datetime(2023, 4, 4, 20, 0)
HOME_TEAM, AWAY_TEAM = "Tilt Kings", "Drain Cats"
M1, M2, M3 = 101, 102, 103
MACHINES = (Machine(M1, "M1", 4), Machine(M2, "M2", 4), Machine(M3, "M3", 4))


def t(minutes: int) -> datetime:
    return START + timedelta(minutes=minutes)


def H(n: int) -> int:
    """HOME player n: 1 is captain, 2-9 starters, 10-12 reserves."""
    return n


def A(n: int) -> int:
    """AWAY player n, same roles as HOME."""
    return 20 + n


def _roster(prefix: str, player: Callable[[int], int]) -> tuple[RosterEntry, ...]:
    def role(n: int) -> RosterRole:
        return RosterRole.CAPTAIN if n == 1 else RosterRole.STARTER if n <= 9 else RosterRole.RESERVE

    return tuple(RosterEntry(player(n), f"{prefix}{n}", role(n)) for n in range(1, 13))


ROSTERS = {HOME: _roster("H", H), AWAY: _roster("A", A)}
DEFAULT_PRESENT = (1, 2, 3, 4, 5, 6, 10)  # six starters and a reserve
EARLY = START - timedelta(minutes=10)


def make_night(
    home: Iterable[int] = DEFAULT_PRESENT,
    away: Iterable[int] = DEFAULT_PRESENT,
    machines: tuple[Machine, ...] = MACHINES,
    arrived: datetime = EARLY,
) -> MatchNight:
    visits = tuple(Visit(HOME, H(n), arrived) for n in home) + tuple(Visit(AWAY, A(n), arrived) for n in away)
    return MatchNight({HOME: HOME_TEAM, AWAY: AWAY_TEAM}, ROSTERS, visits, machines)


def captain(side: Side) -> Declarant:
    return Declarant(H(1) if side is HOME else A(1))


def lineup(games: Sequence[Sequence[int]], machines: Sequence[int | None] = (), write_in: int | None = None) -> Lineup:
    picks = list(machines) or [None] * len(games)
    return Lineup(tuple(GameEntry(tuple(g), m) for g, m in zip(games, picks, strict=True)), write_in)


def declare(
    night: MatchNight,
    side: Side,
    round_index: int,
    games: Sequence[Sequence[int]],
    machines: Sequence[int | None] = (),
    *,
    write_in: int | None = None,
    now: datetime | None = None,
    by: Declarant | None = None,
    options: TeamOptions = OPTIONS,
) -> MatchNight:
    declared = validate_declaration(
        night,
        side,
        round_index,
        lineup(games, machines, write_in),
        by=by or captain(side),
        now=now or t(10 * round_index),
        options=options,
    )
    return replace(night, declarations=(*night.declarations, declared))


def singles(*players: int | None) -> list[tuple[int, ...]]:
    """Singles games; None marks the game a short team forfeits."""
    return [() if p is None else (p,) for p in players]


@contextmanager
def refused(rule_id: str, message: str) -> Iterator[None]:
    with pytest.raises(RuleViolation) as info:
        yield
    assert info.value.rule_id == rule_id
    assert message in info.value.message, info.value.message


@contextmanager
def refused_every(*expected: tuple[str, str]) -> Iterator[None]:
    """A lineup breaking several rules is refused naming each (rule id, words of its message), in this order."""
    with pytest.raises(Refusals) as info:
        yield
    named = [(r.rule_id, r.message) for r in info.value.refusals]
    assert [rule for rule, _ in named] == [rule for rule, _ in expected], named
    assert all(words in message for (_, message), (_, words) in zip(named, expected, strict=True)), named


def arrive(night: MatchNight, side: Side, player: int, when: datetime) -> MatchNight:
    return replace(night, visits=(*night.visits, Visit(side, player, when)))


def leave(night: MatchNight, side: Side, player: int, when: datetime) -> MatchNight:
    visits = tuple(
        replace(v, left=when) if (v.side, v.player_id, v.left) == (side, player, None) else v for v in night.visits
    )
    return replace(night, visits=visits)


def with_progress(night: MatchNight, *progress: GameProgress) -> MatchNight:
    return replace(night, progress=(*night.progress, *progress))


def through_round(last: int, night: MatchNight | None = None) -> MatchNight:
    """A normal match declared through round `last` (default D,D,S,S)."""
    night = night or make_night()
    rounds: list[tuple[Side, Sequence[Sequence[int]], Sequence[Sequence[int]], list[int]]] = [
        (AWAY, [(A(1), A(2)), (A(3), A(4))], [(H(1), H(2)), (H(3), H(4))], [M1, M2]),
        (HOME, [(H(5), H(6)), (H(1), H(3))], [(A(5), A(6)), (A(1), A(3))], [M1, M2]),
        (AWAY, singles(A(1), A(2), A(3), A(4)), singles(H(1), H(2), H(3), H(4)), [M1, M1, M2, M2]),
        (HOME, singles(H(5), H(6), H(1), H(2)), singles(A(5), A(6), A(1), A(2)), [M1, M1, M2, M2]),
    ]
    for index, (first, first_games, second_games, machines) in enumerate(rounds[:last], start=1):
        night = declare(night, first, index, first_games, machines)
        night = declare(night, first.other, index, second_games)
    return night


# --- Rounds and declaration order -----------------------------------------------------------------------


class TestRoundPlan:
    def test_default_plan(self) -> None:
        """TEAM-LINEUP-1, TEAM-LINEUP-2, TEAM-AMB-1: D,D,S,S; AWAY declares first in rounds 1 and 3."""
        plan = round_plan(OPTIONS)
        assert [(p.index, p.kind, p.first_declarer) for p in plan] == [
            (1, RoundKind.DOUBLES, AWAY),
            (2, RoundKind.DOUBLES, HOME),
            (3, RoundKind.SINGLES, AWAY),
            (4, RoundKind.SINGLES, HOME),
        ]
        assert [(p.games, p.players_per_game) for p in plan] == [(2, 2), (2, 2), (4, 1), (4, 1)]

    def test_other_round_orders(self) -> None:
        """TEAM-AMB-1: `round_order=D,S,D,S` keeps the alternating first declarer."""
        plan = round_plan(TeamOptions(round_order=(RoundKind.DOUBLES, RoundKind.SINGLES) * 2))
        assert [p.kind for p in plan] == [RoundKind.DOUBLES, RoundKind.SINGLES] * 2
        assert [p.first_declarer for p in plan] == [AWAY, HOME, AWAY, HOME]

    def test_there_are_four_rounds(self) -> None:
        """TEAM-LINEUP-1"""
        with refused("TEAM-LINEUP-1", "there is no round 5"):
            declare(through_round(4), AWAY, 5, [(A(1),)])


class TestDeclarationOrder:
    def test_tv15_home_cannot_declare_first_in_round_1(self) -> None:
        """TEAM-TV-15, TEAM-LINEUP-2: a HOME declaration in R1 before AWAY's is refused."""
        with refused("TEAM-LINEUP-2", f"Waiting for {AWAY_TEAM} to declare first this round"):
            declare(make_night(), HOME, 1, [(H(1), H(2)), (H(3), H(4))])

    def test_tv15_play_order_of_each_round(self) -> None:
        """TEAM-TV-15, TEAM-LINEUP-10, TEAM-AMB-2: the second declarer plays first; Doubles alternate."""
        night = through_round(4)
        order = {
            r: [(s.side, s.player_id) for s in round_order(night, r, now=t(60), options=OPTIONS)[0]]
            for r in (1, 2, 3, 4)
        }
        assert order[1] == [(HOME, H(1)), (AWAY, A(1)), (HOME, H(2)), (AWAY, A(2))]  # H-P1, A-P1, H-P2, A-P2
        assert order[2] == [(AWAY, A(5)), (HOME, H(5)), (AWAY, A(6)), (HOME, H(6))]  # A, H, A, H
        assert order[3] == [(HOME, H(1)), (AWAY, A(1))]  # AWAY declared first: HOME plays first
        assert order[4] == [(AWAY, A(5)), (HOME, H(5))]  # HOME declared first: AWAY plays first

    def test_rounds_are_declared_in_order(self) -> None:
        """TEAM-LINEUP-2: round 2 waits until both teams have declared round 1."""
        night = declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        with refused("TEAM-LINEUP-2", "Both teams must declare round 1 before round 2"):
            declare(night, HOME, 2, [(H(1), H(2)), (H(3), H(4))], [M1, M2])

    def test_the_second_declarer_sees_the_first_lineup_and_declares_after_it(self) -> None:
        """TEAM-LINEUP-2: once AWAY has declared round 1, HOME may."""
        night = through_round(1)
        assert [(d.side, d.round_index) for d in night.declarations] == [(AWAY, 1), (HOME, 1)]

    def test_declared_lineups_are_locked(self) -> None:
        """TEAM-LINEUP-4: "Lineups are locked once declared"."""
        night = through_round(1)
        with refused("TEAM-LINEUP-4", "Lineups are locked once declared"):
            declare(night, HOME, 1, [(H(5), H(6)), (H(3), H(4))])

    def test_only_a_captain_or_an_official_declares(self) -> None:
        """TEAM-LINEUP-11: a non-captain, or the other team's captain, is refused; an official may declare."""
        games, machines = [(A(1), A(2)), (A(3), A(4))], [M1, M2]
        with refused("TEAM-LINEUP-11", f"Only a captain of {AWAY_TEAM} or a league official"):
            declare(make_night(), AWAY, 1, games, machines, by=Declarant(A(2)))
        with refused("TEAM-LINEUP-11", f"Only a captain of {AWAY_TEAM}"):
            declare(make_night(), AWAY, 1, games, machines, by=captain(HOME))
        night = declare(make_night(), AWAY, 1, games, machines, by=Declarant(None, official=True))
        assert night.declarations[0].declared_by == Declarant(None, official=True)

    def test_declarations_are_time_stamped_and_attributed(self) -> None:
        """TEAM-LINEUP-11: every lineup records when and by whom."""
        night = declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2], now=t(3))
        declared = night.declarations[0]
        assert (declared.declared_at, declared.declared_by, declared.side) == (t(3), captain(AWAY), AWAY)


# --- Who may be in a lineup -----------------------------------------------------------------------------


class TestPlayers:
    def test_a_player_appears_once_per_round(self) -> None:
        """TEAM-LINEUP-5: "<player> is already in this round"."""
        with refused("TEAM-LINEUP-5", "A2 is already in this round"):
            declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(2), A(4))], [M1, M2])

    def test_players_must_be_on_the_roster(self) -> None:
        """TEAM-LINEUP-7: "<player> is not on the roster" (an opponent, or a stranger)."""
        with refused("TEAM-LINEUP-7", "H1 is not on the roster"):
            declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), H(1))], [M1, M2])
        with refused("TEAM-LINEUP-7", "Player #99 is not on the roster"):
            declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), 99)], [M1, M2])

    def test_players_must_be_checked_in(self) -> None:
        """TEAM-LINEUP-7, TEAM-SCHED-2: a late player cannot be written in until they arrive."""
        with refused("TEAM-LINEUP-7", "A7 is not checked in"):
            declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(7))], [M1, M2])
        night = arrive(make_night(), AWAY, A(7), t(5))
        assert declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(7))], [M1, M2], now=t(6)).declarations

    def test_a_player_who_left_cannot_be_written_in(self) -> None:
        """TEAM-LINEUP-7, TEAM-SCHED-5: checked out means not present."""
        night = leave(make_night(), AWAY, A(4), t(2))
        with refused("TEAM-LINEUP-7", "A4 is not checked in"):
            declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2], now=t(5))

    def test_a_team_with_four_present_cannot_write_in_a_late_player(self) -> None:
        """TEAM-SCHED-2, TEAM-SHORT-4: only a short team may name a missing player."""
        night = make_night(machines=MACHINES[:1])
        with refused("TEAM-SHORT-4", "only by a short team"):
            declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(7))], [M1, M1], write_in=A(7))

    def test_doubles_games_need_two_players_each(self) -> None:
        """TEAM-LINEUP-8: Doubles = 2 games x 2 players."""
        with refused("TEAM-LINEUP-8", f"Each Doubles game needs 2 players from {AWAY_TEAM}"):
            declare(make_night(), AWAY, 1, [(A(1), A(2), A(5)), (A(3), A(4))], [M1, M2])
        with refused("TEAM-LINEUP-8", "has 2 games"):
            declare(make_night(), AWAY, 1, [(A(1), A(2))], [M1])

    def test_singles_games_need_one_player_each(self) -> None:
        """TEAM-LINEUP-8: Singles = 4 games x 1 player; a full team forfeits nothing."""
        night = through_round(2)
        with refused("TEAM-LINEUP-8", "Name one player for each of the 4 Singles games"):
            declare(night, AWAY, 3, singles(A(1), A(2), A(3), None), [M1, M1, M2, M2])
        with refused("TEAM-LINEUP-8", "Name one player for each of the 4 Singles games"):
            declare(night, AWAY, 3, [(A(1), A(5)), (A(2),), (A(3),), (A(4),)], [M1, M1, M2, M2])

    def test_no_pair_twice_in_a_match(self) -> None:
        """TEAM-LINEUP-6: "<A> and <B> were already paired this match", in either order."""
        night = through_round(1)
        with refused("TEAM-LINEUP-6", "H2 and H1 were already paired this match"):
            declare(night, HOME, 2, [(H(2), H(1)), (H(5), H(6))], [M1, M2])
        assert declare(night, HOME, 2, [(H(1), H(3)), (H(2), H(4))], [M1, M2]).declarations

    def test_pairs_are_per_team(self) -> None:
        """TEAM-LINEUP-6: the other team's pairs do not matter."""
        night = through_round(1)
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2), H(4))], [M1, M2])
        assert declare(night, AWAY, 2, [(A(1), A(3)), (A(2), A(4))]).declarations


# --- Minimum play ---------------------------------------------------------------------------------------


class TestMinimumPlay:
    """TEAM-LINEUP-9 with U = unplayed present starters outside this lineup, S = counting slots left."""

    def test_u_greater_than_s_with_a_reserve_is_refused(self) -> None:
        """TEAM-LINEUP-9: last round, S = 0; H6 has not played and a reserve takes a slot → refused."""
        night = self._night_where_h6_arrives_for_round_4()
        with refused("TEAM-LINEUP-9", "1 present starters still need to play but only 0 slots remain"):
            declare(night, HOME, 4, singles(H(10), H(1), H(2), H(3)), [M1, M1, M2, M2])
        assert declare(night, HOME, 4, singles(H(6), H(1), H(2), H(3)), [M1, M1, M2, M2]).declarations

    def test_a_starter_who_already_played_wastes_a_slot_too(self) -> None:
        """TEAM-LINEUP-9: a slot held by a starter who has played counts like a reserve's."""
        night = self._night_where_h6_arrives_for_round_4()
        with refused("TEAM-LINEUP-9", "instead of H1, H2, H3, H4"):
            declare(night, HOME, 4, singles(H(1), H(2), H(3), H(4)), [M1, M1, M2, M2])

    def test_u_equal_to_s_is_accepted(self) -> None:
        """TEAM-LINEUP-9: refusal needs U > S strictly. Round 3, H5-H8 waiting (U = 4), 4 slots after (S = 4)."""
        night = declare(
            self._eight_starters_through_round_2(), AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2]
        )
        assert declare(night, HOME, 3, singles(H(1), H(2), H(3), H(10))).declarations[-1].side is HOME

    def test_u_one_more_than_s_is_refused(self) -> None:
        """TEAM-LINEUP-9: a fifth waiting starter makes U = 5 > S = 4."""
        night = arrive(self._eight_starters_through_round_2(), HOME, H(9), t(25))
        night = declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2])
        with refused("TEAM-LINEUP-9", "5 present starters still need to play but only 4 slots remain"):
            declare(night, HOME, 3, singles(H(1), H(2), H(3), H(10)))
        assert declare(night, HOME, 3, singles(H(5), H(2), H(3), H(10))).declarations  # U = 4 again

    def test_a_lineup_of_unplayed_starters_is_always_accepted(self) -> None:
        """TEAM-LINEUP-9: five starters arrive for the last round's four slots. All four slots go to them, so
        the lineup passes although U = 1 > S = 0; using the reserve instead is refused."""
        night = self._five_latecomers_for_round_4()
        with refused("TEAM-LINEUP-9", "only 0 slots remain"):
            declare(night, HOME, 4, singles(H(5), H(6), H(7), H(10)), [M1, M1, M2, M2])
        assert declare(night, HOME, 4, singles(H(5), H(6), H(7), H(8)), [M1, M1, M2, M2]).declarations

    def test_leftover_starters_are_excused_and_listed(self) -> None:
        """TEAM-AMB-12: the starter left over is recorded as not having played (excused, no penalty)."""
        night = declare(self._five_latecomers_for_round_4(), HOME, 4, singles(H(5), H(6), H(7), H(8)), [M1, M1, M2, M2])
        night = declare(night, AWAY, 4, singles(A(5), A(6), A(1), A(2)))
        assert unplayed_starters(night, HOME, now=t(45), options=OPTIONS) == (H(9),)

    def test_checked_out_starters_are_not_counted(self) -> None:
        """TEAM-LINEUP-9, TEAM-SCHED-5: a starter who left before being written in leaves without penalty."""
        night = leave(self._night_where_h6_arrives_for_round_4(), HOME, H(6), t(38))
        assert declare(night, HOME, 4, singles(H(10), H(1), H(2), H(3)), [M1, M1, M2, M2]).declarations

    def test_a_late_starter_must_be_written_in(self) -> None:
        """TEAM-SCHED-5: a starter who arrives while a slot can still be filled MUST be written in."""
        night = arrive(through_round(3), HOME, H(7), t(35))
        with refused("TEAM-LINEUP-9", "(H7)"):
            declare(night, HOME, 4, singles(H(10), H(1), H(2), H(3)), [M1, M1, M2, M2])
        assert declare(night, HOME, 4, singles(H(7), H(1), H(2), H(3)), [M1, M1, M2, M2]).declarations

    def test_reserves_never_have_to_play(self) -> None:
        """TEAM-LINEUP-9: the reserve H10 is present all night and never plays; nothing is refused."""
        night = through_round(4)
        assert H(10) not in {p for d in night.declarations for g in d.lineup.games for p in g.players}
        assert unplayed_starters(night, HOME, now=t(45), options=OPTIONS) == ()

    def test_every_later_round_adds_its_slots(self) -> None:
        """TEAM-LINEUP-9: round 2 with H5-H9 waiting (U = 5) leaves rounds 3 and 4, 4 slots each (S = 8), so a
        reserve may play."""
        night = make_night(home=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10))
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        assert declare(night, HOME, 2, [(H(10), H(1)), (H(2), H(3))], [M1, M2]).declarations[-1].side is HOME

    def test_a_replacement_cannot_take_the_last_slot_from_a_waiting_starter(self) -> None:
        """TEAM-LINEUP-9, TEAM-MACH-5: M1 is eliminated during round 4; H6's game was H6's only chance to play,
        so HOME may move it to M3 but not give it to the reserve H10."""
        night = self._night_where_h6_arrives_for_round_4()
        night = declare(night, HOME, 4, singles(H(6), H(1), H(2), H(3)), [M1, M1, M2, M2])
        night = declare(night, AWAY, 4, singles(A(5), A(6), A(1), A(2)))
        night = replace(night, removed=eliminate_machine(night, M1, both_teams_agree=True))
        with refused_exactly(
            "TEAM-LINEUP-9",
            "1 present starters still need to play but only 0 slots remain. "
            "Play starters who have not played yet (H6) instead of H10.",
        ):
            TestMachineFailure._replace(night, HOME, GameEntry((H(10),), M3), round_index=4)
        assert TestMachineFailure._replace(night, HOME, GameEntry((H(6),), M3), round_index=4).entry.machine == M3

    def test_a_replacement_in_round_2_still_has_round_4s_slots_when_round_3_is_declared(self) -> None:
        """TEAM-LINEUP-9, TEAM-MACH-5: M1 is eliminated with rounds 1-3 declared; HOME moves round 2's H5/H6
        game to M3 with H10 for H6. H6 waits (U = 1) but round 4 is still to declare (S = 4)."""
        night = through_round(3)
        night = replace(night, removed=eliminate_machine(night, M1, both_teams_agree=True))
        replacement = TestMachineFailure._replace(night, HOME, GameEntry((H(10), H(5)), M3), round_index=2)
        assert replacement.entry == GameEntry((H(10), H(5)), M3)

    def test_a_replacement_after_the_last_round_is_declared_has_no_slots_after_it(self) -> None:
        """TEAM-LINEUP-9, TEAM-MACH-5: H6 plays in round 4; H7 arrives once round 4 is declared. M1 is
        eliminated and AWAY moves round 3's game 1 to M3; HOME may then change its player, but H7 has no later
        slot (round 4 is declared: S = 0), so the game goes to H7 rather than the reserve H10."""
        night = self._night_where_h6_arrives_for_round_4()
        night = declare(night, HOME, 4, singles(H(6), H(1), H(2), H(3)), [M1, M1, M2, M2])
        night = declare(night, AWAY, 4, singles(A(5), A(6), A(1), A(2)))
        night = arrive(night, HOME, H(7), t(45))
        night = replace(night, removed=eliminate_machine(night, M1, both_teams_agree=True))
        moved = TestMachineFailure._replace(night, AWAY, GameEntry((A(1),), M3), round_index=3)
        night = TestMachineFailure._replaced(night, moved)

        def change_to(player: int) -> Replacement:
            return validate_replacement(
                night, HOME, 3, 1, GameEntry((player,)), by=captain(HOME), now=t(46), options=OPTIONS
            )

        with refused_exactly(
            "TEAM-LINEUP-9",
            "1 present starters still need to play but only 0 slots remain. "
            "Play starters who have not played yet (H7) instead of H10.",
        ):
            change_to(H(10))
        assert change_to(H(7)).entry == GameEntry((H(7),))

    @staticmethod
    def _night_where_h6_arrives_for_round_4() -> MatchNight:
        """HOME's H6 is late: rounds 1-3 go ahead with H1-H5, then H6 arrives before round 4."""
        night = make_night(home=(1, 2, 3, 4, 5, 10))
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        night = declare(night, HOME, 2, [(H(5), H(1)), (H(2), H(3))], [M1, M2])
        night = declare(night, AWAY, 2, [(A(5), A(6)), (A(1), A(3))])
        night = declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2])
        night = declare(night, HOME, 3, singles(H(1), H(2), H(3), H(4)))
        return arrive(night, HOME, H(6), t(35))

    @staticmethod
    def _eight_starters_through_round_2() -> MatchNight:
        """Rounds 1-2 use H1-H4 only, so H5-H8 still have to play."""
        night = make_night(home=(1, 2, 3, 4, 5, 6, 7, 8, 10))
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2), H(4))], [M1, M2])
        return declare(night, AWAY, 2, [(A(5), A(6)), (A(1), A(3))])

    @staticmethod
    def _five_latecomers_for_round_4() -> MatchNight:
        """HOME plays rounds 1-3 with H1-H4; H5-H9 arrive before round 4."""
        night = make_night(home=(1, 2, 3, 4, 10))
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2), H(4))], [M1, M2])
        night = declare(night, AWAY, 2, [(A(5), A(6)), (A(1), A(3))])
        night = declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2])
        night = declare(night, HOME, 3, singles(H(1), H(2), H(3), H(4)))
        for n in (5, 6, 7, 8, 9):
            night = arrive(night, HOME, H(n), t(35))
        return night


# --- Machines -------------------------------------------------------------------------------------------


class TestMachinePicks:
    def test_tv16a_both_doubles_games_on_one_machine(self) -> None:
        """TEAM-TV-16 (a), TEAM-MACH-1: M1-M3 working; R1 with both Doubles games on M1 → refused."""
        with refused("TEAM-MACH-1", "Use at least 2 machines this round"):
            declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M1])

    def test_tv16b_two_games_per_machine(self) -> None:
        """TEAM-TV-16 (b), TEAM-MACH-1: Singles on M1,M1,M2,M2 → OK; M1,M1,M1,M2 → "M1 already has 2 games"."""
        night = through_round(2)
        assert declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2]).declarations
        with refused("TEAM-MACH-1", "M1 already has 2 games this round"):
            declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M1, M2])

    def test_tv16c_a_single_machine_hosts_everything(self) -> None:
        """TEAM-TV-16 (c), TEAM-MACH-1: with one working machine every game is on it, all 4 Singles on M1."""
        night = make_night(machines=MACHINES[:1])
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M1])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2), H(4))], [M1, M1])
        night = declare(night, AWAY, 2, [(A(1), A(3)), (A(2), A(4))])
        assert declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M1, M1]).declarations

    def test_more_machines_may_be_used(self) -> None:
        """TEAM-MACH-1: teams may spread a round over more than 2 machines."""
        night = through_round(2)
        assert declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M2, M3, M3]).declarations

    def test_first_declarer_picks_every_machine(self) -> None:
        """TEAM-LINEUP-3: the first declarer picks the machine for every game in the same submission."""
        with refused("TEAM-LINEUP-3", f"{AWAY_TEAM} declares first: pick a machine for every game"):
            declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, None])

    def test_second_declarer_does_not_pick_machines(self) -> None:
        """TEAM-LINEUP-3: only the first declarer picks machines."""
        night = declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        with refused("TEAM-LINEUP-3", f"{AWAY_TEAM} picked the machines this round"):
            declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))], [M2, M1])

    def test_machines_must_be_in_service_here(self) -> None:
        """TEAM-MACH-1: a machine not in service at the venue is refused."""
        with refused("TEAM-MACH-1", "Machine #999 is not in service at this venue tonight"):
            declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, 999])

    def test_legal_machines_for_autocomplete(self) -> None:
        """TEAM-MACH-1, TEAM-MACH-3: removed machines and machines with 2 games this round are not offered."""
        night = replace(through_round(1), removed=frozenset({M3}))
        assert [m.name for m in legal_machines(night, 2, options=OPTIONS)] == ["M1", "M2"]
        assert [m.name for m in legal_machines(night, 1, options=OPTIONS)] == ["M1", "M2"]
        busy = declare(through_round(2), AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M3])
        assert [m.name for m in legal_machines(busy, 3, options=OPTIONS)] == ["M2", "M3"]
        lone = make_night(machines=MACHINES[:1])
        assert [m.name for m in legal_machines(lone, 1, options=OPTIONS)] == ["M1"]


class TestMachineRemoval:
    def test_tv16d_a_removed_machine_never_returns(self) -> None:
        """TEAM-TV-16 (d), TEAM-MACH-3: M2 removed by agreement after R1 (M1 and M3 remain); an R2 pick of M2
        → "M2 was removed from this match"."""
        night = through_round(1)
        night = replace(night, removed=remove_machine(night, M2, both_captains_agree=True))
        with refused("TEAM-MACH-3", "M2 was removed from this match"):
            declare(night, HOME, 2, [(H(5), H(6)), (H(1), H(3))], [M1, M2])
        assert declare(night, HOME, 2, [(H(5), H(6)), (H(1), H(3))], [M1, M3]).declarations

    def test_tv16e_removal_needs_two_other_machines(self) -> None:
        """TEAM-TV-16 (e), TEAM-MACH-3: a venue with only M1 and M2; removing M2 is refused."""
        night = make_night(machines=MACHINES[:2])
        with refused("TEAM-MACH-3", "Removal needs agreement of both captains and ≥2 other machines"):
            remove_machine(night, M2, both_captains_agree=True)

    def test_removal_needs_both_captains(self) -> None:
        """TEAM-MACH-3: without both captains' agreement nothing is removed."""
        with refused("TEAM-MACH-3", "Removal needs agreement of both captains"):
            remove_machine(make_night(), M2, both_captains_agree=False)

    def test_removals_count_against_the_two_others(self) -> None:
        """TEAM-MACH-3: with M3 already removed, only M1 is left besides M2."""
        night = replace(make_night(), removed=frozenset({M3}))
        with refused("TEAM-MACH-3", "≥2 other machines"):
            remove_machine(night, M2, both_captains_agree=True)
        with refused("TEAM-MACH-3", "M3 was removed from this match"):
            remove_machine(night, M3, both_captains_agree=True)

    def test_major_failure_eliminates_when_another_machine_works(self) -> None:
        """TEAM-MACH-4: one other working machine is enough; the eliminated machine cannot come back."""
        night = make_night(machines=MACHINES[:2])
        assert major_failure_remedy(night, M2) is MajorFailureRemedy.ELIMINATE
        night = replace(night, removed=eliminate_machine(night, M2, both_teams_agree=True))
        assert night.removed == {M2}
        with refused("TEAM-MACH-3", "M2 was removed from this match"):
            declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        assert declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M1]).declarations  # only M1 left

    def test_major_failure_of_the_last_machine_moves_the_match(self) -> None:
        """TEAM-MACH-4: with no other working machine the match moves or is rescheduled."""
        night = replace(make_night(machines=MACHINES[:2]), removed=frozenset({M1}))
        assert major_failure_remedy(night, M2) is MajorFailureRemedy.MOVE_OR_RESCHEDULE
        with refused("TEAM-MACH-4", "move the match to another venue or reschedule it"):
            eliminate_machine(night, M2, both_teams_agree=True)

    def test_elimination_needs_both_teams(self) -> None:
        """TEAM-MACH-4: both teams must agree."""
        with refused("TEAM-MACH-4", "needs the agreement of both teams"):
            eliminate_machine(make_night(), M2, both_teams_agree=False)


class TestGamesInProgress:
    def test_at_most_two_games_at_once(self) -> None:
        """TEAM-MACH-2: two games may run together; a third is refused until one is done."""
        night = through_round(3)
        first = start_game(night, 3, 1, now=t(31), options=OPTIONS)
        assert (first.status, first.started_at) == (GameStatus.IN_PROGRESS, t(31))
        night = with_progress(night, first, start_game(night, 3, 3, now=t(31), options=OPTIONS))
        with refused("TEAM-MACH-2", "Two match games are already in progress"):
            start_game(night, 3, 4, now=t(32), options=OPTIONS)
        done = replace(night, progress=(replace(first, status=GameStatus.DONE), night.progress[1]))
        assert start_game(done, 3, 2, now=t(40), options=OPTIONS).status is GameStatus.IN_PROGRESS

    def test_one_game_per_machine_at_a_time(self) -> None:
        """TEAM-MACH-2: games 1 and 2 of round 3 share M1, so game 2 waits for game 1."""
        night = through_round(3)
        night = with_progress(night, start_game(night, 3, 1, now=t(31), options=OPTIONS))
        with refused("TEAM-MACH-2", "M1 is in use by game 1 of round 3"):
            start_game(night, 3, 2, now=t(32), options=OPTIONS)

    def test_a_game_starts_once(self) -> None:
        """TEAM-MACH-2"""
        night = through_round(1)
        night = with_progress(night, start_game(night, 1, 1, now=t(11), options=OPTIONS))
        with refused("TEAM-MACH-2", "Game 1 of round 1 has already started"):
            start_game(night, 1, 1, now=t(12), options=OPTIONS)

    def test_both_lineups_come_first(self) -> None:
        """TEAM-LINEUP-2: no game of a round starts before both teams have declared it."""
        night = declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        with refused("TEAM-LINEUP-2", "Both teams must declare round 1 before its games start"):
            start_game(night, 1, 1, now=t(11), options=OPTIONS)

    def test_there_are_only_so_many_games(self) -> None:
        """TEAM-LINEUP-1: a Doubles round has games 1 and 2."""
        with refused("TEAM-LINEUP-1", "there is no game 3"):
            start_game(through_round(1), 1, 3, now=t(11), options=OPTIONS)


class TestMachineFailure:
    """TEAM-MACH-5: R1 game 1 (AWAY picked M1) breaks down mid-game and M1 is eliminated."""

    def test_the_team_that_picked_it_picks_the_replacement(self) -> None:
        """TEAM-MACH-5: HOME waits for AWAY, who chose M1, to choose the new machine."""
        night = self._broken()
        with refused("TEAM-MACH-5", f"Waiting for {AWAY_TEAM} to pick the replacement machine"):
            self._replace(night, HOME, GameEntry((H(1), H(5))))
        with refused("TEAM-MACH-5", "Pick the machine that replaces M1"):
            self._replace(night, AWAY, GameEntry((A(1), A(2))))
        replacement = self._replace(night, AWAY, GameEntry((A(1), A(5)), M3))
        assert (replacement.round_index, replacement.game_number, replacement.entry.machine) == (1, 1, M3)

    def test_both_teams_may_change_the_broken_game_only(self) -> None:
        """TEAM-MACH-5, TEAM-LINEUP-4: game 2 (on M2) stays locked; game 1 changes for both teams, once."""
        night = self._broken()
        with refused("TEAM-LINEUP-4", "Lineups are locked once declared"):
            self._replace(night, AWAY, GameEntry((A(3), A(5)), M3), game=2)
        night = self._replaced(night, self._replace(night, AWAY, GameEntry((A(1), A(5)), M3)))
        with refused("TEAM-LINEUP-4", "Lineups are locked once declared"):
            self._replace(night, HOME, GameEntry((H(3), H(5))), game=2)
        night = self._replaced(night, self._replace(night, HOME, GameEntry((H(1), H(5)))))
        with refused("TEAM-LINEUP-4", "Lineups are locked once declared"):
            self._replace(night, HOME, GameEntry((H(1), H(6))))
        order = round_order(night, 1, now=t(16), options=OPTIONS)[0]
        assert [s.player_id for s in order] == [H(1), A(1), H(5), A(5)]
        assert start_game(night, 1, 1, now=t(16), options=OPTIONS).status is GameStatus.IN_PROGRESS

    def test_replacements_still_keep_the_lineup_rules(self) -> None:
        """TEAM-MACH-5 with TEAM-LINEUP-5 and TEAM-LINEUP-6: no one twice in the round, no repeated pair."""
        night = self._replaced(self._broken(), self._replace(self._broken(), AWAY, GameEntry((A(1), A(2)), M3)))
        with refused("TEAM-LINEUP-5", "H3 is already in this round"):
            self._replace(night, HOME, GameEntry((H(1), H(3))))
        night = through_round(1)
        night = declare(night, HOME, 2, [(H(5), H(6)), (H(1), H(3))], [M1, M2])
        night = declare(night, AWAY, 2, [(A(5), A(6)), (A(1), A(3))])
        night = replace(night, removed=frozenset({M2}))
        with refused("TEAM-LINEUP-6", "H1 and H2 were already paired this match"):
            self._replace(night, HOME, GameEntry((H(1), H(2)), M3), round_index=2, game=2)

    def test_replacements_keep_minimum_play(self) -> None:
        """TEAM-MACH-5 with TEAM-LINEUP-9: in the last round a replacement cannot bench a waiting starter."""
        night = through_round(3)
        night = declare(night, HOME, 4, singles(H(5), H(6), H(1), H(2)), [M1, M1, M2, M2])
        night = declare(night, AWAY, 4, singles(A(5), A(6), A(1), A(2)))
        night = arrive(replace(night, removed=frozenset({M2})), HOME, H(7), t(41))
        with refused("TEAM-LINEUP-9", "(H7)"):
            self._replace(night, HOME, GameEntry((H(3),), M3), round_index=4, game=3)
        assert self._replace(night, HOME, GameEntry((H(7),), M3), round_index=4, game=3).entry.players == (H(7),)

    def test_replacement_machine_follows_the_machine_rules(self) -> None:
        """TEAM-MACH-5 with TEAM-MACH-1 and TEAM-MACH-3: not a removed machine, not a third game on M2."""
        night = self._broken()
        with refused("TEAM-MACH-3", "M1 was removed from this match"):
            self._replace(night, AWAY, GameEntry((A(1), A(2)), M1))
        night = declare(through_round(2), AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2])
        night = declare(night, HOME, 3, singles(H(1), H(2), H(3), H(4)))
        night = replace(night, removed=frozenset({M1}))
        with refused("TEAM-MACH-1", "M2 already has 2 games this round"):
            self._replace(night, AWAY, GameEntry((A(1),), M2), round_index=3, game=1)
        assert self._replace(night, AWAY, GameEntry((A(1),), M3), round_index=3, game=1).entry.machine == M3

    def test_a_finished_game_is_not_replayed(self) -> None:
        """TEAM-MACH-5: only games not yet finished on the failed machine change."""
        night = replace(self._broken(), progress=(GameProgress(1, 1, GameStatus.DONE, t(11)),))
        with refused("TEAM-LINEUP-4", "Lineups are locked once declared"):
            self._replace(night, AWAY, GameEntry((A(1), A(2)), M3))

    def test_a_game_on_a_failed_machine_cannot_restart_there(self) -> None:
        """TEAM-MACH-5: the game waits for its new machine."""
        night = replace(self._broken(), progress=())
        with refused("TEAM-MACH-5", f"M1 is out of this match: {AWAY_TEAM} picks a replacement machine first"):
            start_game(night, 1, 1, now=t(15), options=OPTIONS)

    def test_a_short_team_moves_its_game_keeping_its_solo_player(self) -> None:
        """TEAM-MACH-5 with TEAM-SHORT-2, TEAM-SHORT-3: short AWAY moves its pair's game off M1; A3 still plays
        alone in game 2, which is A3's solo game of this round, not a second one."""
        night = make_night(away=SHORT_TRIO)
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        night = replace(night, removed=eliminate_machine(night, M1, both_teams_agree=True))
        assert self._replace(night, AWAY, GameEntry((A(1), A(2)), M3)).entry == GameEntry((A(1), A(2)), M3)

    def test_a_forfeited_game_has_no_machine_to_replace(self) -> None:
        """TEAM-MACH-5, TEAM-LINEUP-4: short AWAY forfeits game 3 of round 3 and picks no machine for it; no
        machine failed, so neither team may change that game."""
        night = TestOneTeamShort._short_away_through_round_2()
        night = declare(night, AWAY, 3, singles(A(1), A(2), None, A(3)), [M1, M1, None, M2])
        night = declare(night, HOME, 3, singles(H(1), H(2), H(3), H(4)))
        with refused_exactly("TEAM-LINEUP-4", "Lineups are locked once declared."):
            self._replace(night, AWAY, GameEntry((), M3), round_index=3, game=3)
        with refused_exactly("TEAM-LINEUP-4", "Lineups are locked once declared."):
            self._replace(night, HOME, GameEntry((H(5),)), round_index=3, game=3)

    @staticmethod
    def _broken() -> MatchNight:
        night = through_round(1)
        night = with_progress(night, GameProgress(1, 1, GameStatus.PENDING, t(11)))
        return replace(night, removed=eliminate_machine(night, M1, both_teams_agree=True))

    @staticmethod
    def _replace(
        night: MatchNight, side: Side, entry: GameEntry, *, round_index: int = 1, game: int = 1
    ) -> Replacement:
        return validate_replacement(
            night, side, round_index, game, entry, by=captain(side), now=t(10 * round_index + 5), options=OPTIONS
        )

    @staticmethod
    def _replaced(night: MatchNight, replacement: Replacement) -> MatchNight:
        return replace(night, replacements=(*night.replacements, replacement))


class TestSinglePlayerFailure:
    def test_the_player_chooses_to_replay(self) -> None:
        """TEAM-MACH-6: replaying solo voids the first score (REPLAY_REPLACES); the choice is recorded."""
        night = through_round(1)
        night = with_progress(night, start_game(night, 1, 1, now=t(11), options=OPTIONS))
        choice = record_single_player_failure(night, 1, 1, H(2), FailureChoice.REPLAY_SOLO, now=t(14), options=OPTIONS)
        assert (choice.player_id, choice.chosen_at, choice.score_status) == (H(2), t(14), ScoreStatus.REPLAY_REPLACES)

    def test_the_player_chooses_to_continue(self) -> None:
        """TEAM-MACH-6: continuing keeps the score as it is."""
        night = through_round(1)
        night = with_progress(night, start_game(night, 1, 1, now=t(11), options=OPTIONS))
        choice = record_single_player_failure(night, 1, 1, A(1), FailureChoice.CONTINUE, now=t(14), options=OPTIONS)
        assert choice.score_status is ScoreStatus.NORMAL

    def test_only_a_player_of_a_running_game_chooses(self) -> None:
        """TEAM-MACH-6: the game must be in progress and the player in it."""
        night = through_round(1)
        with refused("TEAM-MACH-6", "Game 1 of round 1 is not in progress"):
            record_single_player_failure(night, 1, 1, H(2), FailureChoice.CONTINUE, now=t(14), options=OPTIONS)
        night = with_progress(night, start_game(night, 1, 1, now=t(11), options=OPTIONS))
        with refused("TEAM-MACH-6", "H3 is not playing in game 1"):
            record_single_player_failure(night, 1, 1, H(3), FailureChoice.CONTINUE, now=t(14), options=OPTIONS)


class TestPlayOrderAndMachineCapacity:
    def test_doubles_play_order_alternates_from_the_second_declarer(self) -> None:
        """TEAM-LINEUP-10, TEAM-AMB-2: second declarer P1, first P1, second P2, first P2."""
        order = play_order(AWAY, (A(1), A(2)), (H(1), H(2)))
        assert order == (Seat(HOME, H(1)), Seat(AWAY, A(1)), Seat(HOME, H(2)), Seat(AWAY, A(2)))

    def test_one_against_two_starts_with_the_second_declarer_and_alternates_where_possible(self) -> None:
        """TEAM-AMB-2: in a 1-vs-2 game the second declarer goes first, alternating while both have players."""
        assert play_order(AWAY, (A(1),), (H(1), H(2))) == (Seat(HOME, H(1)), Seat(AWAY, A(1)), Seat(HOME, H(2)))
        assert play_order(HOME, (H(1), H(2)), (A(1),)) == (Seat(AWAY, A(1)), Seat(HOME, H(1)), Seat(HOME, H(2)))

    def test_four_player_machine_is_one_game(self) -> None:
        """TEAM-MACH-9: a Doubles game on a 4-player machine is one physical game."""
        order = play_order(AWAY, (A(1), A(2)), (H(1), H(2)))
        assert games_for_machine_capacity(4, order) == (order,)

    def test_two_player_machine_makes_two_one_on_one_games(self) -> None:
        """TEAM-MACH-9: on a 2-player machine, two 1-on-1 games, each one HOME vs one AWAY player."""
        order = play_order(AWAY, (A(1), A(2)), (H(1), H(2)))
        games = games_for_machine_capacity(2, order)
        assert games == ((Seat(HOME, H(1)), Seat(AWAY, A(1))), (Seat(HOME, H(2)), Seat(AWAY, A(2))))
        assert all({s.side for s in game} == {HOME, AWAY} for game in games)

    def test_one_player_machine_alternates_solo_games(self) -> None:
        """TEAM-MACH-9: on a 1-player machine players go one at a time, alternating HOME and AWAY."""
        games = games_for_machine_capacity(1, play_order(HOME, (H(1), H(2)), (A(1), A(2))))
        assert [g[0].side for g in games] == [AWAY, HOME, AWAY, HOME]
        assert all(len(g) == 1 for g in games)
        singles_game = games_for_machine_capacity(1, play_order(AWAY, (A(1),), (H(1),)))
        assert singles_game == ((Seat(HOME, H(1)),), (Seat(AWAY, A(1)),))

    def test_tv23_short_team_on_a_two_player_machine(self) -> None:
        """TEAM-TV-23, TEAM-AMB-23: AWAY (3 players) declares first in R1 with solo Z on a 2-player machine:
        a 1-on-1 of Z vs H1, then a 1-player game for H2."""
        z = A(3)
        games = games_for_machine_capacity(2, play_order(AWAY, (z,), (H(1), H(2))))
        assert games == ((Seat(HOME, H(1)), Seat(AWAY, z)), (Seat(HOME, H(2)),))

    def test_tv23_short_team_on_a_one_player_machine(self) -> None:
        """TEAM-TV-23, TEAM-AMB-23: on a 1-player machine the three play one at a time."""
        games = games_for_machine_capacity(1, play_order(AWAY, (A(3),), (H(1), H(2))))
        assert games == ((Seat(HOME, H(1)),), (Seat(AWAY, A(3)),), (Seat(HOME, H(2)),))

    def test_three_players_fit_a_four_player_machine(self) -> None:
        """TEAM-SHORT-2, TEAM-MACH-9: the 1-vs-2 game is one 3-player game on a 4-player machine."""
        order = play_order(AWAY, (A(3),), (H(1), H(2)))
        assert games_for_machine_capacity(4, order) == (order,)

    def test_capacity_must_be_real(self) -> None:
        """TEAM-MACH-9: machines take 1, 2 or 4 players (COMMON-MACH-2)."""
        with pytest.raises(ValueError, match="1, 2 or 4"):
            games_for_machine_capacity(3, ())


# --- Short-handed teams ---------------------------------------------------------------------------------

SHORT_TRIO = (1, 2, 3)


class TestOneTeamShort:
    """AWAY has exactly 3 players (A1-A3) unless said otherwise."""

    def test_doubles_pair_and_solo(self) -> None:
        """TEAM-SHORT-1, TEAM-SHORT-2: the short team plays one game 1-vs-2 and one normal 2-vs-2."""
        night = declare(make_night(away=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        assert len(round_order(night, 1, now=t(11), options=OPTIONS)[1]) == 3

    def test_doubles_wrong_shape_for_a_short_team(self) -> None:
        """TEAM-SHORT-2: two solo games (or a missing pair) are refused."""
        with refused("TEAM-SHORT-2", f"{AWAY_TEAM} is short-handed: put a pair in one Doubles game"):
            declare(make_night(away=SHORT_TRIO), AWAY, 1, [(A(1),), (A(2),)], [M1, M2])

    def test_the_full_team_still_fields_four(self) -> None:
        """TEAM-SHORT-2, TEAM-LINEUP-8: the opponent of a short team plays 2-vs-2 and 2-vs-1."""
        night = declare(make_night(away=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2])
        with refused("TEAM-LINEUP-8", f"Each Doubles game needs 2 players from {HOME_TEAM}"):
            declare(night, HOME, 1, [(H(1), H(2)), (H(3),)])

    def test_a_short_second_declarer_chooses_its_solo_game(self) -> None:
        """TEAM-SHORT-2: HOME, short, declares second and puts its solo player in game 1."""
        night = declare(make_night(home=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        assert declare(night, HOME, 1, [(H(3),), (H(1), H(2))]).declarations[-1].side is HOME

    def test_nobody_plays_alone_in_both_doubles_rounds(self) -> None:
        """TEAM-SHORT-3: "<player> already played alone in a Doubles round"."""
        night = declare(make_night(away=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        night = declare(night, HOME, 2, [(H(5), H(6)), (H(1), H(3))], [M1, M2])
        with refused_every(
            ("TEAM-SHORT-3", "A3 already played alone in a Doubles round"),
            ("TEAM-LINEUP-6", "A1 and A2 were already paired this match"),
        ):
            declare(night, AWAY, 2, [(A(3),), (A(1), A(2))])
        assert declare(night, AWAY, 2, [(A(1), A(3)), (A(2),)]).declarations

    def test_late_fourth_player_ends_the_penalty_from_the_next_round(self) -> None:
        """TEAM-AMB-7, TEAM-SHORT-1: A4 arrives before round 2 is first declared, so AWAY fields 4 in round 2."""
        night = declare(make_night(away=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        night = arrive(night, AWAY, A(4), t(15))
        night = declare(night, HOME, 2, [(H(5), H(6)), (H(1), H(3))], [M1, M2])
        with refused("TEAM-LINEUP-8", f"Each Doubles game needs 2 players from {AWAY_TEAM}"):
            declare(night, AWAY, 2, [(A(1), A(3)), (A(2),)])
        assert declare(night, AWAY, 2, [(A(1), A(3)), (A(2), A(4))]).declarations

    def test_short_status_is_fixed_when_the_round_is_first_declared(self) -> None:
        """TEAM-AMB-7: A4 arrives after HOME declared round 2 first, so AWAY is short for all of round 2."""
        night = declare(make_night(away=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])
        night = declare(night, HOME, 2, [(H(5), H(6)), (H(1), H(3))], [M1, M2], now=t(20))
        night = arrive(night, AWAY, A(4), t(21))
        assert declare(night, AWAY, 2, [(A(1), A(3)), (A(2),)], now=t(22)).declarations

    def test_singles_forfeit_one_game(self) -> None:
        """TEAM-SHORT-5, TEAM-AMB-6: the short team leaves exactly the game it forfeits empty; nothing is
        played there, and it needs no machine."""
        night = self._short_away_through_round_2()
        night = declare(night, AWAY, 3, singles(A(1), A(2), None, A(3)), [M1, M1, None, M2])
        night = declare(night, HOME, 3, singles(H(1), H(2), H(3), H(4)))
        assert round_order(night, 3, now=t(31), options=OPTIONS)[2] == ()
        assert len(round_order(night, 3, now=t(31), options=OPTIONS)[3]) == 2
        with refused("TEAM-SHORT-5", "Game 3 of round 3 is forfeited; there is nothing to play"):
            start_game(night, 3, 3, now=t(31), options=OPTIONS)

    def test_singles_forfeit_exactly_one_game(self) -> None:
        """TEAM-SHORT-5: two empty games are refused."""
        night = self._short_away_through_round_2()
        with refused("TEAM-SHORT-5", "name one player for 3 Singles games and leave the game you forfeit empty"):
            declare(night, AWAY, 3, singles(A(1), None, None, A(3)), [M1, None, None, M2])

    def test_the_opponent_names_a_player_for_the_forfeited_game(self) -> None:
        """TEAM-AMB-6: the full team still names a player for every Singles game."""
        night = self._short_away_through_round_2()
        night = declare(night, AWAY, 3, singles(A(1), A(2), None, A(3)), [M1, M1, None, M2])
        with refused("TEAM-LINEUP-8", "Name one player for each of the 4 Singles games"):
            declare(night, HOME, 3, singles(H(1), H(2), None, H(3)))

    def test_a_short_second_declarer_marks_the_forfeited_game(self) -> None:
        """TEAM-AMB-6: declaring second, the short team marks which of the opponent's games has no opponent."""
        night = self._short_away_through_round_2()
        night = declare(night, AWAY, 3, singles(A(1), A(2), None, A(3)), [M1, M1, None, M2])
        night = declare(night, HOME, 3, singles(H(1), H(2), H(3), H(4)))
        night = declare(night, HOME, 4, singles(H(5), H(6), H(1), H(2)), [M1, M1, M2, M2])
        night = declare(night, AWAY, 4, singles(A(1), None, A(2), A(3)))
        assert round_order(night, 4, now=t(41), options=OPTIONS)[1] == ()

    def test_a_forfeited_slot_does_not_count_as_play(self) -> None:
        """TEAM-AMB-6, TEAM-LINEUP-9: HOME has H5-H9 waiting in round 3 against a short AWAY that forfeits game
        2. H5 in game 2 does not play, and round 4 offers HOME only 3 counting slots, so two reserves in
        counting games while 4 starters wait is refused; a reserve in the forfeited game is fine."""
        night = self._short_away_through_round_2(home=(1, 2, 3, 4, 10, 11))
        for n in (5, 6, 7, 8, 9):
            night = arrive(night, HOME, H(n), t(25))
        night = declare(night, AWAY, 3, singles(A(1), None, A(2), A(3)), [M1, None, M1, M2])
        with refused("TEAM-LINEUP-9", "4 present starters still need to play but only 3 slots remain"):
            declare(night, HOME, 3, singles(H(10), H(5), H(6), H(11)))
        assert declare(night, HOME, 3, singles(H(5), H(10), H(6), H(7))).declarations

    def test_a_forfeited_slot_may_count_as_play_by_option(self) -> None:
        """TEAM-AMB-6 with `forfeit_slot_counts_as_play=true`: the same lineup now passes (U = 3, S = 4)."""
        counts = TeamOptions(forfeit_slot_counts_as_play=True)
        night = self._short_away_through_round_2(home=(1, 2, 3, 4, 10, 11), options=counts)
        for n in (5, 6, 7, 8, 9):
            night = arrive(night, HOME, H(n), t(25))
        night = declare(night, AWAY, 3, singles(A(1), None, A(2), A(3)), [M1, None, M1, M2], options=counts)
        assert declare(night, HOME, 3, singles(H(10), H(5), H(6), H(11)), options=counts).declarations

    def test_a_starter_only_in_the_forfeited_game_has_not_played(self) -> None:
        """TEAM-AMB-6, TEAM-AMB-12: AWAY forfeits game 2 of round 3; H5 sat in it, H6 played game 3."""
        night = self._short_away_through_round_2()
        night = declare(night, AWAY, 3, singles(A(1), None, A(2), A(3)), [M1, None, M1, M2])
        night = declare(night, HOME, 3, singles(H(1), H(5), H(6), H(2)))
        assert unplayed_starters(night, HOME, now=t(35), options=OPTIONS) == (H(5),)

    def test_by_option_a_forfeited_slot_leaves_every_later_slot_counting(self) -> None:
        """TEAM-AMB-6 `forfeit_slot_counts_as_play=true`, TEAM-LINEUP-9: round 3 with H6-H9 still waiting
        (U = 4): round 4 against short AWAY still has all 4 slots (S = 4), so two reserves may play now."""
        counts = TeamOptions(forfeit_slot_counts_as_play=True)
        night = self._short_away_through_round_2(home=(1, 2, 3, 4, 10, 11), options=counts)
        for n in (5, 6, 7, 8, 9):
            night = arrive(night, HOME, H(n), t(25))
        night = declare(night, AWAY, 3, singles(A(1), None, A(2), A(3)), [M1, None, M1, M2], options=counts)
        assert declare(night, HOME, 3, singles(H(10), H(5), H(11), H(1)), options=counts).declarations

    @staticmethod
    def _short_away_through_round_2(
        home: Iterable[int] = DEFAULT_PRESENT, options: TeamOptions = OPTIONS
    ) -> MatchNight:
        night = make_night(home=home, away=SHORT_TRIO)
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2], options=options)
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))], options=options)
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2), H(4))], [M1, M2], options=options)
        return declare(night, AWAY, 2, [(A(1), A(3)), (A(2),)], options=options)


class TestBothTeamsShort:
    def test_doubles_each_team_has_one_solo_game_against_a_pair(self) -> None:
        """TEAM-SHORT-6, TEAM-AMB-5: game 1 = AWAY pair vs HOME solo, game 2 = AWAY solo vs HOME pair."""
        night = declare(make_night(home=SHORT_TRIO, away=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2])
        with refused("TEAM-SHORT-6", f"your single player goes in game 1, against the pair of {AWAY_TEAM}"):
            declare(night, HOME, 1, [(H(1), H(2)), (H(3),)])
        assert declare(night, HOME, 1, [(H(3),), (H(1), H(2))]).declarations

    def test_doubles_solo_against_solo_by_option(self) -> None:
        """TEAM-AMB-5 option `pair_vs_pair_and_solo_vs_solo`: the two solo players meet in one game."""
        option = TeamOptions(both_short_doubles="pair_vs_pair_and_solo_vs_solo")
        night = make_night(home=SHORT_TRIO, away=SHORT_TRIO)
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2], options=option)
        with refused("TEAM-SHORT-6", f"goes in game 2, against the single player of {AWAY_TEAM}"):
            declare(night, HOME, 1, [(H(3),), (H(1), H(2))], options=option)
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3),)], options=option)
        assert [len(order) for order in round_order(night, 1, now=t(11), options=option)] == [4, 2]

    def test_singles_both_forfeit_the_same_game(self) -> None:
        """TEAM-SHORT-6: the second declarer leaves the first declarer's forfeited game empty too."""
        night = self._both_short_through_round_2()
        night = declare(night, AWAY, 3, singles(A(1), A(2), None, A(3)), [M1, M1, None, M2])
        with refused("TEAM-SHORT-6", "Both teams must forfeit game 3 this round"):
            declare(night, HOME, 3, singles(H(1), None, H(2), H(3)))
        assert declare(night, HOME, 3, singles(H(1), H(2), None, H(3))).declarations

    def test_tv6_lineups_of_a_fourteen_point_match(self) -> None:
        """TEAM-TV-6: both teams short. R1 H-pair vs A-solo, H-solo vs A-pair; R2 the same pattern with new
        pairs and solos; R3 and R4 three Singles games each. Points available 8 + 3 + 3 = 14."""
        night = make_night(home=SHORT_TRIO, away=SHORT_TRIO)
        night = declare(night, AWAY, 1, [(A(1),), (A(2), A(3))], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3),)])
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2),)], [M1, M2])
        night = declare(night, AWAY, 2, [(A(2),), (A(1), A(3))])
        night = declare(night, AWAY, 3, singles(A(1), A(2), A(3), None), [M1, M1, M2, None])
        night = declare(night, HOME, 3, singles(H(1), H(2), H(3), None))
        night = declare(night, HOME, 4, singles(None, H(1), H(2), H(3)), [None, M1, M1, M2])
        night = declare(night, AWAY, 4, singles(None, A(1), A(2), A(3)))
        played = {
            plan.index: [
                g for g, order in enumerate(round_order(night, plan.index, now=t(45), options=OPTIONS), 1) if order
            ]
            for plan in round_plan(OPTIONS)
        }
        assert played == {1: [1, 2], 2: [1, 2], 3: [1, 2, 3], 4: [2, 3, 4]}
        points = {RoundKind.DOUBLES: OPTIONS.doubles_game_pts, RoundKind.SINGLES: OPTIONS.singles_game_pts}
        assert sum(len(played[p.index]) * points[p.kind] for p in round_plan(OPTIONS)) == 14
        assert [len(order) for order in round_order(night, 1, now=t(45), options=OPTIONS)] == [3, 3]

    @staticmethod
    def _both_short_through_round_2() -> MatchNight:
        night = make_night(home=SHORT_TRIO, away=SHORT_TRIO)
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3),)], [M1, M2])
        night = declare(night, HOME, 1, [(H(3),), (H(1), H(2))])
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2),)], [M1, M2])
        return declare(night, AWAY, 2, [(A(2),), (A(1), A(3))])


class TestWriteIn:
    """TEAM-SHORT-4: one machine (M1), AWAY has A1-A3 and writes in A4 for game 2 of round 1."""

    def test_write_in_is_accepted_in_game_2_of_round_1(self) -> None:
        """TEAM-SHORT-4: the write-in need not be checked in; the name is locked with the lineup."""
        night = self._written_in()
        assert night.declarations[0].lineup.write_in == A(4)
        with refused("TEAM-LINEUP-4", "Lineups are locked once declared"):
            declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(5))], [M1, M1], write_in=A(5))

    def test_write_in_counts_if_checked_in_before_game_2_starts(self) -> None:
        """TEAM-SHORT-4: A4 arrives at 20:13, game 2 starts at 20:15: a normal 2-vs-2 game."""
        night = arrive(self._written_in(), AWAY, A(4), t(13))
        night = replace(
            night,
            progress=(GameProgress(1, 1, GameStatus.DONE, t(11)), GameProgress(1, 2, GameStatus.IN_PROGRESS, t(15))),
        )
        assert {s.player_id for s in round_order(night, 1, now=t(20), options=OPTIONS)[1]} == {A(3), A(4), H(3), H(4)}

    def test_a_late_write_in_leaves_the_partner_solo(self) -> None:
        """TEAM-SHORT-4, TEAM-SHORT-3: A4 arrives after game 2 started; A3 played alone, so A3 cannot be the
        solo player of round 2."""
        night = arrive(self._written_in(), AWAY, A(4), t(16))
        night = replace(
            night, progress=(GameProgress(1, 1, GameStatus.DONE, t(11)), GameProgress(1, 2, GameStatus.DONE, t(15)))
        )
        assert {s.player_id for s in round_order(night, 1, now=t(20), options=OPTIONS)[1]} == {A(3), H(3), H(4)}
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2), H(4))], [M1, M1], now=t(14))
        with refused_every(
            ("TEAM-SHORT-3", "A3 already played alone in a Doubles round"),
            ("TEAM-LINEUP-6", "A1 and A2 were already paired this match"),
        ):
            declare(night, AWAY, 2, [(A(3),), (A(1), A(2))], now=t(14))

    def test_write_in_only_in_game_2(self) -> None:
        """TEAM-SHORT-4: not in game 1."""
        night = make_night(away=SHORT_TRIO, machines=MACHINES[:1])
        with refused("TEAM-SHORT-4", "game 2 of round 1"):
            declare(night, AWAY, 1, [(A(1), A(4)), (A(2), A(3))], [M1, M1], write_in=A(4))

    def test_write_in_only_in_round_1(self) -> None:
        """TEAM-SHORT-4: not in round 2."""
        night = declare(
            make_night(home=SHORT_TRIO, machines=MACHINES[:1]), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M1]
        )
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3),)])
        with refused("TEAM-SHORT-4", "game 2 of round 1"):
            declare(night, HOME, 2, [(H(1), H(3)), (H(2), H(4))], [M1, M1], write_in=H(4))

    def test_write_in_only_with_a_single_machine(self) -> None:
        """TEAM-SHORT-4: refused with more than one machine."""
        with refused("TEAM-SHORT-4", "when just one machine is available"):
            declare(make_night(away=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2], write_in=A(4))

    def test_write_in_must_be_rostered(self) -> None:
        """TEAM-SHORT-4, TEAM-LINEUP-7: a missing ROSTERED player."""
        night = make_night(away=SHORT_TRIO, machines=MACHINES[:1])
        with refused("TEAM-LINEUP-7", "Player #99 is not on the roster"):
            declare(night, AWAY, 1, [(A(1), A(2)), (A(3), 99)], [M1, M1], write_in=99)

    def test_as_played_counts_a_write_in_who_came_before_game_2_started(self) -> None:
        """TEAM-SHORT-4: A4 checked in at 20:13, game 2 started at 20:15: A3 and A4 play it."""
        night = with_progress(arrive(self._written_in(), AWAY, A(4), t(13)), GameProgress(1, 2, GameStatus.DONE, t(15)))
        assert as_played(night, AWAY, 1, now=t(30), options=OPTIONS) == ((A(1), A(2)), (A(3), A(4)))

    def test_as_played_leaves_a_late_write_ins_slot_empty(self) -> None:
        """TEAM-SHORT-4: A4 checked in at 20:16, after game 2 started at 20:15: A3 plays game 2 alone."""
        night = with_progress(arrive(self._written_in(), AWAY, A(4), t(16)), GameProgress(1, 2, GameStatus.DONE, t(15)))
        assert as_played(night, AWAY, 1, now=t(30), options=OPTIONS) == ((A(1), A(2)), (A(3),))

    def test_as_played_before_game_2_starts_asks_whether_the_write_in_is_here_now(self) -> None:
        """TEAM-SHORT-4: until game 2 starts, the write-in plays if checked in at the moment asked."""
        night = arrive(self._written_in(), AWAY, A(4), t(13))
        assert as_played(night, AWAY, 1, now=t(12), options=OPTIONS) == ((A(1), A(2)), (A(3),))
        assert as_played(night, AWAY, 1, now=t(14), options=OPTIONS) == ((A(1), A(2)), (A(3), A(4)))

    def test_as_played_of_the_team_without_a_write_in_is_its_lineup(self) -> None:
        assert as_played(self._written_in(), HOME, 1, now=t(20), options=OPTIONS) == ((H(1), H(2)), (H(3), H(4)))

    def test_as_played_of_a_round_not_declared_yet_is_none(self) -> None:
        assert as_played(self._written_in(), AWAY, 2, now=t(20), options=OPTIONS) is None

    def test_as_played_of_a_round_a_match_does_not_have_is_refused(self) -> None:
        with refused("TEAM-LINEUP-1", "A match has rounds 1 to 4; there is no round 5."):
            as_played(self._written_in(), AWAY, 5, now=t(20), options=OPTIONS)

    def test_a_write_in_here_before_game_2_starts_is_not_left_unplayed(self) -> None:
        """TEAM-SHORT-4, TEAM-AMB-12: A4 checks in at 20:13, game 2 not started: from then on A4 plays it."""
        night = arrive(self._written_in(), AWAY, A(4), t(13))
        assert unplayed_starters(night, AWAY, now=t(12), options=OPTIONS) == (A(4),)
        assert unplayed_starters(night, AWAY, now=t(14), options=OPTIONS) == ()

    @staticmethod
    def _written_in() -> MatchNight:
        night = make_night(away=SHORT_TRIO, machines=MACHINES[:1])
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M1], write_in=A(4))
        return declare(night, HOME, 1, [(H(1), H(2)), (H(3), H(4))])


# --- Departures and autocomplete ------------------------------------------------------------------------


class TestDeparturesAndAutocomplete:
    def test_leaving_after_being_written_in_loses_the_slot(self) -> None:
        """TEAM-AMB-20, TEAM-SCHED-5: H2 leaves before R1 game 1 is done → that slot is listed (DQ)."""
        night = leave(through_round(1), HOME, H(2), t(12))
        slots = abandoned_slots(night, now=t(13), options=OPTIONS)
        assert [(s.round_index, s.game_number, s.side, s.player_id) for s in slots] == [(1, 1, HOME, H(2))]

    def test_leaving_after_the_game_is_fine(self) -> None:
        """TEAM-AMB-20: once the game is done, leaving costs nothing."""
        night = leave(through_round(1), HOME, H(2), t(12))
        night = with_progress(night, GameProgress(1, 1, GameStatus.DONE, t(11)))
        assert abandoned_slots(night, now=t(13), options=OPTIONS) == ()

    def test_eligible_players_put_waiting_starters_first(self) -> None:
        """TEAM-LINEUP-5, TEAM-LINEUP-7, TEAM-LINEUP-9: present, rostered, not yet in the round; H7 has to play."""
        night = arrive(through_round(2), HOME, H(7), t(25))
        names = [e.name for e in eligible_players(night, HOME, 3, now=t(30), options=OPTIONS)]
        assert names[0] == "H7"
        assert sorted(names) == sorted(["H1", "H2", "H3", "H4", "H5", "H6", "H7", "H10"])
        night = declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2])
        night = leave(declare(night, HOME, 3, singles(H(7), H(1), H(2), H(3))), HOME, H(6), t(31))
        assert [e.name for e in eligible_players(night, HOME, 3, now=t(32), options=OPTIONS)] == ["H10", "H4", "H5"]


# --- Tie-breaker ----------------------------------------------------------------------------------------

AFM = Machine(104, "Attack from Mars", 4)


class TestTieBreakChoices:
    def test_tv17_home_picks_the_machine_away_the_format(self) -> None:
        """TEAM-TV-17, TEAM-TB-1, TEAM-TB-2: HOME chooses Attack from Mars; AWAY chooses Shared Game; AWAY declares
        X (ball 1), Y (ball 2), Z (ball 3) as Player 1, then HOME declares 3."""
        night = self._night()
        tb = choose_tiebreak(TieBreak(), HOME, night=night, machine=AFM.machine_id)
        tb = choose_tiebreak(tb, AWAY, night=night, game_format=TieBreakFormat.SHARED_GAME)
        assert (tb.machine, tb.machine_by, tb.game_format, tb.format_by) == (
            AFM.machine_id,
            HOME,
            TieBreakFormat.SHARED_GAME,
            AWAY,
        )
        with refused("TEAM-TB-2", f"Waiting for {AWAY_TEAM} to declare first"):
            declare_tiebreak(tb, HOME, (H(1), H(2), H(3)), night=night, now=t(60))
        with refused("TEAM-TB-2", "Shared game needs 3 different players"):
            declare_tiebreak(tb, AWAY, (A(1), A(2)), night=night, now=t(60))
        x, y, z = A(3), A(1), A(2)
        tb = declare_tiebreak(tb, AWAY, (x, y, z), night=night, now=t(60))
        tb = declare_tiebreak(tb, HOME, (H(1), H(2), H(3)), night=night, now=t(61))
        assert tb.lineups == {AWAY: (x, y, z), HOME: (H(1), H(2), H(3))}

    def test_no_team_makes_both_decisions(self) -> None:
        """TEAM-TB-1: one decision per team, never both."""
        night = self._night()
        with refused("TEAM-TB-1", "Make one tie-breaker decision"):
            choose_tiebreak(
                TieBreak(), HOME, night=night, machine=AFM.machine_id, game_format=TieBreakFormat.SHARED_GAME
            )
        tb = choose_tiebreak(TieBreak(), HOME, night=night, machine=AFM.machine_id)
        with refused("TEAM-TB-1", f"{HOME_TEAM} already made its tie-breaker decision; {AWAY_TEAM} makes the other"):
            choose_tiebreak(tb, HOME, night=night, game_format=TieBreakFormat.SPLIT_FLIPPER)
        with refused("TEAM-TB-1", "The machine is already chosen; choose the format"):
            choose_tiebreak(tb, AWAY, night=night, machine=M1)

    def test_home_chooses_first_unless_it_defers(self) -> None:
        """TEAM-TB-1: AWAY waits for HOME; after HOME defers, AWAY chooses first and HOME makes the other."""
        night = self._night()
        with refused("TEAM-TB-1", f"{HOME_TEAM} makes the first tie-breaker decision"):
            choose_tiebreak(TieBreak(), AWAY, night=night, game_format=TieBreakFormat.SPLIT_FLIPPER)
        with refused("TEAM-TB-1", f"Only {HOME_TEAM}, before any choice, may defer"):
            defer_tiebreak_choice(TieBreak(), AWAY, night=night)
        tb = defer_tiebreak_choice(TieBreak(), HOME, night=night)
        with refused("TEAM-TB-1", f"{AWAY_TEAM} makes the first tie-breaker decision"):
            choose_tiebreak(tb, HOME, night=night, machine=M1)
        tb = choose_tiebreak(tb, AWAY, night=night, game_format=TieBreakFormat.SPLIT_FLIPPER)
        tb = choose_tiebreak(tb, HOME, night=night, machine=M1)
        assert (tb.format_by, tb.machine_by) == (AWAY, HOME)
        with refused("TEAM-TB-1", "before any choice"):
            defer_tiebreak_choice(tb, HOME, night=night)

    def test_the_tiebreak_machine_must_still_be_in_the_match(self) -> None:
        """TEAM-TB-1 with TEAM-MACH-3: a removed machine is not a choice."""
        night = replace(self._night(), removed=frozenset({M2}))
        with refused("TEAM-MACH-3", "M2 was removed from this match"):
            choose_tiebreak(TieBreak(), HOME, night=night, machine=M2)

    def test_split_flipper_needs_two_different_present_players(self) -> None:
        """TEAM-TB-2: split flipper = exactly 2 present players per team; no repeats; declared once."""
        night = self._night()
        tb = choose_tiebreak(TieBreak(), HOME, night=night, game_format=TieBreakFormat.SPLIT_FLIPPER)
        with refused("TEAM-TB-2", "Choose the tie-breaker format and machine before declaring players"):
            declare_tiebreak(tb, AWAY, (A(1), A(2)), night=night, now=t(60))
        tb = choose_tiebreak(tb, AWAY, night=night, machine=AFM.machine_id)
        with refused("TEAM-TB-2", "Split flipper needs 2 different players"):
            declare_tiebreak(tb, AWAY, (A(1), A(2), A(3)), night=night, now=t(60))
        with refused("TEAM-TB-2", "Split flipper needs 2 different players"):
            declare_tiebreak(tb, AWAY, (A(1), A(1)), night=night, now=t(60))
        with refused("TEAM-TB-2", "A7 is not checked in"):
            declare_tiebreak(tb, AWAY, (A(1), A(7)), night=night, now=t(60))
        with refused("TEAM-TB-2", "H1 is not on the roster"):
            declare_tiebreak(tb, AWAY, (A(1), H(1)), night=night, now=t(60))
        tb = declare_tiebreak(tb, AWAY, (A(2), A(1)), night=night, now=t(60))
        with refused("TEAM-TB-2", "Lineups are locked once declared"):
            declare_tiebreak(tb, AWAY, (A(3), A(4)), night=night, now=t(61))
        assert tb.lineups[AWAY] == (A(2), A(1))

    @staticmethod
    def _night() -> MatchNight:
        return through_round(4, make_night(machines=(*MACHINES, AFM)))


# --- Properties -----------------------------------------------------------------------------------------


def _greedy_lineup(night: MatchNight, side: Side, round_index: int, now: datetime) -> Sequence[tuple[int, ...]]:
    """Players in eligible_players order (waiting starters first); Doubles pairs chosen to avoid repeats."""
    plan = round_plan(OPTIONS)[round_index - 1]
    chosen = [e.player_id for e in eligible_players(night, side, round_index, now=now, options=OPTIONS)]
    if plan.kind is RoundKind.SINGLES:
        return [(p,) for p in chosen[:4]]
    used = {frozenset(g.players) for d in night.declarations if d.side is side for g in d.lineup.games}
    a, b, c, d = chosen[:4]
    for pairing in ([(a, b), (c, d)], [(a, c), (b, d)], [(a, d), (b, c)]):
        if not any(frozenset(p) in used for p in pairing):
            return pairing
    raise AssertionError("three disjoint pairings cannot all repeat two earlier pairs")


class TestMinimumPlayProperties:
    @settings(
        max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors]
    )
    @given(
        starters=st.integers(4, 9),
        reserves=st.integers(0, 3),
        arrival_rounds=st.lists(st.integers(1, 4), min_size=9, max_size=9),
        data=st.data(),
    )
    def test_random_legal_declarations_never_bench_a_present_starter(
        self, starters: int, reserves: int, arrival_rounds: list[int], data: st.DataObject
    ) -> None:
        """TEAM-LINEUP-9, TEAM-SCHED-5: HOME declares random lineups (re-drawn when refused), H5-H9 arriving
        before random rounds. A lineup of waiting starters first is always accepted (no dead end). A starter
        is left unplayed only when the last lineup was all starters who had not played (slots ran out), and
        never when everyone came on time."""
        home = [*range(1, starters + 1), *range(10, 10 + reserves)]
        arrival = {n: arrival_rounds[n - 1] if 4 < n <= 9 else 1 for n in home}
        night = make_night(home=[n for n in home if arrival[n] == 1])
        for plan in round_plan(OPTIONS):
            now = t(10 * plan.index)
            for n in home:
                if arrival[n] == plan.index > 1:
                    night = arrive(night, HOME, H(n), now - timedelta(minutes=5))
            for side in (plan.first_declarer, plan.first_declarer.other):
                machines = [M1, M2] if plan.kind is RoundKind.DOUBLES else [M1, M1, M2, M2]
                machines = machines if side is plan.first_declarer else []
                if side is AWAY:
                    greedy = _greedy_lineup(night, AWAY, plan.index, now)
                    night = declare(night, AWAY, plan.index, greedy, machines, now=now)
                else:
                    night = self._random_or_greedy(night, plan.index, machines, now, data)
        left_out = unplayed_starters(night, HOME, now=t(45), options=OPTIONS)
        if all(arrival[n] == 1 for n in home):
            assert left_out == ()
        if left_out:
            lineups = {
                d.round_index: [p for g in d.lineup.games for p in g.players]
                for d in night.declarations
                if d.side is HOME
            }
            earlier = {p for r in (1, 2, 3) for p in lineups[r]}
            assert all(p <= 9 and p not in earlier for p in lineups[4])

    @staticmethod
    def _random_or_greedy(
        night: MatchNight, round_index: int, machines: list[int], now: datetime, data: st.DataObject
    ) -> MatchNight:
        plan = round_plan(OPTIONS)[round_index - 1]
        pool = [e.player_id for e in eligible_players(night, HOME, round_index, now=now, options=OPTIONS)]
        for _ in range(3):
            picked = data.draw(st.permutations(pool))[:4]
            games = [tuple(picked[i : i + plan.players_per_game]) for i in range(0, 4, plan.players_per_game)]
            try:
                return declare(night, HOME, round_index, games, machines, now=now)
            except RuleViolation as refusal:
                assert refusal.rule_id in {"TEAM-LINEUP-6", "TEAM-LINEUP-9"}, refusal
        return declare(night, HOME, round_index, _greedy_lineup(night, HOME, round_index, now), machines, now=now)


# --- Refusals word for word, and the corners they guard ----------------------------------------------------


@contextmanager
def refused_exactly(rule_id: str, message: str) -> Iterator[None]:
    """The refusal a captain reads, word for word."""
    with pytest.raises(RuleViolation) as info:
        yield
    assert (info.value.rule_id, info.value.message) == (rule_id, message)


class TestRefusalWording:
    def test_a_second_declaration_of_a_round(self) -> None:
        """TEAM-LINEUP-4"""
        with refused_exactly("TEAM-LINEUP-4", "Lineups are locked once declared."):
            declare(through_round(1), HOME, 1, [(H(5), H(6)), (H(3), H(4))])

    def test_a_round_on_one_machine_of_several(self) -> None:
        """TEAM-MACH-1, TEAM-TV-16 (a)"""
        with refused_exactly("TEAM-MACH-1", "Use at least 2 machines this round."):
            declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M1])

    def test_a_write_in_with_more_than_one_machine(self) -> None:
        """TEAM-SHORT-4"""
        with refused_exactly(
            "TEAM-SHORT-4",
            "A missing player can be written in only by a short team, in game 2 of round 1, "
            "when just one machine is available.",
        ):
            declare(make_night(away=SHORT_TRIO), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2], write_in=A(4))

    def test_minimum_play_names_every_waiting_starter(self) -> None:
        """TEAM-LINEUP-9: H5-H9 have not played (U = 5), 4 slots after round 3 (S = 4); H1-H3 played rounds 1-2
        and H10 is a reserve."""
        night = arrive(TestMinimumPlay._eight_starters_through_round_2(), HOME, H(9), t(25))
        night = declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2])
        with refused_exactly(
            "TEAM-LINEUP-9",
            "5 present starters still need to play but only 4 slots remain. "
            "Play starters who have not played yet (H5, H6, H7, H8, H9) instead of H1, H2, H3, H10.",
        ):
            declare(night, HOME, 3, singles(H(1), H(2), H(3), H(10)))

    def test_machine_removal_and_elimination(self) -> None:
        """TEAM-MACH-3, TEAM-MACH-4"""
        with refused_exactly("TEAM-MACH-3", "Removal needs agreement of both captains and ≥2 other machines."):
            remove_machine(make_night(), M2, both_captains_agree=False)
        with refused_exactly("TEAM-MACH-4", "Eliminating a machine needs the agreement of both teams."):
            eliminate_machine(make_night(), M2, both_teams_agree=False)
        last = replace(make_night(machines=MACHINES[:2]), removed=frozenset({M1}))
        with refused_exactly(
            "TEAM-MACH-4", "No other machine works here: move the match to another venue or reschedule it."
        ):
            eliminate_machine(last, M2, both_teams_agree=True)

    def test_game_starts(self) -> None:
        """TEAM-MACH-2, TEAM-LINEUP-2"""
        night = through_round(3)
        night = with_progress(
            night,
            start_game(night, 3, 1, now=t(31), options=OPTIONS),
            start_game(night, 3, 3, now=t(31), options=OPTIONS),
        )
        with refused_exactly(
            "TEAM-MACH-2", "Two match games are already in progress; finish one before starting another."
        ):
            start_game(night, 3, 4, now=t(32), options=OPTIONS)
        half = declare(make_night(), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        with refused_exactly("TEAM-LINEUP-2", "Both teams must declare round 1 first."):
            round_order(half, 1, now=t(11), options=OPTIONS)

    def test_replacements(self) -> None:
        """TEAM-LINEUP-4, TEAM-MACH-5: a finished game, a round the team has not declared, a second change."""
        broken = TestMachineFailure._broken()
        done = replace(broken, progress=(GameProgress(1, 1, GameStatus.DONE, t(11)),))
        locked = ("TEAM-LINEUP-4", "Lineups are locked once declared.")
        with refused_exactly(*locked):
            TestMachineFailure._replace(done, AWAY, GameEntry((A(1), A(2)), M3))
        with refused_exactly(*locked):
            TestMachineFailure._replace(broken, HOME, GameEntry((H(5), H(6))), round_index=2)
        night = TestMachineFailure._replaced(
            broken, TestMachineFailure._replace(broken, AWAY, GameEntry((A(1), A(5)), M3))
        )
        night = TestMachineFailure._replaced(night, TestMachineFailure._replace(night, HOME, GameEntry((H(1), H(5)))))
        with refused_exactly(*locked):
            TestMachineFailure._replace(night, HOME, GameEntry((H(1), H(6))))

    def test_tiebreak_choices(self) -> None:
        """TEAM-TB-1, TEAM-TB-2"""
        night = TestTieBreakChoices._night()
        with refused_exactly("TEAM-TB-1", "Make one tie-breaker decision: the format or the machine."):
            choose_tiebreak(TieBreak(), HOME, night=night)
        by_format = choose_tiebreak(TieBreak(), HOME, night=night, game_format=TieBreakFormat.SHARED_GAME)
        with refused_exactly("TEAM-TB-1", "The format is already chosen; choose the machine."):
            choose_tiebreak(by_format, AWAY, night=night, game_format=TieBreakFormat.SPLIT_FLIPPER)
        by_machine = choose_tiebreak(TieBreak(), HOME, night=night, machine=AFM.machine_id)
        with refused_exactly("TEAM-TB-1", "The machine is already chosen; choose the format."):
            choose_tiebreak(by_machine, AWAY, night=night, machine=M1)
        with refused_exactly("TEAM-TB-2", "Choose the tie-breaker format and machine before declaring players."):
            declare_tiebreak(by_machine, AWAY, (A(1), A(2)), night=night, now=t(60))
        both = choose_tiebreak(by_machine, AWAY, night=night, game_format=TieBreakFormat.SPLIT_FLIPPER)
        both = declare_tiebreak(both, AWAY, (A(1), A(2)), night=night, now=t(60))
        with refused_exactly("TEAM-TB-2", "Lineups are locked once declared."):
            declare_tiebreak(both, AWAY, (A(3), A(4)), night=night, now=t(61))


class TestCorners:
    def test_home_defers_only_once_and_only_before_choosing(self) -> None:
        """TEAM-TB-1: after HOME has chosen the machine, or once it has deferred, it cannot defer (again)."""
        night = TestTieBreakChoices._night()
        cannot = ("TEAM-TB-1", f"Only {HOME_TEAM}, before any choice, may defer the first decision.")
        chosen = choose_tiebreak(TieBreak(), HOME, night=night, machine=AFM.machine_id)
        with refused_exactly(*cannot):
            defer_tiebreak_choice(chosen, HOME, night=night)
        with refused_exactly(*cannot):
            defer_tiebreak_choice(defer_tiebreak_choice(TieBreak(), HOME, night=night), HOME, night=night)
        away_chose = choose_tiebreak(
            defer_tiebreak_choice(TieBreak(), HOME, night=night),
            AWAY,
            night=night,
            game_format=TieBreakFormat.SHARED_GAME,
        )
        with refused_exactly(*cannot):
            defer_tiebreak_choice(away_chose, HOME, night=night)

    def test_a_machine_gone_from_the_venue_is_named_by_number(self) -> None:
        """TEAM-MACH-5: the venue's list no longer has M1, so the game on it waits for a replacement."""
        night = replace(through_round(1), machines=MACHINES[1:])
        with refused_exactly(
            "TEAM-MACH-5", f"Machine #{M1} is out of this match: {AWAY_TEAM} picks a replacement machine first."
        ):
            start_game(night, 1, 1, now=t(11), options=OPTIONS)

    def test_a_replacement_is_stamped_with_who_and_when(self) -> None:
        """TEAM-MACH-5, TEAM-LINEUP-11"""
        replacement = validate_replacement(
            TestMachineFailure._broken(),
            AWAY,
            1,
            1,
            GameEntry((A(1), A(5)), M3),
            by=Declarant(None, official=True),
            now=t(17),
            options=OPTIONS,
        )
        assert (replacement.side, replacement.declared_at, replacement.declared_by) == (
            AWAY,
            t(17),
            Declarant(None, official=True),
        )

    def test_a_replacement_player_must_be_checked_in(self) -> None:
        """TEAM-MACH-5 with TEAM-LINEUP-7"""
        with refused_exactly("TEAM-LINEUP-7", "A7 is not checked in."):
            TestMachineFailure._replace(TestMachineFailure._broken(), AWAY, GameEntry((A(1), A(7)), M3))

    def test_the_opponent_changes_players_only_before_the_replayed_game_starts_and_picks_no_machine(self) -> None:
        """TEAM-MACH-5, TEAM-LINEUP-3, TEAM-LINEUP-4"""
        broken = TestMachineFailure._broken()
        night = TestMachineFailure._replaced(
            broken, TestMachineFailure._replace(broken, AWAY, GameEntry((A(1), A(5)), M3))
        )
        with refused_exactly("TEAM-LINEUP-3", f"{AWAY_TEAM} picked the machines this round; leave them out."):
            TestMachineFailure._replace(night, HOME, GameEntry((H(1), H(5)), M2))
        started = replace(night, progress=(GameProgress(1, 1, GameStatus.IN_PROGRESS, t(16)),))
        with refused_exactly("TEAM-LINEUP-4", "Lineups are locked once declared."):
            TestMachineFailure._replace(started, HOME, GameEntry((H(1), H(5))))

    def test_a_forfeited_singles_game_does_not_start_and_the_next_one_does(self) -> None:
        """TEAM-SHORT-5"""
        night = make_night(home=SHORT_TRIO)
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M2])
        night = declare(night, HOME, 1, [(H(1), H(2)), (H(3),)])
        night = declare(night, HOME, 2, [(H(1), H(3)), (H(2),)], [M1, M2])
        night = declare(night, AWAY, 2, [(A(1), A(3)), (A(2), A(4))])
        night = declare(night, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M1, M2, M2])
        night = declare(night, HOME, 3, singles(None, H(1), H(2), H(3)))
        with refused_exactly("TEAM-SHORT-5", "Game 1 of round 3 is forfeited; there is nothing to play."):
            start_game(night, 3, 1, now=t(31), options=OPTIONS)
        assert start_game(night, 3, 2, now=t(31), options=OPTIONS).status is GameStatus.IN_PROGRESS

    def test_a_pending_write_in_is_looked_for_at_the_moment_asked(self) -> None:
        """TEAM-SHORT-4: before game 2 starts, whether the write-in plays is read from who is here now."""
        night = TestWriteIn._written_in()
        assert {s.player_id for s in round_order(night, 1, now=t(12), options=OPTIONS)[1]} == {A(3), H(3), H(4)}
        later = arrive(night, AWAY, A(4), t(13))
        assert {s.player_id for s in round_order(later, 1, now=t(14), options=OPTIONS)[1]} == {A(3), A(4), H(3), H(4)}
        assert start_game(later, 1, 2, now=t(14), options=OPTIONS).started_at == t(14)
        running = with_progress(night, start_game(night, 1, 1, now=t(11), options=OPTIONS))
        failure = record_single_player_failure(
            running, 1, 1, A(2), FailureChoice.REPLAY_SOLO, now=t(12), options=OPTIONS
        )
        assert (failure.round_index, failure.game_number, failure.player_id) == (1, 1, A(2))

    def test_both_short_with_a_write_in_the_write_ins_game_is_the_solo_one(self) -> None:
        """TEAM-SHORT-4, TEAM-SHORT-6, TEAM-AMB-5: AWAY's write-in may not come, so game 2 is AWAY's solo game."""
        night = make_night(home=SHORT_TRIO, away=SHORT_TRIO, machines=MACHINES[:1])
        night = declare(night, AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M1], write_in=A(4))
        with refused("TEAM-SHORT-6", "your single player goes in game 1, against the pair"):
            declare(night, HOME, 1, [(H(1), H(2)), (H(3),)])
        assert declare(night, HOME, 1, [(H(3),), (H(1), H(2))]).declarations
        option = TeamOptions(both_short_doubles="pair_vs_pair_and_solo_vs_solo")
        with refused("TEAM-SHORT-6", "your single player goes in game 2, against the single player"):
            declare(night, HOME, 1, [(H(3),), (H(1), H(2))], options=option)
        assert declare(night, HOME, 1, [(H(1), H(2)), (H(3),)], options=option).declarations

    def test_legal_machines_count_every_game_of_the_round(self) -> None:
        """TEAM-MACH-1: a lone machine is always offered; with two machines a machine with 2 games is not."""
        lone = declare(make_night(machines=MACHINES[:1]), AWAY, 1, [(A(1), A(2)), (A(3), A(4))], [M1, M1])
        assert [m.name for m in legal_machines(lone, 1, options=OPTIONS)] == ["M1"]
        pair = through_round(2, make_night(machines=MACHINES[:2]))
        pair = declare(pair, AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M1, M2, M2, M1])
        assert legal_machines(pair, 3, options=OPTIONS) == ()
        late = declare(through_round(2), AWAY, 3, singles(A(1), A(2), A(3), A(4)), [M2, M3, M1, M1])
        assert [m.name for m in legal_machines(late, 3, options=OPTIONS)] == ["M2", "M3"]

    def test_every_unfinished_game_a_departed_player_was_in_is_listed_once(self) -> None:
        """TEAM-AMB-20: H2 leaves with R1 game 1 and R3 game 1 done; R3 game 2 and R4 game 4 are lost, once each."""
        night = through_round(4)
        night = with_progress(
            night, GameProgress(1, 1, GameStatus.DONE, t(11)), GameProgress(3, 1, GameStatus.DONE, t(31))
        )
        night = leave(night, HOME, H(2), t(45))
        slots = abandoned_slots(night, now=t(46), options=OPTIONS)
        assert [(s.round_index, s.game_number, s.side, s.player_id) for s in slots] == [
            (3, 2, HOME, H(2)),
            (4, 4, HOME, H(2)),
        ]

    def test_a_replacement_breaking_two_rules_is_refused_naming_both(self) -> None:
        """TEAM-MACH-5 with TEAM-LINEUP-7 and TEAM-LINEUP-5"""
        with pytest.raises(Refusals) as info:
            TestMachineFailure._replace(TestMachineFailure._broken(), AWAY, GameEntry((A(3), A(7)), M3))
        assert info.value.message.startswith("This lineup breaks 2 rules; fix them all, then declare it again:")
        assert [(r.rule_id, r.message) for r in info.value.refusals] == [
            ("TEAM-LINEUP-7", "A7 is not checked in."),
            ("TEAM-LINEUP-5", "A3 is already in this round."),
        ]
