"""Match-night play: rounds, lineup declarations, machines, short-handed teams and the tie-breaker choices.

Rules TEAM-LINEUP-1..11, TEAM-MACH-1..6 and 9, TEAM-SHORT-1..6 (declarations), TEAM-TB-1..2 and the
ambiguity defaults they cite, in shared/rules/CATALOG.md. A service loads a `MatchNight` (the facts so
far), asks these functions, and stores what they return. Nothing here reads a clock: `now` is a parameter.

Rounds and games are numbered from 1, as on the scoresheet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from functools import partial
from itertools import zip_longest

from bot.rules.refusals import RuleViolation, refuse_all
from bot.rules.team.attendance import FULL_SIDE, RosterEntry, Visit, present_players
from bot.rules.team.model import MachineId, PlayerId, RosterRole, RoundKind, ScoreStatus, Side
from bot.rules.team.options import TeamOptions

MACHINE_CAPACITIES = (1, 2, 4)  # COMMON-MACH-2 max_players
MAX_GAMES_PER_MACHINE = 2  # TEAM-MACH-1 (NYC VII.O.3)
MAX_GAMES_IN_PROGRESS = 2  # TEAM-MACH-2 (NYC VII.O.6)
WRITE_IN_ROUND, WRITE_IN_GAME = 1, 2  # TEAM-SHORT-4 (NYC VI.A.2.4)
EVERY_BROKEN_RULE = "This lineup breaks {count} rules; fix them all, then declare it again:"


# --- Rounds ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundPlan:
    index: int
    kind: RoundKind
    first_declarer: Side  # declares first and picks the machines (TEAM-LINEUP-2, 3)

    @property
    def games(self) -> int:
        return 2 if self.kind is RoundKind.DOUBLES else 4

    @property
    def players_per_game(self) -> int:
        return 2 if self.kind is RoundKind.DOUBLES else 1


def round_plan(options: TeamOptions) -> tuple[RoundPlan, ...]:
    """TEAM-LINEUP-1, TEAM-LINEUP-2, TEAM-AMB-1: four rounds in `round_order`; AWAY declares first in odd
    rounds, HOME in even ones."""
    return tuple(
        RoundPlan(index, kind, Side.AWAY if index % 2 else Side.HOME)
        for index, kind in enumerate(options.round_order, start=1)
    )


# --- The night's facts ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Machine:
    machine_id: MachineId
    name: str
    max_players: int  # 1, 2 or 4 (COMMON-MACH-2)
    balls_per_game: int = 3  # 3 or 5: extra balls only on 3-ball machines (TEAM-PEN-3)


@dataclass(frozen=True)
class GameEntry:
    """One team's part of one game: its players in its own play order (empty = the Singles game a short team
    forfeits) and, from the round's first declarer only, the machine."""

    players: tuple[PlayerId, ...] = ()
    machine: MachineId | None = None


@dataclass(frozen=True)
class Lineup:
    games: tuple[GameEntry, ...]
    write_in: PlayerId | None = None  # TEAM-SHORT-4: a missing player named in game 2 of round 1


@dataclass(frozen=True)
class Declarant:
    """Who submits (TEAM-LINEUP-11): a player of the team, or a league official."""

    player_id: PlayerId | None
    official: bool = False


@dataclass(frozen=True)
class DeclaredLineup:
    side: Side
    round_index: int
    lineup: Lineup
    declared_at: datetime
    declared_by: Declarant


@dataclass(frozen=True)
class Replacement:
    """A new entry for one game whose machine failed (TEAM-MACH-5); the earlier entry no longer counts."""

    side: Side
    round_index: int
    game_number: int
    entry: GameEntry
    declared_at: datetime
    declared_by: Declarant


class GameStatus(StrEnum):
    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    DONE = "done"


@dataclass(frozen=True)
class GameProgress:
    round_index: int
    game_number: int
    status: GameStatus
    started_at: datetime | None = None


@dataclass(frozen=True)
class MatchNight:
    """Everything decided so far in one match that has started (neither team forfeited at window close)."""

    team_names: Mapping[Side, str]
    rosters: Mapping[Side, tuple[RosterEntry, ...]]  # as of the match date
    visits: tuple[Visit, ...]
    machines: tuple[Machine, ...]  # in service at the venue when the match began
    removed: frozenset[MachineId] = frozenset()  # removed or eliminated during the match (TEAM-MACH-3, 4)
    declarations: tuple[DeclaredLineup, ...] = ()
    replacements: tuple[Replacement, ...] = ()
    progress: tuple[GameProgress, ...] = ()  # games not listed are pending


def _machine(night: MatchNight, machine_id: MachineId | None) -> Machine | None:
    return next((m for m in night.machines if m.machine_id == machine_id), None)


def _machine_name(night: MatchNight, machine_id: MachineId | None) -> str:
    machine = _machine(night, machine_id)
    return machine.name if machine else f"Machine #{machine_id}"


def _available_machines(night: MatchNight) -> tuple[Machine, ...]:
    return tuple(m for m in night.machines if m.machine_id not in night.removed)


def _is_available(night: MatchNight, machine_id: MachineId | None) -> bool:
    return any(m.machine_id == machine_id for m in _available_machines(night))


def _roster_entry(night: MatchNight, side: Side, player_id: PlayerId | None) -> RosterEntry | None:
    return next((e for e in night.rosters[side] if e.player_id == player_id), None)


def _player_name(night: MatchNight, player_id: PlayerId) -> str:
    entry = next((e for side in Side for e in night.rosters[side] if e.player_id == player_id), None)
    return entry.name if entry else f"Player #{player_id}"


