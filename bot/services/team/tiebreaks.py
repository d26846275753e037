"""The tie-breaker game of a level match (TEAM-TB-*): two decisions, two lineups, one score per team.

HOME makes one decision (or hands the first one to AWAY), the other team makes the other; then AWAY
declares its players, then HOME; the captains enter one score per team, which decides the winner and
adds no match points (TEAM-MATCH-3, TEAM-TB-4).
"""

from __future__ import annotations

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import scores as score_rules
from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team import lineup
from bot.rules.team.model import Side
from bot.services import audit
from bot.services.actor import Actor
from bot.services.discipline import require_in_good_standing
from bot.services.lookup import insert_unique
from bot.services.team import match_facts, scoreboard
from bot.services.team.match_access import Acting, acting_in, load_context, player_from, require_unsigned
from bot.services.team.match_facts import MatchContext
from storage.db import Database
from storage.matches import TiebreakerGame, TiebreakerSetup


class TiebreakService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def defer(self, actor: Actor, league_name: str | None, match_id: int) -> scoreboard.Scoreboard:
        """TEAM-TB-1: HOME hands the first decision to AWAY."""
        async with self.db.writing() as session:
            context, acting, night, setup = await self._load(session, actor, league_name, match_id)
            state = lineup.defer_tiebreak_choice(_state(setup), _side(acting, Side.HOME), night=night)
            return await self._store(session, actor, context, setup, state)

    async def choose(
        self, actor: Actor, league_name: str | None, match_id: int, *, game_format: str | None, machine: int | None
    ) -> scoreboard.Scoreboard:
        """TEAM-TB-1: one of the two decisions, by the team whose turn it is."""
        chosen_format = lineup.TieBreakFormat(game_format) if game_format else None
        async with self.db.writing() as session:
            context, acting, night, setup = await self._load(session, actor, league_name, match_id)
            state = _state(setup)
            side = _side(acting, _chooser(state))
            if machine is not None and machine not in {m.machine_id for m in night.machines}:
                raise InvalidInput("Pick one of the venue's working machines from the list.")
            state = lineup.choose_tiebreak(state, side, night=night, game_format=chosen_format, machine=machine)
            return await self._store(session, actor, context, setup, state)

    async def declare(
        self, actor: Actor, league_name: str | None, match_id: int, players: list[str]
    ) -> scoreboard.Scoreboard:
        """TEAM-TB-2: AWAY then HOME name their players, in ball order for a shared game."""
        async with self.db.writing() as session:
            context, acting, night, setup = await self._load(session, actor, league_name, match_id)
            state = _state(setup)
            side = _side(acting, Side.AWAY if Side.AWAY not in state.lineups else Side.HOME)
            chosen = [player_from(night, side, text) for text in players if text.strip()]
            today = self.clock.now().astimezone(context.zone).date()
            await require_in_good_standing(session, context.league, chosen, on=today, doing="play the tie-breaker")
            state = lineup.declare_tiebreak(state, side, chosen, night=night, now=self.clock.now())
            return await self._store(session, actor, context, setup, state)

    async def score(
        self, actor: Actor, league_name: str | None, match_id: int, home_score: str, away_score: str
    ) -> scoreboard.Scoreboard:
        """TEAM-TB-3/4: one score per team, as shown after Player 2's ball 3."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context, _acting, _night, setup = await self._load(session, actor, league_name, match_id)
            if setup is None or not (setup.home_players and setup.away_players):
                raise RuleViolation("TEAM-TB-2", "Both teams declare their tie-breaker players before it is played.")
            row = TiebreakerGame(
                match_id=match_id,
                home_score=_tiebreak_score(context, Side.HOME, home_score),
                away_score=_tiebreak_score(context, Side.AWAY, away_score),
                entered_by=actor.user_id,
                entered_at=now,
            )
            if row.home_score == row.away_score:
                raise InvalidInput("Tie-breaker scores are level: replay the tie-breaker game and enter the replay.")
            await insert_unique(session, row, "The tie-breaker score is already entered; dispute it if it is wrong.")
            audit.created(session, actor, row, at=now)
            return await scoreboard.build(session, context, now)

    async def _load(
        self, session: AsyncSession, actor: Actor, league_name: str | None, match_id: int
    ) -> tuple[MatchContext, Acting, lineup.MatchNight, TiebreakerSetup | None]:
        context = await load_context(session, actor, league_name, match_id)
        await require_unsigned(session, context)
        acting = await acting_in(session, actor, context)
        result = await match_facts.result(session, context, self.clock.now())
        if not result.needs_tiebreaker:
            raise RuleViolation("TEAM-MATCH-3", "A tie-breaker game is only played when the match ends level.")
        setup = (await session.exec(select(TiebreakerSetup).where(TiebreakerSetup.match_id == match_id))).first()
        return context, acting, await match_facts.night(session, context), setup

    async def _store(
        self,
        session: AsyncSession,
        actor: Actor,
        context: MatchContext,
        setup: TiebreakerSetup | None,
        state: lineup.TieBreak,
    ) -> scoreboard.Scoreboard:
        row = setup or TiebreakerSetup(match_id=context.match.id or 0)
        before = audit.snapshot(row) if setup is not None else None
        row.deferred_to_away = state.deferred_to_away
        row.game_format = state.game_format.value if state.game_format else None
        row.format_by, row.machine_id, row.machine_by = state.format_by, state.machine, state.machine_by
        row.home_players = list(state.lineups.get(Side.HOME, ()))
        row.away_players = list(state.lineups.get(Side.AWAY, ()))
        await insert_unique(
            session, row, "Another tie-breaker decision was just recorded; look at the scoreboard and retry."
        )
        now = self.clock.now()
        if before is None:
            audit.created(session, actor, row, at=now)
        else:
            audit.updated(session, actor, row, before=before, at=now)
        return await scoreboard.build(session, context, now)


def _tiebreak_score(context: MatchContext, side: Side, typed: str) -> int:
    """TEAM-TB-3: one team's tie-breaker score; a refusal names the team (COMMON-SCORE-1)."""
    field = f"{side.value.title()} ({context.teams[side].name})"
    return score_rules.parse_score(typed, field=field, rules=context.options.score_input)


def _state(setup: TiebreakerSetup | None) -> lineup.TieBreak:
    if setup is None:
        return lineup.TieBreak()
    lineups = {
        side: tuple(players)
        for side, players in ((Side.HOME, setup.home_players), (Side.AWAY, setup.away_players))
        if players
    }
    return lineup.TieBreak(
        deferred_to_away=setup.deferred_to_away,
        game_format=lineup.TieBreakFormat(setup.game_format) if setup.game_format else None,
        format_by=setup.format_by,
        machine=setup.machine_id,
        machine_by=setup.machine_by,
        lineups=lineups,
    )


def _chooser(state: lineup.TieBreak) -> Side:
    """Whose decision it is: the first chooser until someone chose, then the other team."""
    decided = state.format_by or state.machine_by
    return state.first_chooser if decided is None else decided.other


def _side(acting: Acting, turn: Side) -> Side:
    """A captain acts for their own team; an official acts for the team whose turn it is."""
    return acting.side or turn
