"""Registering Discord members as players of a league (COMMON-PLAYER-1)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import select

from bot.clock import Clock
from bot.rules import setup as rules
from bot.rules.refusals import Conflict
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import find_league, insert_unique
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.models import League, Player, PlayerStatus


@dataclass(frozen=True)
class Member:
    """The Discord member being registered, as the cog read it from the command."""

    user_id: int
    display_name: str
    is_bot: bool = False


class PlayerService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def register(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        member: Member,
        ifpa_number: int | None,
        ifpa_rank: int | None,
    ) -> tuple[Player, League]:
        if member.is_bot:
            raise Conflict(f"{member.display_name} is a bot; only people can play. Pick a member.")
        display = rules.clean_name(member.display_name, option="member", max_length=rules.PLAYER_NAME_MAX).display
        number = rules.ifpa_number(ifpa_number)
        rank = rules.ifpa_rank(ifpa_rank)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "register players")
            assert league.id is not None
            in_league = select(Player).where(Player.league_id == league.id)
            existing = (await session.exec(in_league.where(Player.discord_user_id == member.user_id))).first()
            if existing is not None:
                raise Conflict(f"{existing.display_name} is already registered in {league.name}.")
            if number is not None:
                holder = (await session.exec(in_league.where(Player.ifpa_number == number))).first()
                if holder is not None:
                    raise Conflict(
                        f"IFPA #{number} already belongs to {holder.display_name} in {league.name}. Check the number."
                    )
            player = await insert_unique(
                session,
                Player(
                    league_id=league.id,
                    discord_user_id=member.user_id,
                    display_name=display,
                    ifpa_number=number,
                    ifpa_rank=rank,
                    status=PlayerStatus.ACTIVE,
                    registered_at=now,
                ),
                f"{display} was registered in {league.name} a moment ago by someone else.",
            )
            audit.created(session, actor, player, at=now)
        return player, league