class _Facts:
    """Read-only questions about one night at one moment, shared by the validators below."""

    def __init__(self, night: MatchNight, options: TeamOptions, now: datetime | None = None) -> None:
        self.night = night
        self.options = options
        self.now = now
        self.plans = round_plan(options)

    def plan(self, round_index: int) -> RoundPlan:
        if not 1 <= round_index <= len(self.plans):
            raise RuleViolation(
                "TEAM-LINEUP-1", f"A match has rounds 1 to {len(self.plans)}; there is no round {round_index}."
            )
        return self.plans[round_index - 1]

    def game(self, round_index: int, game_number: int) -> RoundPlan:
        plan = self.plan(round_index)
        if not 1 <= game_number <= plan.games:
            raise RuleViolation(
                "TEAM-LINEUP-1", f"Round {round_index} has games 1 to {plan.games}; there is no game {game_number}."
            )
        return plan

    def team(self, side: Side) -> str:
        return self.night.team_names[side]

    def name(self, player_id: PlayerId) -> str:
        return _player_name(self.night, player_id)

    def entry(self, side: Side, player_id: PlayerId | None) -> RosterEntry | None:
        return _roster_entry(self.night, side, player_id)

    def present(self, side: Side, moment: datetime | None = None) -> frozenset[PlayerId]:
        at = moment or self.now
        assert at is not None, "presence needs a moment"
        return present_players(self.night.visits, side, at)

    def present_starters(self, side: Side) -> frozenset[PlayerId]:
        return frozenset(p for p in self.present(side) if (e := self.entry(side, p)) and e.role.is_starter)

    def declared(self, side: Side, round_index: int) -> DeclaredLineup | None:
        return next((d for d in self.night.declarations if d.side is side and d.round_index == round_index), None)

    def effective(self, side: Side, round_index: int) -> Lineup | None:
        """The declared lineup with any machine-failure replacements applied (TEAM-MACH-5)."""
        declared = self.declared(side, round_index)
        if declared is None:
            return None
        games = list(declared.lineup.games)
        for r in self.night.replacements:
            if r.side is side and r.round_index == round_index:
                games[r.game_number - 1] = r.entry
        return replace(declared.lineup, games=tuple(games))

    def machine_of(self, round_index: int, game_number: int) -> MachineId | None:
        lineup = self.effective(self.plan(round_index).first_declarer, round_index)
        return lineup.games[game_number - 1].machine if lineup else None

    def progress(self, round_index: int, game_number: int) -> GameProgress:
        for p in self.night.progress:
            if (p.round_index, p.game_number) == (round_index, game_number):
                return p
        return GameProgress(round_index, game_number, GameStatus.PENDING)

    def short_in_round(self, side: Side, round_index: int) -> bool:
        """TEAM-SHORT-1, TEAM-AMB-7: short status is checked when the round's first lineup is declared
        (or now, if none is yet): a team with fewer than 4 present plays that round short-handed."""
        first = self.declared(self.plan(round_index).first_declarer, round_index)
        return len(self.present(side, first.declared_at if first else None)) < FULL_SIDE

    def write_in_counts(self, write_in: PlayerId, side: Side) -> bool:
        """TEAM-SHORT-4: a write-in counts only if checked in before game 2 starts (until then: if here now)."""
        started_at = self.progress(WRITE_IN_ROUND, WRITE_IN_GAME).started_at
        return write_in in self.present(side, started_at)

    def played_entries(self, side: Side, round_index: int) -> tuple[tuple[PlayerId, ...], ...] | None:
        """Per game, who actually plays for `side`: a write-in who did not arrive in time leaves their slot empty."""
        lineup = self.effective(side, round_index)
        if lineup is None:
            return None
        absent = () if lineup.write_in is None or self.write_in_counts(lineup.write_in, side) else (lineup.write_in,)
        return tuple(tuple(p for p in g.players if p not in absent) for g in lineup.games)

    def counting_games(self, side: Side, round_index: int) -> frozenset[int]:
        """Game numbers whose `side` slot counts as play: not a Singles slot facing a forfeit (TEAM-AMB-6)."""
        plan = self.plan(round_index)
        games = frozenset(range(1, plan.games + 1))
        opponent = self.played_entries(side.other, round_index)
        if plan.kind is RoundKind.DOUBLES or opponent is None or self.options.forfeit_slot_counts_as_play:
            return games
        return frozenset(g for g in games if opponent[g - 1])

    def played(self, side: Side, except_round: int | None = None) -> frozenset[PlayerId]:
        """Players of `side` in a counting slot of any declared round but `except_round`: they have played, or
        will (a replacement can come after the next round is declared), so their minimum play is met."""
        played: set[PlayerId] = set()
        for plan in self.plans:
            if plan.index == except_round:
                continue
            counting = self.counting_games(side, plan.index)
            entries = enumerate(self.played_entries(side, plan.index) or (), start=1)
            played.update(p for g, players in entries if g in counting for p in players)
        return frozenset(played)

    def slots_after(self, side: Side, round_index: int) -> int:
        """TEAM-LINEUP-9 "S": counting slots in later rounds not yet declared, if tonight's short status holds."""
        short, opponent_short = self.short_in_round(side, round_index), self.short_in_round(side.other, round_index)
        forfeits_count = self.options.forfeit_slot_counts_as_play
        total = 0
        for plan in self.plans[round_index:]:
            if self.declared(side, plan.index):
                continue
            facing_forfeit = plan.kind is RoundKind.SINGLES and opponent_short and not forfeits_count
            total += plan.games * plan.players_per_game - (1 if short or facing_forfeit else 0)
        return total


def as_played(
    night: MatchNight, side: Side, round_index: int, *, now: datetime, options: TeamOptions
) -> tuple[tuple[PlayerId, ...], ...] | None:
    """TEAM-SHORT-4: who plays each game of a declared round for `side` (None before it declares). A write-in
    counts only if checked in before game 2 starts (until it starts: if here now); otherwise the slot stays
    empty and the partner plays that game alone, so only the partner's score is entered."""
    facts = _Facts(night, options, now)
    facts.plan(round_index)
    return facts.played_entries(side, round_index)


