"""A group's games for the night and the order players go in (LADDER-GSEL-*, LADDER-ORDER-*).

A group plays the league's `games_per_match` games (five on the sheet, LADDER-CFG-1). Picks are made in passes,
worst-placed player first (LADDER-GSEL-3). With more working machines than that a pick is a game to leave out;
with fewer, a game to play twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil

from bot.rules.ladder.groups import seeding
from bot.rules.refusals import RuleViolation

PlayerId = int


@dataclass(frozen=True)
class Pick:
    player: PlayerId
    game: str


def picks_needed(working: Sequence[str], games: int) -> int:
    """LADDER-GSEL-2: games to leave out (P > 5) or to repeat (P < 5); none when P = 5. The sheet's 5 is the
    league's `games` per match (LADDER-CFG-1)."""
    return abs(len(working) - games) if len(working) != 1 else 0


def next_picker(pickers_worst_first: Sequence[PlayerId], picks: Sequence[Pick]) -> PlayerId:
    """LADDER-GSEL-3: pickers take turns worst-placed first, pass after pass (LADDER-AMB-14)."""
    return pickers_worst_first[len(picks) % len(pickers_worst_first)]


def check_pick(
    working: Sequence[str], pickers_worst_first: Sequence[PlayerId], picks: Sequence[Pick], pick: Pick
) -> None:
    """LADDER-GSEL-3: a working game, by the player whose turn it is (so one pick per player per pass)."""
    if pick.game not in working:
        choices = ", ".join(working)
        raise RuleViolation("LADDER-GSEL-3", f"{pick.game} is not in tonight's working set: pick one of {choices}.")
    if pick.player not in pickers_worst_first:
        raise RuleViolation("LADDER-GSEL-3", "Only the present players of this group pick its games.")
    expected = next_picker(pickers_worst_first, picks)
    if pick.player != expected:
        raise RuleViolation(
            "LADDER-GSEL-3", f"Not your turn: picks go worst-placed first, and <@{expected}> picks next."
        )


def _ranked_games(picks: Sequence[Pick]) -> list[str]:
    """LADDER-AMB-14: picked games by votes, then by the earliest pick (picks are worst-placed first)."""
    votes = Counter(p.game for p in picks)
    first_pick: dict[str, int] = {}
    for index, pick in enumerate(picks):
        first_pick.setdefault(pick.game, index)
    return sorted(votes, key=lambda game: (-votes[game], first_pick[game]))


def select_games(working: Sequence[str], picks: Sequence[Pick], pickers: int, games: int) -> list[str]:
    """LADDER-GSEL-2/3/4, LADDER-AMB-14: the group's `games` slots (LADDER-CFG-1) once every pass is complete.

    Raises LADDER-AMB-14 when the finished passes do not yet name enough different games.
    """
    needed = picks_needed(working, games)
    if len(working) == games or needed == 0:
        return list(working) * (games // len(working))
    if len(picks) % pickers:
        raise RuleViolation("LADDER-GSEL-3", "Every present player picks once in this pass before the games are set.")
    ranked = _ranked_games(picks)
    if len(working) > games:
        if len(ranked) < needed:
            raise RuleViolation("LADDER-AMB-14", _another_pass(needed - len(ranked)))
        excluded = set(ranked[:needed])
        return [game for game in working if game not in excluded]
    cap = ceil(games / len(working))  # LADDER-AMB-14: no game played more than ceil(games/P) times
    extra = Counter[str]()
    remaining = needed
    for game in ranked:
        take = min(cap - 1, remaining)
        extra[game] += take
        remaining -= take
    if remaining:
        raise RuleViolation("LADDER-AMB-14", _another_pass(ceil(remaining / (cap - 1))))
    return [slot for game in working for slot in [game] * (1 + extra[game])]


def commissioner_games(working: Sequence[str], named: Sequence[str], games: int) -> list[str]:
    """LADDER-CFG-2, LADDER-AMB-15: the commissioner's final decision on a group's games replaces its picks. The
    decision names the league's `games` per match (LADDER-GSEL-2), each from tonight's working set, in the order
    they are played; a game may be named twice."""
    by_name = {name.casefold(): name for name in working}
    unknown = [name for name in named if name.casefold() not in by_name]
    if unknown or len(named) != games:
        raise RuleViolation(
            "LADDER-GSEL-2",
            f"Name {games} games from tonight's working set, separated by commas"
            + (f"; not working tonight: {', '.join(unknown)}." if unknown else "."),
        )
    return [by_name[name.casefold()] for name in named]


def _another_pass(missing: int) -> str:
    games = "game" if missing == 1 else "games"
    return f"{missing} more {games} must be named: another pass of picks starts from the lowest-ranked player."


# --- Play order (LADDER-ORDER-*) -----------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """What LADDER-ORDER-3 ranks on: TLP, then ANS; before any result, skill, then commissioner order."""

    player: PlayerId
    tlp: int = 0
    ans: Fraction = Fraction(0)
    skill: int = 0
    commissioner_order: int = 0
    seed: int | None = None  # last season's finishing place (`groups.first_week_groups`)


def league_ranks(standings: Sequence[Standing]) -> dict[PlayerId, int]:
    """LADDER-ORDER-3, LADDER-AMB-16: 1 = best. Week 1 (all TLP 0) falls through to last season's finishing
    order, then skill."""
    ordered = sorted(standings, key=lambda s: (-s.tlp, -s.ans, *seeding(s.seed), -s.skill, s.commissioner_order))
    return {s.player: index for index, s in enumerate(ordered, start=1)}


def first_game_order(group_ranks: dict[PlayerId, int]) -> list[PlayerId]:
    """LADDER-ORDER-1: worst-placed plays first, so #1 plays last.

    LADDER-TV-25: ranks #4, #9, #2 play #9, #4, #2; #1, #5, #6, #8 play #8, #6, #5, #1; #3, #7 play #7, #3."""
    return sorted(group_ranks, key=lambda player: -group_ranks[player])


def next_game_order(previous_finish: Sequence[PlayerId]) -> list[PlayerId]:
    """LADDER-ORDER-2, LADDER-AMB-30: reverse finishing order of the previous game; its winner plays last.

    With `choose_position` this is the order in which players choose their position instead.

    LADDER-TV-25: game 1 finished #9, #2, #4, so game 2 is played #4, #2, #9.
    """
    return list(reversed(previous_finish))
