"""/help: what a member can do in a league, given their part in it, and what is due for them now (DESIGN.md §2c).

This module finds the league and whether the member is one of its officials (COMMON-ROLE-1); the league's format
(`bot.formats.Guide`) reads the member's part and what is due from its own facts, and gives its overview.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot import formats
from bot.clock import Clock
from bot.formats import Guide
from bot.services.actor import Actor
from bot.services.lookup import find_league, league_names
from bot.services.permissions import is_commissioner
from storage.db import Database


class Role(StrEnum):
    """A member's part in a league; an official may also play (`LeagueHelp.official`)."""

    OFFICIAL = "official"
    CAPTAIN = "captain"
    PLAYER = "player"
    NEWCOMER = "newcomer"  # not in the league (or this season) yet


@dataclass(frozen=True)
class Due:
    """One thing for the member to do now, or to know they are waiting on, and the command or button for it."""

    what: str
    how: str


@dataclass(frozen=True)
class Asker:
    """Who asks, as the formats' readers need it."""

    user_id: int
    official: bool


@dataclass(frozen=True)
class Situation:
    """The member's part in the league (`described`: e.g. "captain of Flipper Kings") and what is due for them."""

    role: Role
    described: str
    due: tuple[Due, ...]
    night: str | None = None  # "How a night goes" with this league's own settings; None: the format's `Guide.night`


@dataclass(frozen=True)
class LeagueHelp:
    league: str
    official: bool
    situation: Situation
    guide: Guide


class HelpService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def for_member(self, actor: Actor, league_name: str | None) -> LeagueHelp | None:
        """The member's help in the named league (or the server's only one); None when the server has no league."""
        now = self.clock.now()
        async with self.db.reading() as session:
            if not league_name and not await league_names(session, actor.guild_id):
                return None
            league = await find_league(session, actor.guild_id, league_name)
            guide = formats.of(league).guide
            official = is_commissioner(actor, league)
            situation = await guide.situation(session, league, Asker(actor.user_id, official), now)
        return LeagueHelp(league.name, official, situation, guide)