# --- Declaring a lineup ---------------------------------------------------------------------------------


def validate_declaration(
    night: MatchNight,
    side: Side,
    round_index: int,
    lineup: Lineup,
    *,
    by: Declarant,
    now: datetime,
    options: TeamOptions,
) -> DeclaredLineup:
    """Accept one team's lineup for one round, or refuse it naming every rule it breaks.

    Whether the team may declare now comes first, alone: TEAM-LINEUP-11 (captain or official), LINEUP-4 (locked),
    LINEUP-2 (order), LINEUP-8 (games). Then every rule the lineup itself breaks, together, so the captain fixes
    all of them at once: LINEUP-3 and MACH-1/3 (machines), SHORT-4 (write-in), LINEUP-7 (roster, checked in),
    LINEUP-5 (once per round), LINEUP-8 and SHORT-2/5/6 (slots), SHORT-3 (solo twice), LINEUP-6 (pairs),
    LINEUP-9 (minimum play).
    """
    facts = _Facts(night, options, now)
    plan = facts.plan(round_index)
    _check_declarant(facts, side, by)
    _check_turn(facts, side, plan)
    _check_game_count(facts, side, plan, lineup)
    machines = (
        partial(_check_machine_picks, facts, plan, [g.machine for g in lineup.games if g.players])
        if side is plan.first_declarer
        else partial(_check_no_machines, facts, plan, lineup.games)
    )
    refuse_all(
        _broken_rules(
            machines,
            partial(_check_write_in, facts, side, plan, lineup),
            partial(_check_present, facts, side, [p for g in lineup.games for p in g.players if p != lineup.write_in]),
            *_lineup_checks(facts, side, plan, lineup, chosen_games=range(1, plan.games + 1)),
        ),
        EVERY_BROKEN_RULE,
    )
    return DeclaredLineup(side, round_index, lineup, now, by)


def _broken_rules(*checks: Callable[[], None]) -> list[RuleViolation]:
    """Run every check and keep what each refuses (a check stops at its own rule's first problem)."""
    broken = []
    for check in checks:
        try:
            check()
        except RuleViolation as violation:
            broken.append(violation)
    return broken


def _check_declarant(facts: _Facts, side: Side, by: Declarant) -> None:
    """TEAM-LINEUP-11: only a captain of the team, or a league official, declares for it."""
    entry = facts.entry(side, by.player_id)
    if not by.official and (entry is None or entry.role is not RosterRole.CAPTAIN):
        raise RuleViolation(
            "TEAM-LINEUP-11", f"Only a captain of {facts.team(side)} or a league official may declare its lineup."
        )


def _check_turn(facts: _Facts, side: Side, plan: RoundPlan) -> None:
    """TEAM-LINEUP-4: declared once, then locked. TEAM-LINEUP-2: rounds in order, first declarer first."""
    if facts.declared(side, plan.index):
        raise RuleViolation("TEAM-LINEUP-4", "Lineups are locked once declared.")
    if plan.index > 1 and not all(facts.declared(s, plan.index - 1) for s in Side):
        raise RuleViolation(
            "TEAM-LINEUP-2", f"Both teams must declare round {plan.index - 1} before round {plan.index}."
        )
    if side is not plan.first_declarer and not facts.declared(plan.first_declarer, plan.index):
        raise RuleViolation(
            "TEAM-LINEUP-2", f"Waiting for {facts.team(plan.first_declarer)} to declare first this round."
        )


def _check_game_count(facts: _Facts, side: Side, plan: RoundPlan, lineup: Lineup) -> None:
    """TEAM-LINEUP-8: an entry for every game of the round (an empty one for a forfeited Singles game)."""
    if len(lineup.games) != plan.games:
        raise RuleViolation(
            "TEAM-LINEUP-8",
            f"Round {plan.index} ({plan.kind}) has {plan.games} games; {facts.team(side)} gave {len(lineup.games)}.",
        )


def _check_machine_picks(facts: _Facts, plan: RoundPlan, machines: Sequence[MachineId | None]) -> None:
    """TEAM-LINEUP-3: the first declarer picks a machine for every game it plays, in the same submission (a game
    it forfeits needs none)."""
    for machine_id in machines:
        if machine_id is None:
            raise RuleViolation(
                "TEAM-LINEUP-3", f"{facts.team(plan.first_declarer)} declares first: pick a machine for every game."
            )
        _check_machine_available(facts.night, machine_id)
    _check_machine_use(facts.night, machines)


def _check_machine_available(night: MatchNight, machine_id: MachineId) -> None:
    """TEAM-MACH-1: only machines in service at the venue; TEAM-MACH-3: a removed machine never returns."""
    if _machine(night, machine_id) is None:
        raise RuleViolation("TEAM-MACH-1", f"Machine #{machine_id} is not in service at this venue tonight.")
    if machine_id in night.removed:
        raise RuleViolation("TEAM-MACH-3", f"{_machine_name(night, machine_id)} was removed from this match.")


def _check_machine_use(night: MatchNight, machines: Iterable[MachineId | None]) -> None:
    """TEAM-MACH-1: with more than one working machine, at least 2 machines a round and at most 2 games each.

    TEAM-TV-16 (a) both Doubles games on M1 → "Use at least 2 machines"; (b) M1,M1,M2,M2 is fine, M1,M1,M1,M2 is not;
    (c) a venue with a single working machine takes all four Singles games on it.
    """
    if len(_available_machines(night)) <= 1:
        return
    uses = Counter(m for m in machines if m is not None)
    for machine_id, games in uses.items():
        if games > MAX_GAMES_PER_MACHINE:
            name = _machine_name(night, machine_id)
            raise RuleViolation("TEAM-MACH-1", f"{name} already has {MAX_GAMES_PER_MACHINE} games this round.")
    if len(uses) < 2:
        raise RuleViolation("TEAM-MACH-1", "Use at least 2 machines this round.")


