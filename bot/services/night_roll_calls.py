"""The roll call of a planned ladder or field night (COMMON-SEASON-1): the night-day post's In / Maybe / Out
buttons. Answers are stored per (planned night, player), the latest replacing the earlier one; the format says
who may answer and what an answer means beyond that (`bot.formats.NightRollCall`: the ladder's Out is its
absence notice, LADDER-ATT-4)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlmodel import select

from bot import formats
from bot.clock import Clock
from bot.rules.posts import RollCallAnswer
from bot.rules.refusals import InvalidInput, NotFound
from bot.services.actor import Actor
from bot.services.post_content import PostContent
from bot.services.posts import PostService
from bot.services.team.schedule import league_today
from storage.db import Database
from storage.models import League, Player, Season
from storage.nights import NightRollCallReply, PlannedNight


@dataclass(frozen=True)
class NightAnswer:
    """A night's roll call after an answer: the post as it reads now (None once the night is off the plan) and
    what the answer meant for the player (`note`)."""

    week: int
    play_on: date
    answer: RollCallAnswer
    note: str | None
    post: PostContent | None


class NightRollCallService:
    def __init__(self, db: Database, clock: Clock, posts: PostService) -> None:
        self.db = db
        self.clock = clock
        self.posts = posts

    async def answer(self, actor: Actor, night_id: int, answer: RollCallAnswer) -> NightAnswer:
        """A player answers the night's roll call; anyone not among the format's players is refused, and so is
        an answer after the night's day, with nothing written."""
        now = self.clock.now()
        async with self.db.writing() as session:
            night = await session.get(PlannedNight, night_id)
            league = await session.get(League, night.league_id) if night is not None else None
            roll_call = formats.of(league).night_roll_call if league is not None else None
            if night is None or night.week is None or league is None or roll_call is None:
                raise NotFound("That night is no longer on the schedule.")
            if league.guild_id != actor.guild_id:  # a custom id copied from another server
                raise NotFound("That night is no longer on the schedule.")
            season = await session.get(Season, night.season_id)
            assert season is not None
            player = (
                await session.exec(
                    select(Player).where(Player.league_id == league.id, Player.discord_user_id == actor.user_id)
                )
            ).first()
            if player is None or player.id not in await roll_call.players(session, league, season):
                raise InvalidInput(
                    f"Only {league.name}'s players answer its roll call, and you are not one this season: "
                    f"{roll_call.join}."
                )
            if night.play_on < league_today(league, now):
                raise InvalidInput(f"Week {night.week}'s night has been played; its roll call is closed.")
            note = await roll_call.answered(session, actor, league, answer, now)
            reply = (
                await session.exec(
                    select(NightRollCallReply).where(
                        NightRollCallReply.planned_night_id == night_id, NightRollCallReply.player_id == player.id
                    )
                )
            ).first()
            if reply is None:
                reply = NightRollCallReply(
                    planned_night_id=night_id, player_id=player.id or 0, answer=answer, answered_at=now
                )
            else:
                reply.answer, reply.answered_at = answer, now
            session.add(reply)
            league_id, week, play_on = league.id or 0, night.week, night.play_on
        post = await self.posts.content_for(league_id, roll_call.post_kind, play_on.isoformat())
        return NightAnswer(week, play_on, answer, note, post)
