"""High scores of a team league (TEAM-HS-*): the best counted score per conference and model, all seasons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.team import highscores as rules
from bot.rules.team import lineup, scoring
from bot.rules.team.options import TeamOptions
from bot.services.actor import Actor
from bot.services.lookup import find_league
from bot.services.team import match_facts
from storage.db import Database
from storage.matches import ForfeitEveningScore, Match
from storage.models import Conference, League, Machine, Player, Team


@dataclass(frozen=True)
class HighScoreLine:
    conference: str
    model: str
    player: str
    score: int
    week: int
    season_id: int


class HighScoreService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def table(self, actor: Actor, league_name: str | None) -> tuple[League, list[HighScoreLine]]:
        """Scores come from match games and forfeit-evening games only, and only those the result counts: a DQ
        never holds a record."""
        now = self.clock.now()
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            machines = {
                m.id: m for m in (await session.exec(select(Machine).where(Machine.league_id == league.id))).all()
            }
            conferences = {
                c.id: c.name
                for c in (await session.exec(select(Conference).where(Conference.league_id == league.id))).all()
            }
            teams = {t.id: t for t in (await session.exec(select(Team).where(Team.league_id == league.id))).all()}
            players = {
                p.id: p.display_name
                for p in (await session.exec(select(Player).where(Player.league_id == league.id))).all()
            }
            matches = (
                await session.exec(select(Match).where(Match.league_id == league.id).order_by(col(Match.play_on)))
            ).all()
            titles = sorted({m.title for m in machines.values()})
            model_ids = {title: index for index, title in enumerate(titles)}
            entries: list[rules.ScoreEntry] = []
            weeks: dict[int, tuple[int, int]] = {}
            for match in matches:
                context = await match_facts.context_for(session, league, match)
                facts = await match_facts.facts(session, context, now)
                match_night = await match_facts.night(session, context)
                conference = (
                    conferences.get(teams[match.home_team_id].conference_id, "") if match.home_team_id in teams else ""
                )
                weeks[match.id or 0] = (match.week, match.season_id)
                for plan, games in zip(lineup.round_plan(context.options), facts.rounds, strict=False):
                    first = match_facts.effective_lineups(match_night, plan.index)[plan.first_declarer]
                    for number, game in enumerate(games, start=1):
                        machine = machines.get(first.games[number - 1].machine or 0)
                        if machine is None:
                            continue
                        for side_scores in scoring.counted_scores(game).values():
                            for counted in side_scores:
                                entries.append(
                                    rules.ScoreEntry(
                                        player=counted.player, conference=conference, model=model_ids[machine.title],
                                        model_family=machine.family, score=counted.score, date=match.play_on,
                                        source=rules.GameSource.MATCH_GAME, match=match.id, status=counted.status,
                                    )
                                )  # fmt: skip
            entries += await _forfeit_evening_entries(
                session, league.id, matches, machines, model_ids, teams, conferences
            )
        records = rules.high_score_table(entries, TeamOptions.model_validate(league.options))
        return league, [
            HighScoreLine(
                conference=record.key.conference,
                model=titles[record.entry.model],
                player=players.get(record.entry.player, "?"),
                score=record.entry.score,
                week=weeks[record.entry.match or 0][0],
                season_id=weeks[record.entry.match or 0][1],
            )
            for record in records
        ]


async def _forfeit_evening_entries(
    session: AsyncSession,
    league_id: int | None,
    matches: Sequence[Match],
    machines: dict[int | None, Machine],
    model_ids: dict[str, int],
    teams: dict[int | None, Team],
    conferences: dict[int | None, str],
) -> list[rules.ScoreEntry]:
    """TEAM-HS-3: every game played on a forfeit evening counts, in the conference of the match's home team."""
    by_id = {match.id: match for match in matches}
    query = (
        select(ForfeitEveningScore)
        .join(Match, col(Match.id) == ForfeitEveningScore.match_id)
        .where(Match.league_id == league_id)
    )
    rows = (await session.exec(query)).all()
    entries = []
    for row in rows:
        match, machine = by_id[row.match_id], machines[row.machine_id]
        home = teams.get(match.home_team_id)
        entries.append(
            rules.ScoreEntry(
                player=row.player_id, conference=conferences.get(home.conference_id, "") if home else "",
                model=model_ids[machine.title], model_family=machine.family, score=row.score, date=match.play_on,
                source=rules.GameSource.FORFEIT_EVENING, match=match.id,
            )
        )  # fmt: skip
    return entries