def _check_no_machines(facts: _Facts, plan: RoundPlan, games: Sequence[GameEntry]) -> None:
    """TEAM-LINEUP-3: only the first declarer picks machines."""
    if any(g.machine is not None for g in games):
        raise RuleViolation(
            "TEAM-LINEUP-3", f"{facts.team(plan.first_declarer)} picked the machines this round; leave them out."
        )


def _check_write_in(facts: _Facts, side: Side, plan: RoundPlan, lineup: Lineup) -> None:
    """TEAM-SHORT-4: only a short team, in game 2 of round 1, with a single machine, names a missing player.
    Anyone else waits until late players arrive (TEAM-SCHED-2)."""
    if lineup.write_in is None:
        return
    allowed = (
        facts.short_in_round(side, plan.index)
        and plan.index == WRITE_IN_ROUND
        and len(_available_machines(facts.night)) == 1
        and lineup.write_in in lineup.games[WRITE_IN_GAME - 1].players
    )
    if not allowed:
        raise RuleViolation(
            "TEAM-SHORT-4",
            "A missing player can be written in only by a short team, in game 2 of round 1, "
            "when just one machine is available.",
        )
    if facts.entry(side, lineup.write_in) is None:
        raise RuleViolation("TEAM-LINEUP-7", f"{facts.name(lineup.write_in)} is not on the roster.")


def _check_present(facts: _Facts, side: Side, players: Iterable[PlayerId]) -> None:
    """TEAM-LINEUP-7, TEAM-SCHED-2: rostered on the match date and checked in now."""
    present = facts.present(side)
    for player_id in players:
        if facts.entry(side, player_id) is None:
            raise RuleViolation("TEAM-LINEUP-7", f"{facts.name(player_id)} is not on the roster.")
        if player_id not in present:
            raise RuleViolation("TEAM-LINEUP-7", f"{facts.name(player_id)} is not checked in.")


def _lineup_checks(
    facts: _Facts, side: Side, plan: RoundPlan, lineup: Lineup, *, chosen_games: Iterable[int]
) -> list[Callable[[], None]]:
    """The checks on a whole round's lineup; `chosen_games` are the games the team is choosing now."""
    slots = (
        [_check_doubles_slots, _check_solo_once, _check_pairs]
        if plan.kind is RoundKind.DOUBLES
        else [_check_singles_slots]
    )
    return [
        partial(_check_once_per_round, facts, lineup),
        *(partial(check, facts, side, plan, lineup) for check in slots),
        partial(_check_minimum_play, facts, side, plan, lineup, tuple(chosen_games)),
    ]


def _check_once_per_round(facts: _Facts, lineup: Lineup) -> None:
    """TEAM-LINEUP-5: a player appears once per round."""
    seen: set[PlayerId] = set()
    for player_id in (p for g in lineup.games for p in g.players):
        if player_id in seen:
            raise RuleViolation("TEAM-LINEUP-5", f"{facts.name(player_id)} is already in this round.")
        seen.add(player_id)


def _solo_game(lineup: Lineup) -> int | None:
    """The Doubles game where a short team plays alone (a write-in's game counts: the partner may end up solo)."""
    for number, game in enumerate(lineup.games, start=1):
        if len(game.players) == 1 or (lineup.write_in is not None and lineup.write_in in game.players):
            return number
    return None


def _check_doubles_slots(facts: _Facts, side: Side, plan: RoundPlan, lineup: Lineup) -> None:
    """TEAM-LINEUP-8: two players a game. TEAM-SHORT-2: a short team puts a pair in one game and one player
    alone in the other (a write-in fills the second seat). TEAM-SHORT-6 / TEAM-AMB-5: when both are short,
    the second declarer's solo game is the other game (default) or the same game (option)."""
    sizes = sorted(len(g.players) for g in lineup.games)
    if not facts.short_in_round(side, plan.index):
        if sizes != [2, 2]:
            raise RuleViolation("TEAM-LINEUP-8", f"Each Doubles game needs 2 players from {facts.team(side)}.")
        return
    if sizes != ([2, 2] if lineup.write_in is not None else [1, 2]):
        raise RuleViolation(
            "TEAM-SHORT-2",
            f"{facts.team(side)} is short-handed: put a pair in one Doubles game and one player alone in the other.",
        )
    first = facts.effective(plan.first_declarer, plan.index)
    if side is plan.first_declarer or first is None or not facts.short_in_round(plan.first_declarer, plan.index):
        return
    first_solo = _solo_game(first)
    solo_vs_solo = facts.options.both_short_doubles == "pair_vs_pair_and_solo_vs_solo"
    wanted = first_solo if solo_vs_solo else next(g for g in (1, 2) if g != first_solo)
    if _solo_game(lineup) != wanted:
        against = "single player" if solo_vs_solo else "pair"
        raise RuleViolation(
            "TEAM-SHORT-6",
            f"Both teams are short-handed: your single player goes in game {wanted}, "
            f"against the {against} of {facts.team(plan.first_declarer)}.",
        )


def _check_solo_once(facts: _Facts, side: Side, plan: RoundPlan, lineup: Lineup) -> None:
    """TEAM-SHORT-3: nobody plays alone in both Doubles rounds (a write-in's partner left alone counts)."""
    solos_before = {
        players[0]
        for other in facts.plans
        if other.kind is RoundKind.DOUBLES and other.index != plan.index
        for players in facts.played_entries(side, other.index) or ()
        if len(players) == 1
    }
    for game in lineup.games:
        if len(game.players) == 1 and game.players[0] in solos_before:
            raise RuleViolation(
                "TEAM-SHORT-3", f"{facts.name(game.players[0])} already played alone in a Doubles round."
            )


