"""One group's league night from its game slots and scores to points, bonus, TNS and finish.

The caller says, per slot and player, the score played or that the slot was missed. Missed slots are
resolved in play order against the player's premakeup registry (LADDER-PMU-6, LADDER-GHOST-1/3), then every
game is scored (LADDER-SCORE-*), and the night ranked with its match bonus (LADDER-BONUS-*).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from bot.rules.ladder.groups import Finisher, NightPresence
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.premakeup import MachinePremakeups, SeasonUsage, resolve_missed_game
from bot.rules.ladder.scoring import (
    EntryKind,
    GameEntry,
    GameResult,
    MatchResult,
    NightLine,
    TieNeedsPlayoff,
    game_points,
    match_bonus,
    week_tns,
)

PlayerId = int


@dataclass(frozen=True)
class GameSlot:
    machine: str
    normalizer: int


@dataclass(frozen=True)
class Absentee:
    """A player's premakeup state going into the night (LADDER-PMU-9)."""

    premakeups: Mapping[str, MachinePremakeups] = field(default_factory=dict)
    usage: SeasonUsage = field(default_factory=SeasonUsage)


@dataclass(frozen=True)
class GroupNight:
    slots: Sequence[GameSlot]
    ranks: Mapping[PlayerId, int]  # the group's players and their league ranks
    played: Mapping[tuple[int, PlayerId], int]  # (slot index, player) → raw score played
    absentees: Mapping[PlayerId, Absentee] = field(default_factory=dict)
    playoff_orders: Mapping[int, Sequence[PlayerId]] = field(default_factory=dict)  # LADDER-AMB-5


@dataclass(frozen=True)
class ScoredNight:
    entries: tuple[tuple[GameEntry, ...], ...]  # per slot (LADDER-GHOST-6)
    games: tuple[GameResult | TieNeedsPlayoff, ...]
    game_points: Mapping[PlayerId, int]
    tns: Mapping[PlayerId, Fraction]
    presence: Mapping[PlayerId, NightPresence]
    match: MatchResult | None  # None while a game waits for its playoff (LADDER-AMB-5)
    premakeups: Mapping[PlayerId, Mapping[str, MachinePremakeups]]
    usage: Mapping[PlayerId, SeasonUsage]

    @property
    def finish(self) -> list[Finisher]:
        """The night's finishing order for movement (LADDER-GROUP-3..6)."""
        assert self.match is not None
        return [Finisher(p, self.presence[p], self.game_points[p]) for p in self.match.order]

    @property
    def pending(self) -> list[int]:
        """Slots whose points wait for a one-ball playoff (LADDER-AMB-5)."""
        return [i for i, g in enumerate(self.games) if isinstance(g, TieNeedsPlayoff)]


def score_group_night(night: GroupNight, options: LadderOptions) -> ScoredNight:
    premakeups = {p: dict(a.premakeups) for p, a in night.absentees.items()}
    usage = {p: a.usage for p, a in night.absentees.items()}
    entries: list[tuple[GameEntry, ...]] = []
    official: dict[PlayerId, list[tuple[int, int]]] = {p: [] for p in night.ranks}  # (score, normalizer)
    played_any = {p: False for p in night.ranks}
    used_premakeup = {p: False for p in night.ranks}
    for index, slot in enumerate(night.slots):
        slot_entries = []
        for player, rank in night.ranks.items():
            score = night.played.get((index, player))
            if score is not None:
                entry = GameEntry(player, EntryKind.PLAYED, score, rank)
                played_any[player] = True
            else:
                missed = resolve_missed_game(
                    premakeups.get(player, {}).get(slot.machine),
                    usage.get(player, SeasonUsage()),
                    normalizer=slot.normalizer,
                    options=options,
                )
                if missed.premakeups is not None:
                    premakeups.setdefault(player, {})[slot.machine] = missed.premakeups
                usage[player] = missed.usage
                entry = GameEntry(player, missed.kind, missed.placement, rank)
                used_premakeup[player] |= missed.kind is EntryKind.PREMAKEUP
            official[player].append((entry.official, slot.normalizer))
            slot_entries.append(entry)
        entries.append(tuple(slot_entries))
    games = tuple(
        game_points(e, normalizer=s.normalizer, options=options, playoff_order=night.playoff_orders.get(i, ()))
        for i, (e, s) in enumerate(zip(entries, night.slots, strict=True))
    )
    tns = {p: week_tns(games_played) for p, games_played in official.items()}  # LADDER-NORM-2
    totals = {p: 0 for p in night.ranks}
    for game in games:
        if isinstance(game, GameResult):
            for player, points in game.points.items():
                totals[player] += points
    presence = {
        p: NightPresence.PRESENT
        if played_any[p]
        else NightPresence.PREMAKEUP
        if used_premakeup[p]
        else NightPresence.ABSENT
        for p in night.ranks
    }
    match = None
    if not any(isinstance(g, TieNeedsPlayoff) for g in games):
        lines = [
            NightLine(p, totals[p], tns[p], rank, absent_all_night=presence[p] is NightPresence.ABSENT)
            for p, rank in night.ranks.items()
        ]
        match = match_bonus(lines, options)
    return ScoredNight(tuple(entries), games, totals, tns, presence, match, premakeups, usage)
