"""A match's state as people see it: lineups, scores with their confirmations, result, open disputes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.team import lineup, scoring
from bot.rules.team.model import ScoreStatus, Side
from bot.services.team import match_facts
from bot.services.team.match_facts import MatchContext
from storage.matches import GameScore, MatchChallenge


@dataclass(frozen=True)
class Scoreboard:
    """A match's state for the living scoreboard message and for replies."""

    context: MatchContext
    names: dict[int, str]  # player id → display name
    night: lineup.MatchNight
    result: scoring.MatchResult
    scores: list[GameScore]
    open_challenges: list[MatchChallenge]


async def open_challenges(session: AsyncSession, match_id: int) -> list[MatchChallenge]:
    query = select(MatchChallenge).where(MatchChallenge.match_id == match_id, col(MatchChallenge.ruled_at).is_(None))
    return list((await session.exec(query)).all())


async def build(session: AsyncSession, context: MatchContext, now: datetime) -> Scoreboard:
    night = await match_facts.night(session, context)
    names = {entry.player_id: entry.name for entries in night.rosters.values() for entry in entries}
    every_score = (await session.exec(select(GameScore).where(GameScore.match_id == context.match.id))).all()
    facts = await match_facts.facts(session, context, now, known=night, scores=every_score)
    scores = [s for s in every_score if s.status is not ScoreStatus.VOID]  # a replayed game's first (TEAM-MACH-5)
    return Scoreboard(
        context=context,
        names=names,
        night=night,
        result=scoring.match_result(facts, context.options),
        scores=sorted(scores, key=lambda s: (s.round_index, s.game_number, s.side != Side.HOME, s.id or 0)),
        open_challenges=await open_challenges(session, context.match.id or 0),
    )