def _check_pairs(facts: _Facts, side: Side, plan: RoundPlan, lineup: Lineup) -> None:
    """TEAM-LINEUP-6: the same two teammates are paired at most once a match, replacements included."""
    earlier = {
        frozenset(players)
        for other in facts.plans
        if other.kind is RoundKind.DOUBLES and other.index != plan.index
        for players in facts.played_entries(side, other.index) or ()
        if len(players) == 2
    }
    for game in lineup.games:
        if len(game.players) == 2 and frozenset(game.players) in earlier:
            a, b = (facts.name(p) for p in game.players)
            raise RuleViolation("TEAM-LINEUP-6", f"{a} and {b} were already paired this match.")


def _check_singles_slots(facts: _Facts, side: Side, plan: RoundPlan, lineup: Lineup) -> None:
    """TEAM-LINEUP-8: one player a game. TEAM-SHORT-5 / TEAM-AMB-6: a short team leaves exactly one game
    empty, the one it forfeits. TEAM-SHORT-6: when both are short, the second declarer empties the same game."""
    sizes = [len(g.players) for g in lineup.games]
    if not facts.short_in_round(side, plan.index):
        if sizes != [1] * plan.games:
            raise RuleViolation("TEAM-LINEUP-8", f"Name one player for each of the {plan.games} Singles games.")
        return
    if sorted(sizes) != [0] + [1] * (plan.games - 1):
        raise RuleViolation(
            "TEAM-SHORT-5",
            f"{facts.team(side)} is short-handed: name one player for {plan.games - 1} Singles games "
            "and leave the game you forfeit empty.",
        )
    first = facts.effective(plan.first_declarer, plan.index)
    if side is plan.first_declarer or first is None:
        return
    first_sizes = [len(g.players) for g in first.games]
    if 0 in first_sizes and sizes.index(0) != first_sizes.index(0):
        raise RuleViolation("TEAM-SHORT-6", f"Both teams must forfeit game {first_sizes.index(0) + 1} this round.")


def _check_minimum_play(
    facts: _Facts, side: Side, plan: RoundPlan, lineup: Lineup, chosen_games: Iterable[int]
) -> None:
    """TEAM-LINEUP-9 (NYC III.F): U = present starters who have not played and are not in a slot of this
    lineup that counts as play; S = counting slots left in later rounds. Refuse only when U > S and a game
    the team is choosing now has a reserve or an already-played starter in a counting slot; a lineup of
    unplayed present starters always passes and the leftovers are excused (TEAM-AMB-12). Starters who
    checked out are not counted (TEAM-SCHED-5)."""
    counting = facts.counting_games(side, plan.index)
    in_lineup = {p for g, game in enumerate(lineup.games, start=1) if g in counting for p in game.players}
    needing = facts.present_starters(side) - facts.played(side, except_round=plan.index)
    unplayed = needing - in_lineup
    slots = facts.slots_after(side, plan.index)
    if len(unplayed) <= slots:
        return
    wasted = [p for g in chosen_games if g in counting for p in lineup.games[g - 1].players if p not in needing]
    if wasted:
        waiting = ", ".join(sorted(facts.name(p) for p in unplayed))
        raise RuleViolation(
            "TEAM-LINEUP-9",
            f"{len(unplayed)} present starters still need to play but only {slots} slots remain. "
            f"Play starters who have not played yet ({waiting}) instead of {', '.join(facts.name(p) for p in wasted)}.",
        )


# --- Machine failures -----------------------------------------------------------------------------------


def remove_machine(night: MatchNight, machine_id: MachineId, *, both_captains_agree: bool) -> frozenset[MachineId]:
    """TEAM-MACH-3: an annoying (minor) failure removes a machine only if both captains agree and at least two
    other working machines stay. Returns the match's new set of removed machines; it never shrinks.

    TEAM-TV-16 (d) M2 removed with M1 and M3 left is then refused in a later pick; (e) with only M1 and M2 at the
    venue, removing M2 is refused (one other machine).
    """
    _check_machine_available(night, machine_id)
    others = [m for m in _available_machines(night) if m.machine_id != machine_id]
    if not both_captains_agree or len(others) < 2:
        raise RuleViolation("TEAM-MACH-3", "Removal needs agreement of both captains and ≥2 other machines.")
    return night.removed | {machine_id}


class MajorFailureRemedy(StrEnum):
    ELIMINATE = "eliminate"  # another machine works: drop this one, the match stays put
    MOVE_OR_RESCHEDULE = "move_or_reschedule"  # nothing else works (TEAM-VENUE-2, 3)


def major_failure_remedy(night: MatchNight, machine_id: MachineId) -> MajorFailureRemedy:
    """TEAM-MACH-4: a major failure (stuck flipper, balls kicked into play, random end of turn, hidden scores)
    eliminates the machine if at least one other works; otherwise the match moves or is rescheduled."""
    _check_machine_available(night, machine_id)
    if any(m.machine_id != machine_id for m in _available_machines(night)):
        return MajorFailureRemedy.ELIMINATE
    return MajorFailureRemedy.MOVE_OR_RESCHEDULE


def eliminate_machine(night: MatchNight, machine_id: MachineId, *, both_teams_agree: bool) -> frozenset[MachineId]:
    """TEAM-MACH-4: eliminate a machine after a major failure, with both teams' agreement; it never returns."""
    if major_failure_remedy(night, machine_id) is MajorFailureRemedy.MOVE_OR_RESCHEDULE:
        raise RuleViolation(
            "TEAM-MACH-4", "No other machine works here: move the match to another venue or reschedule it."
        )
    if not both_teams_agree:
        raise RuleViolation("TEAM-MACH-4", "Eliminating a machine needs the agreement of both teams.")
    return night.removed | {machine_id}


