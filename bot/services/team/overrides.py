"""Commissioner overrides (COMMON-ROLE-1, COMMON-SCORE-3): correct any fact of a match, or a machine's status,
with a required reason. The audit entry (action `override`) keeps the old and new values; results,
standings and brackets are computed from facts, so they follow at once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import scores as score_rules
from bot.rules.refusals import InvalidInput, NotFound, PermissionDenied
from bot.rules.team.model import ScoreStatus, Side
from bot.services import audit, machine_log
from bot.services.actor import Actor
from bot.services.discipline import require_in_good_standing
from bot.services.lookup import find_league
from bot.services.permissions import is_commissioner, require_commissioner
from bot.services.team import match_facts, scoreboard
from bot.services.team.disputes import close_challenges
from bot.services.team.match_access import GameRef, load_context, player_id_of, side_of_player
from storage.db import Database
from storage.discipline import IssueKind
from storage.matches import GameScore, MatchConfirmation, MatchLineup, MatchVisit
from storage.models import Machine, MachineStatus


@dataclass(frozen=True)
class Overridden:
    summary: str  # old → new, for the reply
    board: scoreboard.Scoreboard | None = None  # the match's refreshed scoreboard, when a match changed


class OverrideService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def score(
        self,
        actor: Actor,
        league_name: str | None,
        game: GameRef,
        *,
        member_id: int,
        score: str,
        reason: str,
        dispute_id: int | None = None,
    ) -> Overridden:
        """Correct a player's score in a game, even on a signed match. With `dispute_id` the correction is the
        ruling on that dispute, kept as a precedent (COMMON-RULING-1). COMMON-TV-5: the old and new values and the
        reason are kept in the audit entry, and the game's points follow the new score."""
        match_id, round_index, game_number = game
        text, now = _reason(reason), self.clock.now()
        async with self.db.writing() as session:
            context = await self._match(session, actor, league_name, match_id)
            value = score_rules.parse_score(score, field=f"Score for <@{member_id}>", rules=context.options.score_input)
            player = await player_id_of(session, context.league, member_id)
            rows = (
                await session.exec(
                    select(GameScore)
                    .where(
                        GameScore.match_id == match_id, GameScore.round_index == round_index,
                        GameScore.game_number == game_number, GameScore.player_id == player,
                        GameScore.status != ScoreStatus.VOID,
                    )
                    .order_by(col(GameScore.id).desc())
                )
            ).all()  # fmt: skip
            if not rows:
                raise NotFound(f"<@{member_id}> has no score in round {round_index} game {game_number} to correct.")
            row = rows[0]  # a replay that replaces the first score is the one that counts
            before = audit.snapshot(row)
            row.score = value
            if row.confirmed_at is None:
                row.confirmed_by, row.confirmed_at = actor.user_id, now
            session.add(row)
            audit.updated(session, actor, row, before=before, at=now, reason=text, action="override")
            if dispute_id is not None:
                await close_challenges(session, actor, context, text, rule_id=None, now=now, challenge_id=dispute_id)
            summary = f"round {round_index} game {game_number}: {before['score']:,} → {value:,}"
            return Overridden(summary, await scoreboard.build(session, context, now))

    async def lineup(
        self,
        actor: Actor,
        league_name: str | None,
        game: GameRef,
        *,
        out_member_id: int,
        in_member_id: int,
        reason: str,
    ) -> Overridden:
        """Put one player in another's seat in a declared game; that seat's scores move with it."""
        match_id, round_index, game_number = game
        text, now = _reason(reason), self.clock.now()
        async with self.db.writing() as session:
            context = await self._match(session, actor, league_name, match_id)
            leaving = await player_id_of(session, context.league, out_member_id)
            coming = await player_id_of(session, context.league, in_member_id)
            rosters = await match_facts.rosters(session, context)
            side = side_of_player(rosters, leaving)
            if leaving is None or coming is None or side is None or side_of_player(rosters, coming) is not side:
                raise InvalidInput("Both players must be on the same team's roster for this match.")
            today = now.astimezone(context.zone).date()
            await require_in_good_standing(session, context.league, [coming], on=today, doing="play in a lineup")
            declared = (
                await session.exec(
                    select(MatchLineup).where(
                        MatchLineup.match_id == match_id, MatchLineup.round_index == round_index,
                        MatchLineup.side == side,
                    )
                )
            ).first()  # fmt: skip
            games = [dict(game) for game in declared.games] if declared else []
            if not 0 < game_number <= len(games) or leaving not in games[game_number - 1]["players"]:
                raise NotFound(f"<@{out_member_id}> is not in round {round_index} game {game_number}'s lineup.")
            assert declared is not None
            before = audit.snapshot(declared)
            seats = games[game_number - 1]["players"]
            games[game_number - 1]["players"] = [coming if p == leaving else p for p in seats]
            declared.games = games  # a new list, so the JSON column is written
            session.add(declared)
            audit.updated(session, actor, declared, before=before, at=now, reason=text, action="override")
            moved = (
                await session.exec(
                    select(GameScore).where(
                        GameScore.match_id == match_id, GameScore.round_index == round_index,
                        GameScore.game_number == game_number, GameScore.player_id == leaving,
                    )
                )
            ).all()  # fmt: skip
            for row in moved:
                row_before = audit.snapshot(row)
                row.player_id = coming
                session.add(row)
                audit.updated(session, actor, row, before=row_before, at=now, reason=text, action="override")
            names = {e.player_id: e.name for e in rosters[side]}
            summary = f"round {round_index} game {game_number}: {names[leaving]} → {names[coming]}"
            return Overridden(summary, await scoreboard.build(session, context, now))

    async def attendance(
        self,
        actor: Actor,
        league_name: str | None,
        match_id: int,
        *,
        member_id: int,
        present: bool,
        arrived: str | None,
        reason: str,
    ) -> Overridden:
        """Record that a player was there (arriving at `arrived`, HH:MM league time) or was not."""
        text, now = _reason(reason), self.clock.now()
        async with self.db.writing() as session:
            context = await self._match(session, actor, league_name, match_id)
            player = await player_id_of(session, context.league, member_id)
            side = side_of_player(await match_facts.rosters(session, context), player)
            if player is None or side is None:
                raise InvalidInput(f"<@{member_id}> is not on either roster of {context.label}.")
            visits = (
                await session.exec(
                    select(MatchVisit).where(MatchVisit.match_id == match_id, MatchVisit.player_id == player)
                )
            ).all()
            if present:
                at = _arrival(context.match.play_on, arrived, context.zone) if arrived else now
                visit = MatchVisit(match_id=match_id, side=side, player_id=player, arrived_at=at)
                for old in visits:
                    audit.deleted(session, actor, old, at=now, reason=text, action="override")
                    await session.delete(old)
                session.add(visit)
                await session.flush()
                audit.created(session, actor, visit, at=now, reason=text, action="override")
                summary = f"<@{member_id}> present from {at.astimezone(context.zone):%H:%M}"
            else:
                if not visits:
                    raise NotFound(f"<@{member_id}> is not checked in for {context.label}.")
                for old in visits:
                    audit.deleted(session, actor, old, at=now, reason=text, action="override")
                    await session.delete(old)
                summary = f"<@{member_id}> absent"
            return Overridden(summary, await scoreboard.build(session, context, now))

    async def forfeit(
        self, actor: Actor, league_name: str | None, match_id: int, *, side: Side | None, reason: str
    ) -> Overridden:
        """Set (or clear, with no side) the team that forfeits the match (TEAM-VENUE-1/4 awards 0–12)."""
        text, now = _reason(reason), self.clock.now()
        async with self.db.writing() as session:
            context = await self._match(session, actor, league_name, match_id)
            match = context.match
            before = audit.snapshot(match)
            match.venue_forfeit = side
            session.add(match)
            audit.updated(session, actor, match, before=before, at=now, reason=text, action="override")
            was = before["venue_forfeit"] or "none"
            summary = f"forfeiting team: {was} → {side.value if side else 'none'}"
            return Overridden(summary, await scoreboard.build(session, context, now))

    async def result(
        self, actor: Actor, league_name: str | None, match_id: int, *, final: bool, reason: str
    ) -> Overridden:
        """Sign the scoresheet for the sides that did not (a captain who will not sign), or reopen a signed match
        so the captains can correct it (TEAM-MATCH-4)."""
        text, now = _reason(reason), self.clock.now()
        async with self.db.writing() as session:
            context = await self._match(session, actor, league_name, match_id)
            signed = (await session.exec(select(MatchConfirmation).where(MatchConfirmation.match_id == match_id))).all()
            if final:
                missing = set(Side) - {row.side for row in signed}
                if not missing:
                    raise InvalidInput(f"{context.label} is already signed by both captains.")
                for side in sorted(missing):
                    row = MatchConfirmation(match_id=match_id, side=side, confirmed_by=actor.user_id, confirmed_at=now)
                    session.add(row)
                    await session.flush()
                    audit.created(session, actor, row, at=now, reason=text, action="override")
                summary = "signed for " + ", ".join(context.teams[side].name for side in sorted(missing))
            else:
                if not signed:
                    raise InvalidInput(f"{context.label} is not signed; there is nothing to reopen.")
                for row in signed:
                    audit.deleted(session, actor, row, at=now, reason=text, action="override")
                    await session.delete(row)
                summary = "signatures removed: the captains can correct and sign again"
            return Overridden(summary, await scoreboard.build(session, context, now))

    async def machine(
        self, actor: Actor, league_name: str | None, *, machine_id: int, status: str, reason: str
    ) -> Overridden:
        """Change a machine's status with a reason; the change also goes in the machine-issue log."""
        new, text, now = MachineStatus(status), _reason(reason), self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "override a machine's status")
            machine = await session.get(Machine, machine_id)
            if machine is None or machine.league_id != league.id:
                raise NotFound(f"{league.name} has no machine #{machine_id}. Pick one from the list as you type.")
            before = audit.snapshot(machine)
            machine.status, machine.status_changed_at = new, now
            session.add(machine)
            audit.updated(session, actor, machine, before=before, at=now, reason=text, action="override")
            await machine_log.record(
                session, actor, machine, kind=IssueKind.STATUS, severity=machine_log.status_severity(new),
                description=text, action_taken=f"status {before['status']} → {new.value}", at=now,
            )  # fmt: skip
            return Overridden(f"{machine.title}: {before['status']} → {new.value}")

    async def _match(
        self, session: AsyncSession, actor: Actor, league_name: str | None, match_id: int
    ) -> match_facts.MatchContext:
        context = await load_context(session, actor, league_name, match_id)
        if not is_commissioner(actor, context.league):
            raise PermissionDenied(f"Only commissioners of {context.league.name} can override a match's facts.")
        return context


def _arrival(day: date, text: str, zone: ZoneInfo) -> datetime:
    try:
        hour, minute = (int(part) for part in text.strip().split(":"))
        return datetime.combine(day, time(hour, minute), tzinfo=zone)
    except ValueError:
        raise InvalidInput(f"`arrived` is a time like 19:55, not {text!r}.") from None


def _reason(reason: str) -> str:
    """COMMON-TV-5: an override without a reason is refused."""
    text = reason.strip()
    if not text:
        raise InvalidInput("An override needs a reason (COMMON-ROLE-1); it is kept with the old and new values.")
    return text[:500]
