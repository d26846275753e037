"""High scores of the team format (TEAM-HS-1..4, TEAM-AMB-16, TEAM-CFG-1, COMMON-HS-1).

One record per (conference, model), carried over from season to season: the table is computed from every
qualifying score of every season, so a correction anywhere recomputes it. Models are variant-specific by
default; `hs_merge_variants` keys records by model family instead (TEAM-AMB-16).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team.attendance import AttendanceStatus
from bot.rules.team.model import MatchId, PlayerId, ScoreStatus, Side
from bot.rules.team.options import TeamOptions

ModelId = int


class GameSource(StrEnum):
    MATCH_GAME = "match_game"  # any league match: regular, tie-breaker match or playoff
    FORFEIT_EVENING = "forfeit_evening"  # games played on a forfeit evening count (TEAM-HS-3)
    TIEBREAKER_GAME = "tiebreaker_game"  # one score per team, never an individual high score (TEAM-HS-4)
    WARM_UP = "warm_up"
    PRACTICE = "practice"
    OFF_NIGHT = "off_night"


COUNTING_SOURCES = frozenset({GameSource.MATCH_GAME, GameSource.FORFEIT_EVENING})
COUNTING_STATUSES = frozenset({ScoreStatus.NORMAL, ScoreStatus.REPLAY_REPLACES})


@dataclass(frozen=True)
class ScoreEntry:
    """One player's score on one game, taken from a match or claimed by a captain with the result."""

    player: PlayerId
    conference: str
    model: ModelId
    model_family: str
    score: int
    date: date
    source: GameSource
    match: MatchId | None = None
    status: ScoreStatus = ScoreStatus.NORMAL
    verified: bool = False


def forfeit_evening_side(attendance: Mapping[Side, AttendanceStatus]) -> Side:
    """TEAM-FORF-2: only a match one team forfeited has a forfeit evening; the other team plays it."""
    forfeiting = [side for side, status in attendance.items() if status is AttendanceStatus.FORFEIT]
    if len(forfeiting) != 1:
        raise RuleViolation(
            "TEAM-FORF-2",
            "Forfeit-evening games are for a match one team forfeited at the start window; "
            "enter this match's games with `/score`.",
        )
    return forfeiting[0].other


def check_forfeit_evening_game(
    players: Sequence[PlayerId], *, present: Collection[PlayerId], names: Mapping[PlayerId, str], machine_players: int
) -> None:
    """TEAM-FORF-2, TEAM-HS-3: a game the attending team plays on a forfeit evening counts for high scores, so
    it names players who are here that evening, each once, and no more than the machine takes at once."""
    if not players:
        raise InvalidInput("Name at least one player (p1) and their score (s1).")
    if len(set(players)) != len(players):
        raise InvalidInput("Name each player once per game.")
    absent = [names.get(p, f"Player #{p}") for p in players if p not in present]
    if absent:
        raise RuleViolation(
            "TEAM-FORF-2",
            f"Not checked in tonight: {', '.join(absent)}. Only players who came play the evening; "
            "check them in first.",
        )
    if len(players) > machine_players:
        raise InvalidInput(f"That machine takes {machine_players} players at once; name at most {machine_players}.")


@dataclass(frozen=True)
class HighScoreKey:
    conference: str
    model_family: str
    model: ModelId | None  # None when variants are merged


@dataclass(frozen=True)
class HighScore:
    key: HighScoreKey
    entry: ScoreEntry


def high_score_table(entries: Iterable[ScoreEntry], options: TeamOptions) -> list[HighScore]:
    """TEAM-HS-1: the best qualifying score per (conference, model), sorted by conference and model. COMMON-HS-1: the
    table is keyed by (scope, model), each entry keeping its player, score, date and the match it came from.

    Only match games and forfeit-evening games count, and DQ, forfeited and void scores never do
    (TEAM-HS-2..4). On equal scores the earlier one holds the record.
    """
    best: dict[HighScoreKey, ScoreEntry] = {}
    for entry in entries:
        if entry.source not in COUNTING_SOURCES or entry.status not in COUNTING_STATUSES:
            continue
        key = HighScoreKey(entry.conference, entry.model_family, None if options.hs_merge_variants else entry.model)
        holder = best.get(key)
        if holder is None or _standing(entry) > _standing(holder):
            best[key] = entry
    return [
        HighScore(key, best[key])
        for key in sorted(best, key=lambda k: (k.conference, k.model_family, k.model if k.model is not None else -1))
    ]


def _standing(entry: ScoreEntry) -> tuple[int, int, int, int, int, str, str, bool]:
    """Higher score first, then the earlier date; the rest only makes the choice between otherwise equal
    entries independent of their order (one game can be stored as played and as the replay replacing it)."""
    return (
        entry.score,
        -entry.date.toordinal(),
        -entry.player,
        -(entry.match or 0),
        -entry.model,
        entry.status.value,
        entry.source.value,
        entry.verified,
    )