def validate_replacement(
    night: MatchNight,
    side: Side,
    round_index: int,
    game_number: int,
    entry: GameEntry,
    *,
    by: Declarant,
    now: datetime,
    options: TeamOptions,
) -> Replacement:
    """TEAM-MACH-5: a game whose machine is out of the match (and not finished) is replayed elsewhere. The team
    that picked the machine first names the replacement machine (and may change its players for that game);
    then the other team may change its players for it, once, before the game starts again. Every other game
    stays locked (TEAM-LINEUP-4), and the changed lineup must still pass LINEUP-5, 6, 7 and 9."""
    facts = _Facts(night, options, now)
    plan = facts.game(round_index, game_number)
    _check_declarant(facts, side, by)
    lineup = facts.effective(side, round_index)
    if lineup is None:
        raise RuleViolation("TEAM-LINEUP-4", "Lineups are locked once declared.")
    if side is plan.first_declarer:
        _check_machine_replacement(facts, plan, game_number, entry)
    else:
        _check_opponent_may_change(facts, side, plan, game_number, entry)
    changed = replace(lineup, games=tuple(entry if g == game_number else e for g, e in enumerate(lineup.games, 1)))
    refuse_all(
        _broken_rules(
            partial(_check_present, facts, side, entry.players),
            *_lineup_checks(facts, side, plan, changed, chosen_games=(game_number,)),
        ),
        EVERY_BROKEN_RULE,
    )
    return Replacement(side, round_index, game_number, entry, now, by)


def _needs_new_machine(facts: _Facts, round_index: int, game_number: int) -> bool:
    """TEAM-MACH-5: an unfinished game whose machine is out of the match (a game forfeited without one has none)."""
    finished = facts.progress(round_index, game_number).status is GameStatus.DONE
    machine_id = facts.machine_of(round_index, game_number)
    return not finished and machine_id is not None and not _is_available(facts.night, machine_id)


def _check_machine_replacement(facts: _Facts, plan: RoundPlan, game_number: int, entry: GameEntry) -> None:
    if not _needs_new_machine(facts, plan.index, game_number):
        raise RuleViolation("TEAM-LINEUP-4", "Lineups are locked once declared.")
    if entry.machine is None:
        raise RuleViolation("TEAM-MACH-5", f"Pick the machine that replaces {_failed_name(facts, plan, game_number)}.")
    _check_machine_available(facts.night, entry.machine)
    machines = [facts.machine_of(plan.index, g) for g in range(1, plan.games + 1)]
    machines[game_number - 1] = entry.machine
    _check_machine_use(facts.night, [m for m in machines if _is_available(facts.night, m)])


def _failed_name(facts: _Facts, plan: RoundPlan, game_number: int) -> str:
    return _machine_name(facts.night, facts.machine_of(plan.index, game_number))


def _check_opponent_may_change(facts: _Facts, side: Side, plan: RoundPlan, game_number: int, entry: GameEntry) -> None:
    if _needs_new_machine(facts, plan.index, game_number):
        raise RuleViolation(
            "TEAM-MACH-5", f"Waiting for {facts.team(plan.first_declarer)} to pick the replacement machine."
        )
    moves = Counter(
        r.side for r in facts.night.replacements if (r.round_index, r.game_number) == (plan.index, game_number)
    )
    pending = facts.progress(plan.index, game_number).status is GameStatus.PENDING
    if moves[plan.first_declarer] <= moves[side] or not pending:
        raise RuleViolation("TEAM-LINEUP-4", "Lineups are locked once declared.")
    _check_no_machines(facts, plan, (entry,))


# --- Games in progress ----------------------------------------------------------------------------------


def start_game(
    night: MatchNight, round_index: int, game_number: int, *, now: datetime, options: TeamOptions
) -> GameProgress:
    """TEAM-MACH-2: a game starts once both lineups of its round are in, on a machine still in the match and
    free, and never as a third game in progress. Returns the game's new progress record."""
    facts = _Facts(night, options, now)
    plan = facts.game(round_index, game_number)
    home, away = (facts.played_entries(side, round_index) for side in (Side.HOME, Side.AWAY))
    if home is None or away is None:
        raise RuleViolation("TEAM-LINEUP-2", f"Both teams must declare round {round_index} before its games start.")
    if not (home[game_number - 1] and away[game_number - 1]):
        raise RuleViolation(
            "TEAM-SHORT-5", f"Game {game_number} of round {round_index} is forfeited; there is nothing to play."
        )
    if facts.progress(round_index, game_number).status is not GameStatus.PENDING:
        raise RuleViolation("TEAM-MACH-2", f"Game {game_number} of round {round_index} has already started.")
    if _needs_new_machine(facts, round_index, game_number):
        raise RuleViolation(
            "TEAM-MACH-5",
            f"{_failed_name(facts, plan, game_number)} is out of this match: "
            f"{facts.team(plan.first_declarer)} picks a replacement machine first.",
        )
    running = [p for p in night.progress if p.status is GameStatus.IN_PROGRESS]
    if len(running) >= MAX_GAMES_IN_PROGRESS:
        raise RuleViolation(
            "TEAM-MACH-2", "Two match games are already in progress; finish one before starting another."
        )
    machine_id = facts.machine_of(round_index, game_number)
    for other in running:
        if facts.machine_of(other.round_index, other.game_number) == machine_id:
            busy = f"game {other.game_number} of round {other.round_index}"
            raise RuleViolation("TEAM-MACH-2", f"{_machine_name(night, machine_id)} is in use by {busy}.")
    return GameProgress(round_index, game_number, GameStatus.IN_PROGRESS, started_at=now)


class FailureChoice(StrEnum):
    CONTINUE = "continue"  # play on as if nothing happened
    REPLAY_SOLO = "replay_solo"  # void the score, play a solo game straight after (REPLAY_REPLACES)


