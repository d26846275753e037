"""Finals: eligibility, seeding, the double-elimination bracket, best-of-three picks, payouts and the IFPA
export (FIELD-FIN-*, FIELD-STAND-2, FIELD-PAY-2, FIELD-IFPA-*, FIELD-AMB-4/5/8/9/10/15)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from bot.rules.brackets import Bracket, BracketState, Part, double_elimination
from bot.rules.field.options import FieldOptions
from bot.rules.field.scoring import MachineId, PlayerId
from bot.rules.field.standings import SeasonRow
from bot.rules.money import split_in_cents
from bot.rules.refusals import InvalidInput, RuleViolation


def check_finals_entry(row: SeasonRow | None, *, present: bool, paid: bool, options: FieldOptions) -> None:
    """FIELD-FIN-1: enough weeks played, checked in at the finals, and the entry fee paid."""
    minimum = options.b_division_min_weeks if options.ab_divisions else options.finals_min_weeks
    if row is None or row.weeks_played < minimum:
        played = 0 if row is None else row.weeks_played
        raise RuleViolation(
            "FIELD-FIN-1", f"Finals need {minimum} weeks played (half the season); this player played {played}."
        )
    if not present:
        raise RuleViolation("FIELD-FIN-1", "Check in at the finals first.")
    if not paid:
        raise RuleViolation("FIELD-FIN-1", "The finals entry fee is not paid: no dough, no show.")


@dataclass(frozen=True)
class Seeding:
    seeds: tuple[PlayerId, ...]  # seed 1 first; all divisions in one list with `ab_divisions`
    open_ties: tuple[frozenset[PlayerId], ...]  # FIELD-STAND-2: tie-breaker games still to play
    a_division: int  # how many of the seeds are in the A bracket (all without `ab_divisions`)


def seed_finals(
    table: Sequence[SeasonRow],
    entrants: Collection[PlayerId],
    options: FieldOptions,
    tiebreaks: Mapping[frozenset[PlayerId], Sequence[PlayerId]] | None = None,
) -> Seeding:
    """FIELD-FIN-2 / FIELD-AMB-7: seeds from the season totals after drops (the table's order, not the raw
    totals), among the entrants who showed up and paid.
    Equal totals among entrants are ordered by their tie-breaker game (FIELD-STAND-2); ties among players
    who did not show up need none (FIELD-AMB-10). Until played, the tie is listed and the order is provisional.
    """
    tiebreaks = tiebreaks or {}
    finalists = [row for row in table if row.player in entrants]
    groups: dict[tuple[object, ...], list[PlayerId]] = {}
    for row in finalists:
        groups.setdefault((row.total, row.tiebreak), []).append(row.player)
    seeds: list[PlayerId] = []
    open_ties = []
    for players in groups.values():
        if len(players) > 1:
            key = frozenset(players)
            if key in tiebreaks:
                players = list(tiebreaks[key])
            else:
                open_ties.append(key)
        seeds.extend(players)
    a_size = min(options.a_division_size, len(seeds)) if options.ab_divisions else len(seeds)
    return Seeding(tuple(seeds), tuple(open_ties), a_size)


def draw_tiebreak_machine(finals_machines: Collection[MachineId], seed: int) -> MachineId:
    """FIELD-STAND-2: a random finals-eligible machine; the seed is logged so the draw can be checked."""
    if not finals_machines:
        raise RuleViolation("FIELD-STAND-2", "No finals-eligible machine to draw a tie-breaker from.")
    return random.Random(seed).choice(sorted(finals_machines, key=str))


def finals_brackets(seeding: Seeding, options: FieldOptions) -> list[Bracket]:
    """FIELD-FIN-3: one 16-slot double-elimination bracket, byes to the top seeds (32 with more than 16).
    With `ab_divisions` (FIELD-AMB-4): A = the top 8, B = everyone else padded to a power of two."""
    count = len(seeding.seeds)
    if count < 2:
        raise RuleViolation("FIELD-FIN-3", "Finals need at least two players.")
    reset = options.grand_final_reset
    if not options.ab_divisions:
        return [double_elimination(count, grand_final_reset=reset, slots=options.bracket_slots)]
    brackets = [double_elimination(seeding.a_division, grand_final_reset=reset)]
    if count - seeding.a_division >= 2:
        brackets.append(double_elimination(count - seeding.a_division, grand_final_reset=reset))
    return brackets


class PickKind(StrEnum):
    MACHINE = "machine"
    ORDER = "order"


@dataclass(frozen=True)
class Pick:
    seed: int
    kind: PickKind
    machine: MachineId | None = None
    plays_first: bool | None = None


@dataclass(frozen=True)
class FinalsGame:
    """One game of a best-of-three pairing (FIELD-FIN-4/5)."""

    number: int
    picks: tuple[Pick, ...] = ()
    winner: int | None = None

    @property
    def machine(self) -> MachineId | None:
        return next((p.machine for p in self.picks if p.kind is PickKind.MACHINE), None)


def first_chooser(game_number: int, higher: int, lower: int) -> int:
    """FIELD-FIN-5 / FIELD-AMB-9: the higher seed (lower number) chooses first in games 1 and 3, the lower
    seed in game 2."""
    return lower if game_number == 2 else higher


def check_pick(
    games: Sequence[FinalsGame],
    pick: Pick,
    pairing: tuple[int, int],
    *,
    finals_machines: Collection[MachineId],
    queued: Collection[MachineId],
    name: Mapping[MachineId, str],
) -> None:
    """FIELD-FIN-5/6: who picks what in the current game, and which machines may be picked."""
    higher, lower = sorted(pairing)
    if pick.seed not in pairing:
        raise InvalidInput(f"Seed {pick.seed} is not in this pairing.")
    if pairing_winner(games, pairing) is not None:
        raise RuleViolation("FIELD-FIN-4", "This pairing is decided: best two of three.")
    current = games[-1] if games and games[-1].winner is None else FinalsGame(len(games) + 1)
    if not current.picks:
        chooser = first_chooser(current.number, higher, lower)
        if pick.seed != chooser:
            raise RuleViolation("FIELD-FIN-5", f"Seed {chooser} chooses first in game {current.number}.")
    else:
        first = current.picks[0]
        if len(current.picks) > 1 or pick.seed == first.seed or pick.kind is first.kind:
            other = PickKind.ORDER if first.kind is PickKind.MACHINE else PickKind.MACHINE
            raise RuleViolation("FIELD-FIN-5", f"Opponent picks the {other} this game.")
    if pick.kind is PickKind.MACHINE:
        machine = pick.machine
        if machine is None:
            raise InvalidInput("Name the machine.")
        label = name.get(machine, str(machine))
        if any(game.machine == machine for game in games):
            raise RuleViolation("FIELD-FIN-6", f"{label} already used in this match-up")
        if machine in queued:
            raise RuleViolation("FIELD-FIN-6", f"{label} has a queue; choose another")
        if machine not in finals_machines:
            raise RuleViolation("FIELD-FIN-6", f"{label} is not a finals machine; choose another")
    elif pick.plays_first is None:
        raise InvalidInput("Say whether you play first or second.")


def pairing_winner(games: Sequence[FinalsGame], pairing: tuple[int, int]) -> int | None:
    """FIELD-FIN-4: the first to two wins."""
    for seed in pairing:
        if sum(1 for game in games if game.winner == seed) >= 2:
            return seed
    return None


def check_game_result(games: Sequence[FinalsGame], pairing: tuple[int, int], winner: int) -> None:
    if winner not in pairing:
        raise InvalidInput(f"Seed {winner} is not in this pairing.")
    if pairing_winner(games, pairing) is not None:
        raise RuleViolation("FIELD-FIN-4", "This pairing is decided: best two of three.")
    current = games[-1] if games else None
    if current is None or current.winner is not None or len(current.picks) < 2:
        raise RuleViolation("FIELD-FIN-5", "Both players pick (machine and order) before the game is played.")


@dataclass(frozen=True)
class Payout:
    pool_cents: int
    shares_cents: tuple[int, ...]  # 1st, 2nd …
    flagged: bool  # FIELD-PAY-2: a negative pool; plaques only, no cash


def finals_payouts(paid_entrants: int, options: FieldOptions) -> Payout:
    """FIELD-PAY-2: entry fees minus plaques, 70/30; shares floored in cents, leftover cents to 1st then 2nd
    (COMMON-AMB-2, FIELD-AMB-15)."""
    pool = options.finals_fee_cents * paid_entrants - options.plaque_cost_cents
    if pool < 0:
        return Payout(pool, tuple(0 for _ in options.payout_percents), flagged=True)
    return Payout(pool, tuple(split_in_cents(pool, options.payout_percents)), flagged=False)


def finishing_positions(bracket: Bracket, state: BracketState) -> dict[int, int]:
    """FIELD-IFPA-2: finishing position of every real seed once the bracket has a champion. Players knocked
    out in the same losers'-bracket round share a band; a position counts only real players above, so
    bands emptied by byes are skipped."""
    champion = state.champion
    if champion is None:
        raise RuleViolation("FIELD-IFPA-2", "The finals have no champion yet.")
    reached: dict[int, int] = {}  # seed → how far they got
    for match_state in state.matches:
        match = match_state.match
        loser = match_state.loser
        if not isinstance(loser, int):
            continue
        if match.part is Part.LOSERS:
            reached[loser] = match.round
        elif match.part is Part.GRAND_FINAL:
            reached[loser] = 1000
    reached[champion] = 2000
    reached = {seed: value for seed, value in reached.items() if seed <= bracket.entrants}
    return {seed: 1 + sum(1 for other in reached.values() if other > value) for seed, value in reached.items()}


@dataclass(frozen=True)
class IfpaRow:
    position: int
    player: PlayerId
    finalist: bool


def ifpa_rows(finals_positions: Mapping[PlayerId, int], table: Sequence[SeasonRow]) -> list[IfpaRow]:
    """FIELD-IFPA-1: finalists in finishing order (tied bands share a position), then the other members in
    league order after drops (ties stay tied). Guests and wiped seasons are not in `table` (FIELD-AMB-11).
    FIELD-TV-19: 11 finalists, then league rank 6 (not at the finals) and a 2-week player → 1 … 9, 9, 9, 12, 13."""
    rows = [IfpaRow(pos, p, True) for p, pos in sorted(finals_positions.items(), key=lambda kv: (kv[1], str(kv[0])))]
    others = [row for row in table if row.player not in finals_positions]
    offset = len(rows)
    for row in others:
        above = sum(1 for other in others if other.rank < row.rank)
        rows.append(IfpaRow(offset + 1 + above, row.player, False))
    return rows


DRAIN_EXTRA_BALLS = "Extra balls are drained on every machine: one plunge, then the opponent hard-plunges."


def pairing_notes(options: FieldOptions) -> list[str]:
    """FIELD-FIN-8: the machine-specific finals settings shown with each pairing."""
    return [DRAIN_EXTRA_BALLS, *options.finals_notes]


def check_finals_date(on: date, stated_weekday: str | None = None) -> None:
    """FIELD-FIN-9 / FIELD-AMB-6: the finals date is entered each season, and a weekday given with it must
    match the date (the sheet's "Tuesday 5/23" fits 2017, not 2018)."""
    if stated_weekday is not None and on.strftime("%A").lower() != stated_weekday.strip().lower():
        raise RuleViolation("FIELD-AMB-6", f"{on:%d %b %Y} is a {on:%A}, not a {stated_weekday}: check the date.")
