"""What officials and captains record about a match besides lineups and scores.

Penalties (TEAM-PEN-*), a side leaving or refusing to go on (TEAM-FORF-4), a venue forfeit
(TEAM-VENUE-1/4), the attending team playing out a forfeit evening (TEAM-FORF-1) and the games it played
then (TEAM-FORF-2), and the captains' agreement to wait until 20:30 (TEAM-SCHED-3). Each is a fact; the
result is recomputed from them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import scores as score_rules
from bot.rules.refusals import Conflict, InvalidInput, PermissionDenied, RuleViolation
from bot.rules.team import attendance, highscores, lineup, scoring
from bot.rules.team.model import ScoreStatus, Side
from bot.services import audit, machine_log
from bot.services.actor import Actor
from bot.services.discipline import slam_tilts
from bot.services.lookup import insert_unique
from bot.services.permissions import is_commissioner
from bot.services.team import match_facts, scoreboard
from bot.services.team.match_access import (
    GameRef,
    acting_in,
    load_context,
    lock_match,
    player_from,
    player_id_of,
    player_text,
    require_unsigned,
)
from storage.db import Database
from storage.discipline import IssueKind, IssueSeverity
from storage.matches import (
    ForfeitEveningScore,
    GamePenalty,
    GameScore,
    MachineOut,
    MatchMachineOut,
    MatchWalkout,
)
from storage.models import Machine, Player

PENALTY_RULES = {
    scoring.Offence.OUT_OF_TURN: "TEAM-PEN-1",
    scoring.Offence.DEATH_SAVE: "TEAM-PEN-2",
    scoring.Offence.EXTRA_BALL_VIOLATION: "TEAM-PEN-3",
    scoring.Offence.PHYSICAL_ASSIST: "TEAM-PEN-4",
    scoring.Offence.SLAM_TILT: "TEAM-PEN-5",
    scoring.Offence.TILT_THROUGH: "TEAM-PEN-6",
}


@dataclass(frozen=True)
class EveningGame:
    """A forfeit-evening game as entered: its number that evening, machine, and each player's name and score."""

    number: int
    machine: str
    scores: tuple[tuple[str, int], ...]


