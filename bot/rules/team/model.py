"""Words every part of the team-format rules shares. Plain values only: ids are the database's ints."""

from __future__ import annotations

from enum import StrEnum

PlayerId = int
TeamId = int
MachineId = int
MatchId = int


class Side(StrEnum):
    HOME = "home"
    AWAY = "away"

    @property
    def other(self) -> Side:
        return Side.AWAY if self is Side.HOME else Side.HOME


class RoundKind(StrEnum):
    DOUBLES = "doubles"  # 2 games x 2 players per team, 2 points a game (TEAM-LINEUP-1)
    SINGLES = "singles"  # 4 games x 1 player per team, 1 point a game


class RosterRole(StrEnum):
    CAPTAIN = "captain"  # always also a starter (TEAM-ROSTER-2)
    STARTER = "starter"
    RESERVE = "reserve"

    @property
    def is_starter(self) -> bool:
        return self is not RosterRole.RESERVE


class ScoreStatus(StrEnum):
    """COMMON-SCORE-2 statuses the team format uses."""

    NORMAL = "normal"
    REPLAY_REPLACES = "replay_replaces"
    DQ = "dq"  # left out of team totals; in Singles the game goes to the opponent
    FORFEITED_GAME = "forfeited_game"
    VOID = "void"


class MatchOutcome(StrEnum):
    WIN = "win"
    LOSS = "loss"