@dataclass(frozen=True)
class SinglePlayerFailure:
    round_index: int
    game_number: int
    player_id: PlayerId
    choice: FailureChoice
    chosen_at: datetime

    @property
    def score_status(self) -> ScoreStatus:
        return ScoreStatus.REPLAY_REPLACES if self.choice is FailureChoice.REPLAY_SOLO else ScoreStatus.NORMAL


def record_single_player_failure(
    night: MatchNight,
    round_index: int,
    game_number: int,
    player_id: PlayerId,
    choice: FailureChoice,
    *,
    now: datetime,
    options: TeamOptions,
) -> SinglePlayerFailure:
    """TEAM-MACH-6: a failure that hurts one player only: that player, in a game in progress, chooses right away
    to continue or to replay solo after the game; the others finish their game either way."""
    facts = _Facts(night, options, now)
    facts.game(round_index, game_number)
    if facts.progress(round_index, game_number).status is not GameStatus.IN_PROGRESS:
        raise RuleViolation("TEAM-MACH-6", f"Game {game_number} of round {round_index} is not in progress.")
    in_game = {p for side in Side for p in (facts.played_entries(side, round_index) or ())[game_number - 1]}
    if player_id not in in_game:
        raise RuleViolation("TEAM-MACH-6", f"{facts.name(player_id)} is not playing in game {game_number}.")
    return SinglePlayerFailure(round_index, game_number, player_id, choice, now)


@dataclass(frozen=True)
class Seat:
    side: Side
    player_id: PlayerId


def play_order(first_declarer: Side, first: Sequence[PlayerId], second: Sequence[PlayerId]) -> tuple[Seat, ...]:
    """TEAM-LINEUP-10, TEAM-AMB-2 (display only): the second declarer plays first, then the teams alternate
    while both have players left (Doubles: second P1, first P1, second P2, first P2)."""
    second_side = first_declarer.other
    seats: list[Seat] = []
    for s, f in zip_longest(second, first):
        seats += [Seat(second_side, s)] if s is not None else []
        seats += [Seat(first_declarer, f)] if f is not None else []
    return tuple(seats)


def round_order(
    night: MatchNight, round_index: int, *, now: datetime, options: TeamOptions
) -> tuple[tuple[Seat, ...], ...]:
    """TEAM-LINEUP-10: the play order of each game of a declared round (a forfeited Singles game has nothing to
    play)."""
    facts = _Facts(night, options, now)
    plan = facts.plan(round_index)
    first, second = (facts.played_entries(s, round_index) for s in (plan.first_declarer, plan.first_declarer.other))
    if first is None or second is None:
        raise RuleViolation("TEAM-LINEUP-2", f"Both teams must declare round {round_index} first.")
    return tuple(
        ()
        if plan.kind is RoundKind.SINGLES and not (ours and theirs)
        else play_order(plan.first_declarer, ours, theirs)
        for ours, theirs in zip(first, second, strict=True)
    )


def games_for_machine_capacity(max_players: int, order: Sequence[Seat]) -> tuple[tuple[Seat, ...], ...]:
    """TEAM-MACH-9, TEAM-AMB-23: the physical games one match game becomes on a machine for `max_players`.

    The seats, in play order, are cut into consecutive games of at most `max_players`. On a 4-player machine
    that is one game. On a 2-player machine a Doubles game becomes two 1-on-1 games (HOME vs AWAY each), and a
    short team's 1-vs-2 game becomes the solo player vs one pair member plus a 1-player game for the other.
    On a 1-player machine everyone plays alone, alternating teams. Results are tallied by the scoring rules.
    """
    if max_players not in MACHINE_CAPACITIES:
        raise ValueError(f"max_players must be 1, 2 or 4 (COMMON-MACH-2), not {max_players}")
    return tuple(tuple(order[i : i + max_players]) for i in range(0, len(order), max_players))


# --- Who is left to play --------------------------------------------------------------------------------


def eligible_players(
    night: MatchNight, side: Side, round_index: int, *, now: datetime, options: TeamOptions
) -> tuple[RosterEntry, ...]:
    """For autocomplete: rostered, checked-in players not yet in this round, starters who still have to play
    first (TEAM-LINEUP-5, 7, 9). The submission is validated again."""
    facts = _Facts(night, options, now)
    facts.plan(round_index)
    in_round = {p for game in facts.played_entries(side, round_index) or () for p in game}
    needing = facts.present_starters(side) - facts.played(side, except_round=round_index)
    candidates = [e for e in night.rosters[side] if e.player_id in facts.present(side) - in_round]
    return tuple(sorted(candidates, key=lambda e: (e.player_id not in needing, e.name)))


def legal_machines(night: MatchNight, round_index: int, *, options: TeamOptions) -> tuple[Machine, ...]:
    """For autocomplete: machines still in the match, without the two games already on them this round when
    there is a choice (TEAM-MACH-1, 3). The submission is validated again."""
    facts = _Facts(night, options)
    plan = facts.plan(round_index)
    available = _available_machines(facts.night)
    if len(available) <= 1:
        return available
    uses = Counter(facts.machine_of(round_index, g) for g in range(1, plan.games + 1))
    return tuple(m for m in available if uses[m.machine_id] < MAX_GAMES_PER_MACHINE)


def unplayed_starters(night: MatchNight, side: Side, *, now: datetime, options: TeamOptions) -> tuple[PlayerId, ...]:
    """TEAM-AMB-12: starters who checked in but never played in a counting slot, to record as excused once the
    last round is declared (the validator only let this happen when no slot was left for them)."""
    facts = _Facts(night, options, now)
    played = facts.played(side)
    came = {v.player_id for v in night.visits if v.side is side}
    return tuple(e.player_id for e in night.rosters[side] if e.role.is_starter and e.player_id in came - played)


@dataclass(frozen=True)
class AbandonedSlot:
    round_index: int
    game_number: int
    side: Side
    player_id: PlayerId


