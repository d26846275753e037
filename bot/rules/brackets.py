"""Elimination brackets for any format: single elimination, and double elimination with a grand final.

Entrants are seed numbers (1 is the best); each format maps seeds to its teams or players. A bracket is pure
structure: every match says where its two entrants come from (a seed, a bye, or the winner or loser of an
earlier match). Results are facts kept elsewhere, and `resolve` recomputes from them who plays whom. Byes are
real slots, so a renderer can draw them; they advance their opponent, and in double elimination they drop into
the losers' bracket like any loser, so byes go through both brackets (FIELD-FIN-7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import chain

from bot.rules.refusals import InvalidInput


class Part(StrEnum):
    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"


@dataclass(frozen=True)
class Seed:
    number: int


@dataclass(frozen=True)
class Bye:
    """An empty slot: its opponent advances without playing."""


BYE = Bye()


@dataclass(frozen=True)
class WinnerOf:
    match: str


@dataclass(frozen=True)
class LoserOf:
    match: str


Source = Seed | Bye | WinnerOf | LoserOf


@dataclass(frozen=True)
class BracketMatch:
    id: str  # "W1-1" = winners' round 1, first match from the top; "L2-1"; "GF"; "GF2"
    part: Part
    round: int
    top: Source  # in the first round the top line holds the higher seed
    bottom: Source
    reset_of: str | None = None  # a grand-final reset: played only if the bottom entrant wins that match


@dataclass(frozen=True)
class Bracket:
    entrants: int
    size: int  # slots in the first round: the next power of two
    matches: tuple[BracketMatch, ...]  # every match comes after the matches that feed it


Entrant = int | Bye | None  # a seed, a bye, or None while not yet known


@dataclass(frozen=True)
class MatchState:
    match: BracketMatch
    top: Entrant
    bottom: Entrant
    winner: Entrant
    loser: Entrant
    skipped: bool = False  # a reset that is not needed

    @property
    def ready(self) -> bool:
        """Both entrants are real seeds and no result is in yet."""
        return isinstance(self.top, int) and isinstance(self.bottom, int) and self.winner is None


@dataclass(frozen=True)
class BracketState:
    matches: tuple[MatchState, ...]

    def ready(self) -> tuple[MatchState, ...]:
        return tuple(state for state in self.matches if state.ready)

    @property
    def champion(self) -> int | None:
        deciding = next(state for state in reversed(self.matches) if not state.skipped)
        return deciding.winner if isinstance(deciding.winner, int) else None


def single_elimination(entrants: int) -> Bracket:
    """Single elimination with byes to the top seeds; 1 and 2 can only meet in the final."""
    rounds = _winners_rounds(entrants)
    return Bracket(entrants, 2 ** len(rounds), tuple(chain.from_iterable(rounds)))


def double_elimination(entrants: int, *, grand_final_reset: bool = True, slots: int = 2) -> Bracket:
    """Double elimination: losers drop into a losers' bracket, and a second loss eliminates (FIELD-FIN-7).

    The winners'-bracket champion meets the losers'-bracket champion in the grand final. With
    `grand_final_reset` (FIELD-AMB-8 default) a win by the losers'-bracket champion forces a second final.
    `slots` sets a minimum bracket size (a power of two), filled with byes for the top seeds (FIELD-FIN-3).
    """
    winners = _winners_rounds(entrants, slots)
    losers = _losers_rounds(winners)
    lb_champion: Source = WinnerOf(losers[-1][0].id) if losers else LoserOf(winners[-1][0].id)
    finals = [BracketMatch("GF", Part.GRAND_FINAL, 1, WinnerOf(winners[-1][0].id), lb_champion)]
    if grand_final_reset:
        finals.append(BracketMatch("GF2", Part.GRAND_FINAL, 2, LoserOf("GF"), WinnerOf("GF"), reset_of="GF"))
    return Bracket(entrants, 2 ** len(winners), (*chain.from_iterable(winners), *chain.from_iterable(losers), *finals))


def seed_lines(size: int) -> list[int]:
    """Seeds in first-round line order for a bracket of `size` slots (a power of two).

    Each seed s of a bracket half the size is paired with size+1-s, the standard seeding. Inner levels put the
    new seed above every seed but 1, and the first round lists the higher seed first, which reproduces the
    printed order 1-16, 8-9, 5-12, 4-13, 6-11, 3-14, 7-10, 2-15 (FIELD-FIN-3).
    """
    lines = [1]
    while len(lines) < size:
        n = 2 * len(lines)
        first_round = n == size
        lines = [seed for s in lines for seed in ((s, n + 1 - s) if first_round or s == 1 else (n + 1 - s, s))]
    return lines


def resolve(bracket: Bracket, winners: Mapping[str, int]) -> BracketState:
    """Who plays in each match, given the winners (seed numbers) entered so far."""
    if unknown := sorted(set(winners) - {match.id for match in bracket.matches}):
        raise InvalidInput(f"No match {unknown[0]} in this bracket.")
    states: dict[str, MatchState] = {}
    for match in bracket.matches:
        states[match.id] = _match_state(match, states, winners.get(match.id))
    return BracketState(tuple(states.values()))


def _winners_rounds(entrants: int, slots: int = 2) -> list[list[BracketMatch]]:
    if entrants < 2:
        raise ValueError("a bracket needs at least 2 entrants")
    size = max(1 << (entrants - 1).bit_length(), slots)
    lines: list[Source] = [Seed(s) if s <= entrants else BYE for s in seed_lines(size)]
    rounds = [_pair_up(lines, Part.WINNERS, 1)]
    while len(rounds[-1]) > 1:
        rounds.append(_pair_up([WinnerOf(m.id) for m in rounds[-1]], Part.WINNERS, len(rounds) + 1))
    return rounds


def _losers_rounds(winners: list[list[BracketMatch]]) -> list[list[BracketMatch]]:
    """Losers' bracket: pair the first-round losers, then alternately take in the losers of the next winners'
    round and halve. Every other intake is reversed so that players who just met are sent apart."""
    if len(winners) < 2:
        return []
    rounds = [_pair_up([LoserOf(m.id) for m in winners[0]], Part.LOSERS, 1)]
    for intake_number, winners_round in enumerate(winners[1:], start=1):
        dropped: list[Source] = [LoserOf(m.id) for m in winners_round]
        if intake_number % 2:
            dropped.reverse()
        survivors: list[Source] = [WinnerOf(m.id) for m in rounds[-1]]
        lines: list[Source] = list(chain.from_iterable(zip(dropped, survivors, strict=True)))
        rounds.append(_pair_up(lines, Part.LOSERS, len(rounds) + 1))
        if len(rounds[-1]) > 1:
            rounds.append(_pair_up([WinnerOf(m.id) for m in rounds[-1]], Part.LOSERS, len(rounds) + 1))
    return rounds


def _pair_up(lines: list[Source], part: Part, round_number: int) -> list[BracketMatch]:
    prefix = "W" if part is Part.WINNERS else "L"
    return [
        BracketMatch(f"{prefix}{round_number}-{i // 2 + 1}", part, round_number, lines[i], lines[i + 1])
        for i in range(0, len(lines), 2)
    ]


def _match_state(match: BracketMatch, done: Mapping[str, MatchState], result: int | None) -> MatchState:
    if match.reset_of is not None and _reset_not_needed(done[match.reset_of]):
        if result is not None:
            raise InvalidInput(f"Match {match.id} is not needed: the first final was won by the top entrant.")
        return MatchState(match, None, None, None, None, skipped=True)
    top, bottom = _entrant(match.top, done), _entrant(match.bottom, done)
    if isinstance(top, Bye) or isinstance(bottom, Bye):
        if result is not None:
            raise InvalidInput(f"Match {match.id} is a bye and takes no result.")
        winner = bottom if isinstance(top, Bye) else top
        return MatchState(match, top, bottom, winner, BYE if winner is not None else None)
    if result is None:
        return MatchState(match, top, bottom, None, None)
    if top is None or bottom is None:
        raise InvalidInput(f"Match {match.id} cannot have a result before both entrants are known.")
    if result not in (top, bottom):
        raise InvalidInput(f"Seed {result} is not playing in match {match.id}.")
    return MatchState(match, top, bottom, result, bottom if result == top else top)


def _reset_not_needed(first_final: MatchState) -> bool:
    return first_final.winner is not None and first_final.winner == first_final.top


def _entrant(source: Source, done: Mapping[str, MatchState]) -> Entrant:
    match source:
        case Seed(number):
            return number
        case Bye():
            return BYE
        case WinnerOf(match_id):
            return done[match_id].winner
        case LoserOf(match_id):
            return done[match_id].loser
    raise AssertionError(source)