class MatchRulingService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def penalty(
        self,
        actor: Actor,
        league_name: str | None,
        game: GameRef,
        *,
        offence: str,
        member_id: int,
    ) -> scoreboard.Scoreboard:
        """Record an in-game penalty against a player of that game (captains of either side, or officials)."""
        match_id, round_index, game_number = game
        kind = scoring.Offence(offence)
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            await acting_in(session, actor, context)
            player = await player_id_of(session, context.league, member_id)
            night = await match_facts.night(session, context)
            lineups = [d for d in night.declarations if d.round_index == round_index]
            in_game = {
                p
                for d in lineups
                if 0 < game_number <= len(d.lineup.games)
                for p in d.lineup.games[game_number - 1].players
            }
            if player is None or player not in in_game:
                raise InvalidInput(
                    f"<@{member_id}> did not play round {round_index} game {game_number}; "
                    "a penalty names a player of that game."
                )
            row = GamePenalty(
                match_id=match_id, round_index=round_index, game_number=game_number, offence=kind,
                player_id=player, recorded_by=actor.user_id, recorded_at=now,
            )  # fmt: skip
            await insert_unique(session, row, f"That {kind.value.replace('_', ' ')} is already recorded for this game.")
            audit.created(session, actor, row, at=now)
            if kind is scoring.Offence.SLAM_TILT:
                await _flag_repeated_slam_tilts(session, actor, context, player, now)
            return await scoreboard.build(session, context, now)

    async def replay(
        self,
        actor: Actor,
        league_name: str | None,
        game: GameRef,
        *,
        member_id: int,
        score: str,
    ) -> scoreboard.Scoreboard:
        """A player's replay score, which replaces their first even when lower: after a failure that hit only
        them (TEAM-MACH-6) or an opponent playing out of turn (TEAM-PEN-1). The opposing captain confirms it."""
        match_id, round_index, game_number = game
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            value = score_rules.parse_score(
                score, field=f"Replay score for <@{member_id}>", rules=context.options.score_input
            )
            await require_unsigned(session, context)
            acting = await acting_in(session, actor, context)
            player = await player_id_of(session, context.league, member_id)
            first = (
                await session.exec(
                    select(GameScore).where(
                        GameScore.match_id == match_id, GameScore.round_index == round_index,
                        GameScore.game_number == game_number, GameScore.player_id == player,
                        GameScore.status == ScoreStatus.NORMAL,
                    )
                )
            ).first()  # fmt: skip
            if first is None:
                raise InvalidInput(
                    f"<@{member_id}> has no score in round {round_index} game {game_number} to replace; enter it first."
                )
            replay = GameScore(
                match_id=match_id, round_index=round_index, game_number=game_number, side=first.side,
                player_id=first.player_id, score=value, status=ScoreStatus.REPLAY_REPLACES,
                entered_by=actor.user_id, entered_for=acting.side, entered_at=now,
            )  # fmt: skip
            session.add(replay)
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict("That player's replay score is already entered.") from None
            audit.created(session, actor, replay, at=now)
            return await scoreboard.build(session, context, now)

    async def walkout(
        self, actor: Actor, league_name: str | None, match_id: int, *, side: Side, kind: str
    ) -> scoreboard.Scoreboard:
        """TEAM-FORF-4: an official records that a side left (or refused to go on with) a disputed match."""
        how = scoring.Walkout(kind)
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            self._require_official(actor, context)
            already = f"{context.teams[side].name}'s walkout is already recorded."
            row = MatchWalkout(match_id=match_id, side=side, kind=how, recorded_by=actor.user_id, recorded_at=now)
            session.add(row)
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict(already) from None
            audit.created(session, actor, row, at=now)
            return await scoreboard.build(session, context, now)

    async def venue_forfeit(
        self, actor: Actor, league_name: str | None, match_id: int, *, side: Side
    ) -> scoreboard.Scoreboard:
        """TEAM-VENUE-1/4: an official finds `side` at fault for moving, or for refusing to move; 0 vs 12 points."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            self._require_official(actor, context)
            return await _update_match(session, actor, context, now, venue_forfeit=side)

    async def played_out(self, actor: Actor, league_name: str | None, match_id: int) -> scoreboard.Scoreboard:
        """TEAM-FORF-1: against a forfeiting team, the attending team played the evening with four or more."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            acting = await acting_in(session, actor, context)
            call = match_facts.attendance_call(context, await match_facts.visits(session, context.match), now)
            forfeiting = {side for side, status in call.status.items() if status is attendance.AttendanceStatus.FORFEIT}
            if len(forfeiting) != 1:
                raise RuleViolation(
                    "TEAM-FORF-1", "Only the attending team of a forfeited match plays out the evening."
                )
            attending = next(side for side in Side if side not in forfeiting)
            if not acting.official and acting.side is not attending:
                raise PermissionDenied(f"{context.teams[attending].name}'s captain confirms they played the evening.")
            scoring.check_played_out(call.status[attending], context.teams[attending].name)
            return await _update_match(session, actor, context, now, played_out_evening=True)

    async def evening_game(
        self,
        actor: Actor,
        league_name: str | None,
        match_id: int,
        *,
        machine_id: int,
        entries: Sequence[tuple[str | None, str | None]],
    ) -> EveningGame:
        """TEAM-FORF-2, TEAM-HS-3: the attending team's captain enters a game played on a forfeit evening, one
        score per player (p1/s1 … p4/s4); the scores count for high scores and leave the match's points alone."""
        for n, (named, scored) in enumerate(entries, start=1):
            if (named is None) != (scored is None):
                raise InvalidInput(f"Give p{n} and s{n} together: each player with their score.")
        given = [(n, named, scored) for n, (named, scored) in enumerate(entries, start=1) if named and scored]
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await lock_match(session, match_id)  # two captains' games must not take the same number
            await require_unsigned(session, context)
            acting = await acting_in(session, actor, context)
            night = await match_facts.night(session, context)
            call = match_facts.attendance_call(context, night.visits, now)
            attending = highscores.forfeit_evening_side(call.status)
            if not acting.official and acting.side is not attending:
                raise PermissionDenied(f"{context.teams[attending].name}'s captain enters the forfeit-evening games.")
            machine = next((m for m in night.machines if m.machine_id == machine_id), None)
            if machine is None:
                raise InvalidInput(
                    f"Machine #{machine_id} is not in service at this match's venue; pick one from the list."
                )
            players = [
                player_from(night, attending, await player_text(session, context.league, named))
                for _, named, _ in given
            ]
            names = {entry.player_id: entry.name for entry in night.rosters[attending]}
            highscores.check_forfeit_evening_game(
                players,
                present=attendance.present_players(night.visits, attending, now),
                names=names,
                machine_players=machine.max_players,
            )
            scores = [
                score_rules.parse_score(text, field=f"s{n} ({names[player]})", rules=context.options.score_input)
                for player, (n, _, text) in zip(players, given, strict=True)
            ]
            played = select(func.max(ForfeitEveningScore.game_number)).where(ForfeitEveningScore.match_id == match_id)
            number = ((await session.exec(played)).one() or 0) + 1
            for player, score in zip(players, scores, strict=True):
                row = ForfeitEveningScore(
                    match_id=match_id, game_number=number, machine_id=machine_id, player_id=player, score=score,
                    entered_by=actor.user_id, entered_at=now,
                )  # fmt: skip
                session.add(row)
                await session.flush()
                audit.created(session, actor, row, at=now)
        return EveningGame(number, machine.name, tuple((names[p], s) for p, s in zip(players, scores, strict=True)))

    async def extension(
        self, actor: Actor, league_name: str | None, match_id: int, *, agreed: bool
    ) -> scoreboard.Scoreboard:
        """TEAM-SCHED-3: an official records whether both captains agreed to wait until 20:30."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            self._require_official(actor, context)
            return await _update_match(session, actor, context, now, extension_agreed=agreed)

    async def take_out_machine(
        self,
        actor: Actor,
        league_name: str | None,
        match_id: int,
        *,
        machine_id: int,
        kind: str,
        agreed: bool,
        reason: str,
    ) -> scoreboard.Scoreboard:
        """TEAM-MACH-3 (annoying failure: both captains agree, two other machines stay) or TEAM-MACH-4 (major
        failure: eliminated while another machine works). Either way the machine never returns in this match."""
        out = MachineOut(kind)
        text = reason.strip()
        if not text:
            raise InvalidInput("Say what is wrong with the machine; the venue's operator will read it.")
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            await acting_in(session, actor, context)
            night = await match_facts.night(session, context)
            if out is MachineOut.REMOVED:
                lineup.remove_machine(night, machine_id, both_captains_agree=agreed)
            else:
                lineup.eliminate_machine(night, machine_id, both_teams_agree=agreed)
            row = MatchMachineOut(
                match_id=match_id, machine_id=machine_id, kind=out, reason=text[:500],
                recorded_by=actor.user_id, recorded_at=now,
            )  # fmt: skip
            session.add(row)
            await session.flush()
            audit.created(session, actor, row, at=now)
            machine = await session.get(Machine, machine_id)
            if machine is not None:  # TEAM-MACH-7: every failure goes in the machine-issue log
                major = out is MachineOut.ELIMINATED
                await machine_log.record(
                    session, actor, machine, kind=IssueKind.FAILURE,
                    severity=IssueSeverity.MAJOR if major else IssueSeverity.MINOR, description=text,
                    action_taken=f"{out.value} from {context.label}", at=now, match_id=match_id,
                )  # fmt: skip
            return await scoreboard.build(session, context, now)

    @staticmethod
    def _require_official(actor: Actor, context: match_facts.MatchContext) -> None:
        if not is_commissioner(actor, context.league):
            raise PermissionDenied(f"Only a commissioner of {context.league.name} records that.")


async def _flag_repeated_slam_tilts(
    session: AsyncSession, actor: Actor, context: match_facts.MatchContext, player_id: int, now: datetime
) -> None:
    """TEAM-DISC-3: the slam tilt that brings a player to `slam_tilt_flag` in a season flags them for discipline."""
    count = await slam_tilts(session, context.match.season_id, player_id)
    player = await session.get(Player, player_id)
    if count == context.options.slam_tilt_flag and player is not None:
        detail = {"TEAM-DISC-3": f"{player.display_name}: {count} slam tilts this season; consider discipline."}
        audit.noted(session, actor, player, action="discipline_flag", detail=detail, at=now)


async def _update_match(
    session: AsyncSession, actor: Actor, context: match_facts.MatchContext, now: datetime, **changes: Any
) -> scoreboard.Scoreboard:
    """Change fields of the match itself, audited with its before and after."""
    match = context.match
    before = audit.snapshot(match)
    for field, value in changes.items():
        setattr(match, field, value)
    session.add(match)
    audit.updated(session, actor, match, before=before, at=now)
    return await scoreboard.build(session, context, now)