def abandoned_slots(night: MatchNight, *, now: datetime, options: TeamOptions) -> tuple[AbandonedSlot, ...]:
    """TEAM-AMB-20, TEAM-SCHED-5: a player who checked out after being written in, before that game finished,
    loses the slot: the scoring rules treat it as DQ (Singles: point to the opponent)."""
    facts = _Facts(night, options, now)
    present = {side: facts.present(side) for side in Side}
    slots: list[AbandonedSlot] = []
    for plan in facts.plans:
        entries = {side: facts.played_entries(side, plan.index) or () for side in Side}
        for number in range(1, plan.games + 1):
            game = {side: entries[side][number - 1] if entries[side] else () for side in Side}
            if facts.progress(plan.index, number).status is GameStatus.DONE or not all(game.values()):
                continue  # finished, or not declared, or a forfeited Singles game with nothing to play
            slots += [AbandonedSlot(plan.index, number, s, p) for s in Side for p in game[s] if p not in present[s]]
    return tuple(slots)


# --- Tie-breaker game -----------------------------------------------------------------------------------


class TieBreakFormat(StrEnum):
    SHARED_GAME = "shared_game"  # 3 players a team, one ball each
    SPLIT_FLIPPER = "split_flipper"  # 2 players a team, one flipper each


TIEBREAK_PLAYERS = {TieBreakFormat.SHARED_GAME: 3, TieBreakFormat.SPLIT_FLIPPER: 2}
_TIEBREAK_LABEL = {TieBreakFormat.SHARED_GAME: "Shared game", TieBreakFormat.SPLIT_FLIPPER: "Split flipper"}


@dataclass(frozen=True)
class TieBreak:
    """The tie-breaker's two decisions and the two lineups (AWAY is Player 1, HOME Player 2)."""

    deferred_to_away: bool = False
    game_format: TieBreakFormat | None = None
    format_by: Side | None = None
    machine: MachineId | None = None
    machine_by: Side | None = None
    lineups: Mapping[Side, tuple[PlayerId, ...]] = field(default_factory=dict)

    @property
    def first_chooser(self) -> Side:
        return Side.AWAY if self.deferred_to_away else Side.HOME


def defer_tiebreak_choice(tiebreak: TieBreak, side: Side, *, night: MatchNight) -> TieBreak:
    """TEAM-TB-1: HOME may hand the first decision to AWAY, before anyone has chosen."""
    chosen = tiebreak.format_by is not None or tiebreak.machine_by is not None
    if side is not Side.HOME or chosen or tiebreak.deferred_to_away:
        raise RuleViolation(
            "TEAM-TB-1", f"Only {night.team_names[Side.HOME]}, before any choice, may defer the first decision."
        )
    return replace(tiebreak, deferred_to_away=True)


def choose_tiebreak(
    tiebreak: TieBreak,
    side: Side,
    *,
    night: MatchNight,
    game_format: TieBreakFormat | None = None,
    machine: MachineId | None = None,
) -> TieBreak:
    """TEAM-TB-1: the first chooser (HOME, or AWAY if HOME deferred) picks the format or the machine; the other
    team makes the remaining decision. No team makes both."""
    team, other = night.team_names[side], night.team_names[side.other]
    if (game_format is None) == (machine is None):
        raise RuleViolation("TEAM-TB-1", "Make one tie-breaker decision: the format or the machine.")
    if side in (tiebreak.format_by, tiebreak.machine_by):
        raise RuleViolation("TEAM-TB-1", f"{team} already made its tie-breaker decision; {other} makes the other.")
    nobody_chose = tiebreak.format_by is None and tiebreak.machine_by is None
    if nobody_chose and side is not tiebreak.first_chooser:
        raise RuleViolation(
            "TEAM-TB-1", f"{night.team_names[tiebreak.first_chooser]} makes the first tie-breaker decision."
        )
    if game_format is not None:
        if tiebreak.format_by is not None:
            raise RuleViolation("TEAM-TB-1", "The format is already chosen; choose the machine.")
        return replace(tiebreak, game_format=game_format, format_by=side)
    if tiebreak.machine_by is not None:
        raise RuleViolation("TEAM-TB-1", "The machine is already chosen; choose the format.")
    assert machine is not None  # exactly one of the two was given
    _check_machine_available(night, machine)
    return replace(tiebreak, machine=machine, machine_by=side)


def declare_tiebreak(
    tiebreak: TieBreak, side: Side, players: Sequence[PlayerId], *, night: MatchNight, now: datetime
) -> TieBreak:
    """TEAM-TB-2: after both decisions, AWAY declares, then HOME: 3 different present players in ball order
    for a shared game, 2 for split flipper."""
    if tiebreak.game_format is None or tiebreak.machine is None:
        raise RuleViolation("TEAM-TB-2", "Choose the tie-breaker format and machine before declaring players.")
    if side in tiebreak.lineups:
        raise RuleViolation("TEAM-TB-2", "Lineups are locked once declared.")
    if side is Side.HOME and Side.AWAY not in tiebreak.lineups:
        raise RuleViolation("TEAM-TB-2", f"Waiting for {night.team_names[Side.AWAY]} to declare first.")
    needed = TIEBREAK_PLAYERS[tiebreak.game_format]
    if len(players) != needed or len(set(players)) != needed:
        raise RuleViolation("TEAM-TB-2", f"{_TIEBREAK_LABEL[tiebreak.game_format]} needs {needed} different players.")
    present = present_players(night.visits, side, now)
    for player_id in players:
        if _roster_entry(night, side, player_id) is None:
            raise RuleViolation("TEAM-TB-2", f"{_player_name(night, player_id)} is not on the roster.")
        if player_id not in present:
            raise RuleViolation("TEAM-TB-2", f"{_player_name(night, player_id)} is not checked in.")
    return replace(tiebreak, lineups={**tiebreak.lineups, side: tuple(players)})
