"""Match night in the team format: check-in, lineups, scores and their confirmation, signing, tie-breaker.

Each method loads the match's facts (`match_facts`), asks the pure rules (`bot.rules.team`), and stores
what was accepted in one transaction. Captains act for their own side; a commissioner may act for either.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, insert, select, update
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import scores as score_rules
from bot.rules.photos import Photo, check_photo
from bot.rules.refusals import Conflict, InvalidInput, NotFound, PermissionDenied, RuleViolation
from bot.rules.team import attendance, lineup, scoring
from bot.rules.team.model import RoundKind, ScoreStatus, Side
from bot.services import audit, machine_log
from bot.services.actor import Actor
from bot.services.discipline import require_in_good_standing
from bot.services.lookup import find_league
from bot.services.photos import drop_photo, keep_photo
from bot.services.team import match_facts, next_steps, playoff_lineups, scoreboard
from bot.services.team.match_access import (
    Acting,
    GameRef,
    acting_in,
    load_context,
    lock_match,
    player_from,
    player_id_of,
    player_text,
    require_side,
    require_unsigned,
    score_field,
    side_of_player,
)
from bot.services.team.match_facts import MatchContext
from bot.services.team.scoreboard import GameState
from storage.db import Database
from storage.discipline import IssueKind, IssueSeverity
from storage.matches import (
    ExtraBallOptOut,
    GamePhoto,
    GameScore,
    LineupReplacement,
    Match,
    MatchConfirmation,
    MatchGameStart,
    MatchLineup,
    MatchVisit,
)
from storage.models import Machine
from storage.prepared import param, prepared

SLOTS_PER_ROUND = 4  # Doubles: 2 games x 2 players; Singles: 4 games x 1 (TEAM-LINEUP-8)
CHOICE_WINDOW = timedelta(days=2)  # matches offered by autocomplete: from two days ago onwards
CLAIMED_POST_WAIT = 5.0  # seconds to wait for another process's first scoreboard before posting one


@dataclass(frozen=True)
class Seat:
    """One player's field on a game's score form, in the side's lineup order."""

    side: Side
    position: int
    player_id: int
    name: str
    score: int | None  # the stored score, when the captain who entered it fixes it

    @property
    def key(self) -> str:
        """As `/score` names it: home1, away2…"""
        return f"{self.side.value}{self.position}"

    @property
    def label(self) -> str:
        return f"{self.side.value.title()} {self.position} · {self.name}"


@dataclass(frozen=True)
class ScoreSheet:
    game: GameRef
    replay: bool  # TEAM-AMB-4: the game was tied, and this is its replay
    seats: tuple[Seat, ...]


class MatchNightService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    # --- check-in (TEAM-SCHED-2) -------------------------------------------------------------------

    async def check_in(
        self, actor: Actor, league_name: str | None, match_id: int, member_id: int | None
    ) -> MatchContext:
        """A player checks themselves in, or a captain checks in a teammate. Returns the match, whose board
        `current_board` builds (the command replies first; see bot/scoreboard_publisher.py)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            await lock_match(session, match_id)  # two check-ins of one player at once: one is refused
            context, rosters, side, target = await self._attendee(session, actor, league_name, match_id, member_id)
            today = now.astimezone(context.zone).date()
            await require_in_good_standing(session, context.league, [target], on=today, doing="check in for a match")
            visits = await match_facts.visits(session, context.match)
            attendance.check_in(visits, rosters[side], side, target, now=now)
            visit = MatchVisit(match_id=match_id, side=side, player_id=target, arrived_at=now)
            session.add(visit)
            await session.flush()
            audit.created(session, actor, visit, at=now)
        return context

    async def check_out(
        self, actor: Actor, league_name: str | None, match_id: int, member_id: int | None
    ) -> tuple[MatchContext, list[GameRef]]:
        """TEAM-SCHED-2, TEAM-SCHED-5: a player leaves, time-stamped (a captain may check a teammate out).
        Returns the match and the games the player was written into that were not finished: those slots are DQ
        (TEAM-AMB-20), which the scores entered for them then record."""
        now = self.clock.now()
        async with self.db.writing() as session:
            await lock_match(session, match_id)
            context, rosters, side, target = await self._attendee(session, actor, league_name, match_id, member_id)
            rows = (
                await session.exec(
                    select(MatchVisit).where(MatchVisit.match_id == match_id).order_by(col(MatchVisit.id))
                )
            ).all()
            before = tuple(attendance.Visit(r.side, r.player_id, r.arrived_at, r.left_at) for r in rows)
            after = attendance.check_out(before, rosters[side], side, target, now=now)
            for row, old, new in zip(rows, before, after, strict=True):
                if old != new:
                    snapshot = audit.snapshot(row)
                    row.left_at = new.left
                    session.add(row)
                    audit.updated(session, actor, row, before=snapshot, at=now, reason="checked out")
            await session.flush()
            night = await _finished_games_done(session, context, await match_facts.night(session, context, rosters))
            left_in = lineup.abandoned_slots(night, now=now, options=context.options)
        return context, [GameRef(match_id, s.round_index, s.game_number) for s in left_in if s.player_id == target]

    async def _attendee(
        self, session: AsyncSession, actor: Actor, league_name: str | None, match_id: int, member_id: int | None
    ) -> tuple[MatchContext, dict[Side, tuple[attendance.RosterEntry, ...]], Side, int]:
        """The match, its rosters, and the player checking in or out (the actor, or a teammate a captain names)."""
        context = await load_context(session, actor, league_name, match_id)
        await require_unsigned(session, context)
        rosters = await match_facts.rosters(session, context)
        me = await player_id_of(session, context.league, actor.user_id)
        target = me if member_id is None else await player_id_of(session, context.league, member_id)
        side = side_of_player(rosters, target)
        if target is None or side is None:
            raise RuleViolation("TEAM-LINEUP-7", f"That player is not on either roster of {context.label} tonight.")
        if target != me:
            await require_side(session, actor, context, side, "check in or out a teammate")
        return context, rosters, side, target

    # --- lineups (TEAM-LINEUP-*) --------------------------------------------------------------------

    async def declare(
        self,
        actor: Actor,
        league_name: str | None,
        match_id: int,
        players: list[str | None],
        machines: list[int | None],
        write_in: str | None = None,
    ) -> tuple[scoreboard.Scoreboard, int, Side]:
        """Declare the acting captain's lineup for their next round. `write_in`: a missing rostered player a short
        team writes into game 2 of round 1 (TEAM-SHORT-4), who plays only if checked in before that game starts.
        Returns the board after it, the round and the side."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            acting = await acting_in(session, actor, context)
            today = now.astimezone(context.zone).date()
            await playoff_lineups.check_machines(session, context, [m for m in machines if m is not None], today)
            night = await playoff_lineups.night(session, context, today)
            side = acting.side or _side_to_declare(night, context)
            round_index = _round_to_declare(night, side, context)
            plan = lineup.round_plan(context.options)[round_index - 1]
            typed = [await player_text(session, context.league, text) if text else None for text in players]
            chosen = [player_from(night, side, text) if text else None for text in typed]
            written_in = None
            if write_in:
                written_in = player_from(night, side, await player_text(session, context.league, write_in))
            named = [p for p in [*chosen, written_in] if p is not None]
            await require_in_good_standing(session, context.league, named, on=today, doing="play in a lineup")
            games = _with_write_in(_games(plan.kind, chosen, machines), written_in)
            declared = lineup.validate_declaration(
                night,
                side,
                round_index,
                lineup.Lineup(games=games, write_in=written_in),
                by=lineup.Declarant(acting.player_id, official=acting.official),
                now=now,
                options=context.options,
            )
            await playoff_lineups.check(session, context, side, night, [p for g in games for p in g.players])
            row = MatchLineup(
                match_id=match_id,
                round_index=round_index,
                side=side,
                declared_at=now,
                declared_by=acting.player_id,
                by_official=acting.official,
                games=[{"players": list(g.players), "machine": g.machine} for g in declared.lineup.games],
                write_in=declared.lineup.write_in,
            )
            session.add(row)
            try:
                await session.flush()
            except IntegrityError:
                raise RuleViolation("TEAM-LINEUP-4", "Lineups are locked once declared.") from None
            audit.created(session, actor, row, at=now)
        return await self.current_board(context), round_index, side

    async def replace_game(
        self,
        actor: Actor,
        league_name: str | None,
        game: GameRef,
        *,
        players: list[str | None],
        machine: int | None,
    ) -> scoreboard.Scoreboard:
        """TEAM-MACH-5: after its machine failed mid-game, the team that picked it names the new machine (and may
        change that game's players); then the other team may change its players once. The game is replayed, so
        the scores already entered for it become VOID."""
        match_id, round_index, game_number = game
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            acting = await acting_in(session, actor, context)
            today = now.astimezone(context.zone).date()
            await playoff_lineups.check_machines(session, context, [machine] if machine is not None else [], today)
            night = await playoff_lineups.night(session, context, today)
            plan = lineup.round_plan(context.options)[round_index - 1]
            side = acting.side or (plan.first_declarer if machine is not None else plan.first_declarer.other)
            current = _game_entries(night, context, game, now)[side]
            chosen = tuple(player_from(night, side, text) for text in players if text) or current.players
            await require_in_good_standing(session, context.league, chosen, on=today, doing="play in a lineup")
            accepted = lineup.validate_replacement(
                night, side, round_index, game_number, lineup.GameEntry(chosen, machine),
                by=lineup.Declarant(acting.player_id, official=acting.official), now=now, options=context.options,
            )  # fmt: skip
            if side is plan.first_declarer:
                await self._refuse_finished(session, game)
                await self._void_game(session, actor, game)
                await self._unstart(session, actor, game)  # replayed from its start on the new machine (TEAM-MACH-2)
            row = LineupReplacement(
                match_id=match_id, round_index=round_index, game_number=game_number, side=side,
                players=list(accepted.entry.players), machine_id=accepted.entry.machine, declared_at=now,
                declared_by=acting.player_id, by_official=acting.official,
            )  # fmt: skip
            session.add(row)
            await session.flush()
            audit.created(session, actor, row, at=now)
            return await scoreboard.build(session, context, now)

    async def _unstart(self, session: AsyncSession, actor: Actor, game: GameRef) -> None:
        query = select(MatchGameStart).where(
            MatchGameStart.match_id == game.match_id,
            MatchGameStart.round_index == game.round_index,
            MatchGameStart.game_number == game.game_number,
        )
        for row in (await session.exec(query)).all():
            audit.deleted(session, actor, row, at=self.clock.now(), reason="replayed on another machine")
            await session.delete(row)

    # --- games in progress (TEAM-MACH-2) and extra balls (TEAM-PEN-3) ----------------------------------

    async def start_game(self, actor: Actor, league_name: str | None, game: GameRef) -> scoreboard.Scoreboard:
        """TEAM-MACH-2: a captain (or an official) starts a declared game: at most two games are in progress at
        once, and never two on one machine. The board then shows it playing until its scores are entered."""
        match_id, round_index, game_number = game
        now = self.clock.now()
        async with self.db.writing() as session:
            await lock_match(session, match_id)  # two starts at once: the third game is still refused
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            await acting_in(session, actor, context)
            if [r for r in await self._game_scores(session, game) if r.status is not ScoreStatus.VOID]:
                raise Conflict(f"Round {round_index} game {game_number} already has scores: it was played.")
            night = await match_facts.night(session, context)
            lineup.start_game(night, round_index, game_number, now=now, options=context.options)
            row = MatchGameStart(
                match_id=match_id, round_index=round_index, game_number=game_number, started_at=now,
                started_by=actor.user_id,
            )  # fmt: skip
            session.add(row)
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict(f"Round {round_index} game {game_number} has already started.") from None
            audit.created(session, actor, row, at=now)
            return await scoreboard.build(session, context, now)

    async def player_failure(
        self, actor: Actor, league_name: str | None, game: GameRef, *, member_id: int, choice: str, what: str
    ) -> tuple[scoreboard.Scoreboard, lineup.SinglePlayerFailure, str]:
        """TEAM-MACH-6: a failure that hurts one player of a game in progress: that player chooses at once to play
        on, or to replay solo straight after the game (the replay, entered with `/match replay`, replaces the first
        score). The choice is logged with the failure (TEAM-MACH-7, COMMON-MALF-1). Returns the board, the choice
        and the player's name."""
        match_id, round_index, game_number = game
        now = self.clock.now()
        try:
            chosen = lineup.FailureChoice(choice)
        except ValueError:
            raise InvalidInput("`choice`: pick continue or replay_solo from the list.") from None
        async with self.db.writing() as session:
            await lock_match(session, match_id)
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            await acting_in(session, actor, context)
            night = await match_facts.night(session, context)
            player = await player_id_of(session, context.league, member_id)
            if player is None:
                raise InvalidInput("`member`: that member is not a player of this league.")
            failure = lineup.record_single_player_failure(
                night, round_index, game_number, player, chosen, now=now, options=context.options
            )
            name = next((e.name for side in Side for e in night.rosters[side] if e.player_id == player), "The player")
            machine_id = _game_entries(night, context, game, now)[
                lineup.round_plan(context.options)[round_index - 1].first_declarer
            ].machine
            machine = await session.get(Machine, machine_id) if machine_id else None
            if machine is not None:
                action = (
                    f"{name} replays solo after the game; the replay replaces the score (TEAM-MACH-6)"
                    if failure.choice is lineup.FailureChoice.REPLAY_SOLO
                    else f"{name} played on; the score stands (TEAM-MACH-6)"
                )
                await machine_log.record(
                    session, actor, machine, kind=IssueKind.FAILURE, severity=IssueSeverity.MINOR,
                    description=f"Round {round_index} game {game_number}, {name}: {what.strip()}"[:500],
                    action_taken=action, at=now, match_id=match_id,
                )  # fmt: skip
            return await scoreboard.build(session, context, now), failure, name

    async def opt_out_of_extra_balls(
        self, actor: Actor, league_name: str | None, match_id: int
    ) -> tuple[scoreboard.Scoreboard, bool]:
        """TEAM-PEN-3: a captain agrees to play the match without extra balls (an official records both captains'
        agreement at once); it holds once both have agreed, before round 1 is declared. Returns the board and
        whether extra balls are now off."""
        now = self.clock.now()
        async with self.db.writing() as session:
            await lock_match(session, match_id)
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            acting = await acting_in(session, actor, context)
            night = await match_facts.night(session, context)
            agreed = await scoreboard.extra_ball_opt_outs(session, match_id)
            sides = frozenset([acting.side] if acting.side else Side) - agreed
            round_one = any(d.round_index == 1 for d in night.declarations)
            off = scoring.check_extra_ball_opt_out(agreed_by=agreed | sides, round_one_declared=round_one)
            if not sides:
                who = context.teams[acting.side].name if acting.side else "Both captains"
                raise Conflict(f"{who} already agreed to play without extra balls.")
            for side in sorted(sides):
                row = ExtraBallOptOut(match_id=match_id, side=side, agreed_by=actor.user_id, agreed_at=now)
                session.add(row)
                await session.flush()
                audit.created(session, actor, row, at=now)
            return await scoreboard.build(session, context, now), off

    async def _refuse_finished(self, session: AsyncSession, game: GameRef) -> None:
        """TEAM-MACH-5 replays a game its machine broke; a game whose scores are confirmed was finished."""
        rows = [r for r in await self._game_scores(session, game) if r.status is not ScoreStatus.VOID]
        if rows and all(row.confirmed_at is not None for row in rows):
            raise RuleViolation(
                "TEAM-MACH-5",
                f"Round {game.round_index} game {game.game_number} is finished and confirmed; "
                "a later failure does not replay it.",
            )

    async def _void_game(self, session: AsyncSession, actor: Actor, game: GameRef) -> None:
        for row in await self._game_scores(session, game):
            if row.status is not ScoreStatus.VOID:
                before = audit.snapshot(row)
                row.status = ScoreStatus.VOID
                session.add(row)
                audit.updated(session, actor, row, before=before, at=self.clock.now())
        await session.flush()

    async def player_choices(self, actor: Actor, league_name: str | None, match_id: int) -> list[tuple[int, str]]:
        """Autocomplete: players the acting captain may still put in their next round (TEAM-LINEUP-5, 7, 9)."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, match_id)
            acting, night = await _acting_and_night(session, actor, context)
            side = acting.side or _side_to_declare(night, context)
            round_index = _round_to_declare(night, side, context)
            entries = lineup.eligible_players(night, side, round_index, now=self.clock.now(), options=context.options)
            allowed = await playoff_lineups.eligible(session, context, side)
            return [(e.player_id, e.name) for e in entries if allowed is None or e.player_id in allowed]

    async def present_choices(self, actor: Actor, league_name: str | None, match_id: int) -> list[tuple[int, str]]:
        """Autocomplete: the acting captain's players who are here now (both teams' for an official)."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, match_id)
            acting, night = await _acting_and_night(session, actor, context)
            sides = [acting.side] if acting.side else list(Side)
            now = self.clock.now()
            return [
                (entry.player_id, entry.name)
                for side in sides
                for entry in night.rosters[side]
                if entry.player_id in attendance.present_players(night.visits, side, now)
            ]

    async def missing_choices(self, actor: Actor, league_name: str | None, match_id: int) -> list[tuple[int, str]]:
        """Autocomplete: the acting captain's rostered players who are not here, the ones a write-in may name
        (TEAM-SHORT-4)."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, match_id)
            acting, night = await _acting_and_night(session, actor, context)
            side = acting.side or _side_to_declare(night, context)
            here = attendance.present_players(night.visits, side, self.clock.now())
            return [(entry.player_id, entry.name) for entry in night.rosters[side] if entry.player_id not in here]

    async def machine_choices(self, actor: Actor, league_name: str | None, match_id: int) -> list[tuple[int, str]]:
        """Autocomplete: machines still legal for the round being declared (TEAM-MACH-1, 3)."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, match_id)
            night = await playoff_lineups.night(session, context, self.clock.now().astimezone(context.zone).date())
            round_index = _open_round(night, context)
            machines = lineup.legal_machines(night, round_index, options=context.options)
            return [(machine.machine_id, machine.name) for machine in machines]

    # --- scores (TEAM-GAME-*, COMMON-SCORE-1) ---------------------------------------------------------

    async def score_sheet(self, actor: Actor, game: GameRef, *, correcting: bool = False) -> ScoreSheet:
        """The form for a game's scores: one field per player, pre-filled with the stored scores when the
        captain who entered them fixes them (`correcting`)."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, None, game.match_id, any_league=True)
            await require_unsigned(session, context)
            acting, night = await _acting_and_night(session, actor, context)
            played = await scoreboard.game(session, context, game, self.clock.now(), night=night)
            if correcting:
                _fixable(played, context, acting)
            else:
                _entry_due(played)
        stored = {row.player_id: row.score for row in played.scores if row.confirmed_at is None} if correcting else {}
        names = scoreboard.names(night)
        seats = tuple(
            Seat(side, position, player, names.get(player, "?"), stored.get(player))
            for side in Side
            for position, player in enumerate(played.players[side], start=1)
        )
        return ScoreSheet(game, replay=played.state is GameState.REPLAY_DUE, seats=seats)

    async def enter_scores(
        self,
        actor: Actor,
        league_name: str | None,
        game: GameRef,
        typed: dict[Side, list[str]],
        photo: Photo | None = None,
    ) -> scoreboard.Scoreboard:
        """A captain enters one game's scores, in each side's lineup order; the opponent then confirms. A game
        confirmed level is replayed (TEAM-AMB-4): its replay is entered the same way, for every player at
        once, and replaces the first scores (REPLAY_REPLACES). A photo of the display sent with them (the board's
        form) is kept with the game, replacing one sent before. Returns the board after the entry."""
        match_id, round_index, game_number = game
        now = self.clock.now()
        photo = check_photo(photo) if photo else None
        async with self.db.writing() as session:
            await lock_match(session, match_id)
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            acting, night = await _acting_and_night(session, actor, context)
            entries = _game_entries(night, context, game, now)
            in_game = [p for side in Side for p in entries[side].players]
            today = now.astimezone(context.zone).date()
            await require_in_good_standing(session, context.league, in_game, on=today, doing="have a score entered")
            replay = False
            match_scores = (
                await session.exec(match_facts.of_match(GameScore), params=match_facts.match_params(match_id))
            ).all()
            already = any((row.round_index, row.game_number) == (round_index, game_number) for row in match_scores)
            if already:  # the rare case: a replay is due, or `_entry_due` refuses a second entry
                due = _entry_due(await scoreboard.game(session, context, game, now, night=night))
                replay = due.state is GameState.REPLAY_DUE
                if replay:
                    await self._void_replays(session, actor, game)  # a replay tied again: kept, VOID
            status = ScoreStatus.REPLAY_REPLACES if replay else ScoreStatus.NORMAL
            left = {  # TEAM-AMB-20: written in, then checked out before this game finished: the slot is DQ
                slot.player_id
                for slot in lineup.abandoned_slots(night, now=now, options=context.options)
                if (slot.round_index, slot.game_number) == (round_index, game_number)
            }
            values = [
                {
                    "match_id": match_id,
                    "round_index": round_index,
                    "game_number": game_number,
                    "side": side,
                    "player_id": player_id,
                    "score": score,
                    "status": ScoreStatus.DQ if player_id in left else status,
                    "entered_by": actor.user_id,
                    "entered_for": acting.side,
                    "entered_at": now,
                }
                for side, player_id, score in _parsed(context, night, game, typed, now)
            ]
            try:  # one INSERT … RETURNING for the game's scores (the ORM's unit of work sends one per row)
                inserted = await session.exec(insert(GameScore).returning(GameScore), params=values)
                rows = inserted.scalars().all()
            except IntegrityError:
                raise Conflict(_already_entered(game)) from None
            for row in rows:
                audit.created(session, actor, row, at=now)
            await keep_photo(session, actor, GamePhoto, _photo_key(game), photo, now)
            every_score = [*match_scores, *rows]  # a voided replay's rows are these, changed in place
            board = await self._board_as_written(session, context, now, night=night, scores=every_score)
        return board or await self.current_board(context)

    async def correct_scores(
        self, actor: Actor, game: GameRef, typed: dict[Side, list[str]], photo: Photo | None = None
    ) -> scoreboard.Scoreboard:
        """The captain who entered a game's scores fixes them until the other side confirms (COMMON-SCORE-3
        holds after that). Each changed score is audited with its value before and after; a photo sent with
        the fix replaces the game's."""
        now = self.clock.now()
        photo = check_photo(photo) if photo else None
        async with self.db.writing() as session:
            await lock_match(session, game.match_id)  # a fix racing the confirmation: one of them waits
            context = await load_context(session, actor, None, game.match_id, any_league=True)
            await require_unsigned(session, context)
            acting, night = await _acting_and_night(session, actor, context)
            played = _fixable(await scoreboard.game(session, context, game, now, night=night), context, acting)
            pending = {row.player_id: row for row in played.scores if row.confirmed_at is None}
            for _side, player_id, score in _parsed(context, night, game, typed, now):
                row = pending[player_id]
                if row.score != score:
                    before = audit.snapshot(row)
                    row.score, row.entered_at = score, now
                    session.add(row)
                    audit.updated(session, actor, row, before=before, at=now, reason="fixed before confirmation")
            await keep_photo(session, actor, GamePhoto, _photo_key(game), photo, now)
            board = await self._board_as_written(session, context, now, night=night)
        return board or await self.current_board(context)

    async def undo_scores(self, actor: Actor, game: GameRef) -> scoreboard.Scoreboard:
        """The captain who entered a game's scores takes them back before they are confirmed."""
        now = self.clock.now()
        async with self.db.writing() as session:
            await lock_match(session, game.match_id)
            context = await load_context(session, actor, None, game.match_id, any_league=True)
            await require_unsigned(session, context)
            acting, night = await _acting_and_night(session, actor, context)
            played = _own_entry(await scoreboard.game(session, context, game, now, night=night), context, acting)
            for row in played.scores:
                if row.confirmed_at is None:
                    audit.deleted(session, actor, row, at=now, reason="taken back before confirmation")
                    await session.delete(row)
            if all(row.confirmed_at is None for row in played.scores):  # a replay's: the tied game's stay
                reason = "taken back before confirmation"
                await drop_photo(session, actor, GamePhoto, _photo_key(game), now, reason=reason)
            board = await self._board_as_written(session, context, now, night=night)
        return board or await self.current_board(context)

    async def _board_as_written(
        self,
        session: AsyncSession,
        context: MatchContext,
        now: datetime,
        *,
        night: lineup.MatchNight | None = None,
        rosters: dict[Side, tuple[attendance.RosterEntry, ...]] | None = None,
        scores: Sequence[GameScore] | None = None,
    ) -> scoreboard.Scoreboard | None:
        """On SQLite, the board a score command returns, built in its transaction from the night it read there:
        the command holds the database's one writer, so nothing changes the match before the commit, no other
        writer waits longer for it, and the night is not read twice. Only games in progress follow the scores just
        written (TEAM-MACH-2). `night`: the night the command read; without it, the night is read here (from
        the `rosters` the command read); `scores`: every GameScore row of the match, as the command left them,
        if it read them all. On PostgreSQL (None) the board is read after the commit: built inside, it would
        hold the match's lock through a dozen round trips while the next confirmation of the match waits."""
        if not self.db.is_sqlite:
            return None
        await session.flush()
        if night is None:
            night = await match_facts.night(session, context, rosters)
        elif night.progress:  # no game started: none can start while the match is held
            night = replace(night, progress=await match_facts.progress(session, context.match))
        return await scoreboard.build(session, context, now, night=night, scores=scores)

    async def _void_replays(self, session: AsyncSession, actor: Actor, game: GameRef) -> None:
        for row in await self._game_scores(session, game):
            if row.status is ScoreStatus.REPLAY_REPLACES:
                before = audit.snapshot(row)
                row.status = ScoreStatus.VOID
                session.add(row)
                audit.updated(session, actor, row, before=before, at=self.clock.now(), reason="replayed again")
        await session.flush()

    async def confirm_game(self, actor: Actor, game: GameRef) -> scoreboard.Scoreboard:
        """The opposing captain confirms a game's entered scores (an official's entry: either captain). Returns the
        board after it."""
        match_id, round_index, game_number = game
        now = self.clock.now()
        async with self.db.writing() as session:
            await lock_match(session, match_id)  # two confirmations at once: one is told it is already done
            context = await load_context(session, actor, None, match_id, any_league=True)
            await require_unsigned(session, context)
            rosters = await match_facts.rosters(session, context)
            acting = await acting_in(session, actor, context, rosters)
            every_score = (
                await session.exec(match_facts.of_match(GameScore), params=match_facts.match_params(match_id))
            ).all()
            in_game = [r for r in every_score if (r.round_index, r.game_number) == (round_index, game_number)]
            live = [r for r in in_game if r.status is not ScoreStatus.VOID]
            if not live:
                raise NotFound(f"Round {round_index} game {game_number} has no scores to confirm yet.")
            pending = [row for row in live if row.confirmed_at is None]
            if not pending:
                raise Conflict(f"Round {round_index} game {game_number} is already confirmed.")
            # Each side confirms what the other entered: two captains who each entered a replay for their own
            # player confirm each other's, rather than both being refused.
            theirs = [row for row in pending if acting.official or row.entered_for is not acting.side]
            if not theirs:
                raise PermissionDenied("The opposing captain confirms scores; the captain who entered them cannot.")
            for row in theirs:
                before = audit.snapshot(row)
                row.confirmed_by, row.confirmed_at = actor.user_id, now
                session.add(row)
                audit.updated(session, actor, row, before=before, at=now)
            board = await self._board_as_written(session, context, now, rosters=rosters, scores=every_score)
        return board or await self.current_board(context)

    async def sign(self, actor: Actor, match_id: int) -> scoreboard.Scoreboard:
        """TEAM-MATCH-4: a captain signs the scoresheet once every game is entered and confirmed."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, None, match_id, any_league=True)
            acting = await acting_in(session, actor, context)
            board = await scoreboard.build(session, context, self.clock.now(), photos=False)
            if board.open_challenges:
                raise RuleViolation("TEAM-DISP-1", "A dispute is open on this match; the commissioner rules first.")
            waiting = [f"round {s.round_index} game {s.game_number}" for s in board.scores if s.confirmed_at is None]
            if waiting:
                raise RuleViolation(
                    "TEAM-MATCH-4", f"Confirm every game first; still unconfirmed: {', '.join(sorted(set(waiting)))}."
                )
            # What would still be missing if both captains had signed: games, a tie-breaker (TEAM-MATCH-2/3).
            facts = await match_facts.facts(session, context, now)
            signed = scoring.match_result(replace(facts, confirmed_by=frozenset(Side)), context.options)
            if signed.missing:
                raise RuleViolation("TEAM-MATCH-2", f"The match is not over: {'; '.join(signed.missing)}.")
            if acting.side is None:
                raise RuleViolation(
                    "TEAM-MATCH-4",
                    "The captains sign the scoresheet; a commissioner's correction is an override, with a reason.",
                )
            for side in [acting.side]:
                already = f"{context.teams[side].name} already signed this match."  # read before a failed flush
                row = MatchConfirmation(match_id=match_id, side=side, confirmed_by=actor.user_id, confirmed_at=now)
                session.add(row)
                try:
                    await session.flush()
                except IntegrityError:
                    raise Conflict(already) from None
                audit.created(session, actor, row, at=now)
            return await scoreboard.build(session, context, self.clock.now())

    async def current_board(self, context: MatchContext) -> scoreboard.Scoreboard:
        """The match's scoreboard as committed. Most match-night commands return the match rather than its board:
        the publisher builds the board after the reply, once for any number of changes made meanwhile."""
        async with self.db.reading() as session:
            return await scoreboard.build(session, context, self.clock.now())

    async def board(self, actor: Actor, league_name: str | None, match_id: int) -> scoreboard.Scoreboard:
        async with self.db.reading() as session:
            return await scoreboard.build(
                session, await load_context(session, actor, league_name, match_id), self.clock.now()
            )

    async def claim_scoreboard(self, match_id: int, channel_id: int) -> bool:
        """Whether this process posts the match's first scoreboard. Two processes answering a match's first
        commands at once would each post one; the claim names the channel, with no message until
        `scoreboard_posted`."""
        unclaimed = col(Match.scoreboard_channel_id).is_(None)
        async with self.db.writing() as session:
            claimed = await session.exec(
                update(Match).where(col(Match.id) == match_id, unclaimed).values(scoreboard_channel_id=channel_id)
            )
            return claimed.rowcount == 1

    async def release_scoreboard(self, match_id: int) -> None:
        """Give up a claim whose post Discord refused, so the next change tries again."""
        async with self.db.writing() as session:
            await session.exec(
                update(Match)
                .where(col(Match.id) == match_id, col(Match.scoreboard_message_id).is_(None))
                .values(scoreboard_channel_id=None)
            )

    async def scoreboard_posted_elsewhere(self, match_id: int) -> tuple[int, int] | None:
        """Where the process that claimed the match's first scoreboard posted it, once it has (it is one message
        away), or None if it has not within a few seconds."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + CLAIMED_POST_WAIT
        while loop.time() < give_up:
            async with self.db.reading() as session:
                match = await session.get(Match, match_id, populate_existing=True)
            if match is not None and match.scoreboard_channel_id and match.scoreboard_message_id:
                return match.scoreboard_channel_id, match.scoreboard_message_id
            await asyncio.sleep(0.05)
        return None

    async def scoreboard_posted(self, match_id: int, channel_id: int, message_id: int) -> None:
        """Remember the living scoreboard message so later changes edit it instead of posting anew."""
        async with self.db.writing() as session:
            match = await session.get(Match, match_id)
            if match is not None:
                match.scoreboard_channel_id, match.scoreboard_message_id = channel_id, message_id
                session.add(match)

    async def match_choices(self, guild_id: int, league_name: str | None) -> list[tuple[int, str]]:
        """Autocomplete: the league's matches from two days ago on, soonest first."""
        async with self.db.reading() as session:
            try:
                league = await find_league(session, guild_id, league_name)
            except (NotFound, InvalidInput):
                return []
            today = self.clock.now().astimezone(ZoneInfo(league.timezone)).date()
            matches = (
                await session.exec(
                    select(Match)
                    .where(Match.league_id == league.id, Match.play_on >= today - CHOICE_WINDOW)
                    .order_by(col(Match.play_on), col(Match.id))
                )
            ).all()
            choices = []
            for match in matches:
                context = await match_facts.context_for(session, league, match)
                choices.append((match.id or 0, f"{_day(match.play_on)} · week {match.week} · {context.label}"))
            return choices

    async def _game_scores(self, session: AsyncSession, game: GameRef) -> list[GameScore]:
        query = prepared(
            "game scores",
            lambda: select(GameScore).where(
                GameScore.match_id == param("match"),
                GameScore.round_index == param("round"),
                GameScore.game_number == param("game"),
            ),
        )
        found = await session.exec(
            query, params={"match": game.match_id, "round": game.round_index, "game": game.game_number}
        )
        return list(found.all())


async def _finished_games_done(
    session: AsyncSession, context: MatchContext, night: lineup.MatchNight
) -> lineup.MatchNight:
    """The night with every game whose scores are in marked done: a player who leaves after their game was
    entered leaves nothing unfinished (TEAM-AMB-20, TEAM-SCHED-5)."""
    entered = (
        await session.exec(
            select(GameScore.round_index, GameScore.game_number).where(
                GameScore.match_id == context.match.id, GameScore.status != ScoreStatus.VOID
            )
        )
    ).all()
    done = {(r, g) for r, g in entered}
    kept = tuple(p for p in night.progress if (p.round_index, p.game_number) not in done)
    finished = tuple(lineup.GameProgress(r, g, lineup.GameStatus.DONE) for r, g in sorted(done))
    return replace(night, progress=kept + finished)


async def _acting_and_night(
    session: AsyncSession, actor: Actor, context: MatchContext
) -> tuple[Acting, lineup.MatchNight]:
    """Who is acting in the match (TEAM-LINEUP-11) and its night, from one read of the rosters."""
    rosters = await match_facts.rosters(session, context)
    return await acting_in(session, actor, context, rosters), await match_facts.night(session, context, rosters)


def _declared_rounds(night: lineup.MatchNight, side: Side) -> set[int]:
    return {d.round_index for d in night.declarations if d.side is side}


def _round_to_declare(night: lineup.MatchNight, side: Side, context: MatchContext) -> int:
    """The round in play; a side that already declared it cannot change it (TEAM-LINEUP-4)."""
    round_index = _open_round(night, context)
    if round_index in _declared_rounds(night, side):
        raise RuleViolation(
            "TEAM-LINEUP-4", f"Lineups are locked once declared; round {round_index} is waiting for the other team."
        )
    return round_index


def _open_round(night: lineup.MatchNight, context: MatchContext) -> int:
    """The round being declared now: the first one not declared by both sides."""
    return _declaration_due(night, context)[0]


def _side_to_declare(night: lineup.MatchNight, context: MatchContext) -> Side:
    """For an official acting for a team: the side whose turn it is in the open round (TEAM-LINEUP-2)."""
    return _declaration_due(night, context)[1]


def _declaration_due(night: lineup.MatchNight, context: MatchContext) -> tuple[int, Side]:
    due = next_steps.declaration_due(night, context.options)
    if due is None:
        raise RuleViolation("TEAM-LINEUP-4", "Every round of this match is declared; lineups are locked.")
    return due


def _games(kind: RoundKind, players: list[int | None], machines: list[int | None]) -> tuple[lineup.GameEntry, ...]:
    """Four player slots make two Doubles pairs or four Singles players; empty slots stay empty (short teams)."""
    per_game = 2 if kind is RoundKind.DOUBLES else 1
    games = []
    for number in range(SLOTS_PER_ROUND // per_game):
        seats = players[number * per_game : (number + 1) * per_game]
        machine = machines[number] if number < len(machines) else None
        games.append(lineup.GameEntry(tuple(p for p in seats if p is not None), machine))
    return tuple(games)


def _with_write_in(games: tuple[lineup.GameEntry, ...], write_in: int | None) -> tuple[lineup.GameEntry, ...]:
    """A write-in takes a seat in game 2 (TEAM-SHORT-4) unless the captain already put them there or elsewhere:
    the rules then say what is wrong with where they are."""
    if write_in is None or any(write_in in g.players for g in games) or len(games) < lineup.WRITE_IN_GAME:
        return games
    seated = list(games)
    game = seated[lineup.WRITE_IN_GAME - 1]
    seated[lineup.WRITE_IN_GAME - 1] = replace(game, players=(*game.players, write_in))
    return tuple(seated)


def _game_entries(
    night: lineup.MatchNight, context: MatchContext, game: GameRef, now: datetime
) -> dict[Side, lineup.GameEntry]:
    """Each side's entry for one game as played: a write-in who missed game 2's start leaves only the partner."""
    _, round_index, game_number = game
    lineups = match_facts.effective_lineups(night, round_index)
    if len(lineups) < 2:
        raise RuleViolation("TEAM-LINEUP-2", f"Round {round_index} is not declared by both teams yet.")
    games = len(lineups[Side.HOME].games)
    if not 1 <= game_number <= games:
        raise InvalidInput(f"Round {round_index} has games 1 to {games}.")
    entries = {}
    for side in Side:
        played = lineup.as_played(night, side, round_index, now=now, options=context.options) or ()
        entries[side] = replace(lineups[side].games[game_number - 1], players=played[game_number - 1])
    return entries


def _entry_due(played: scoreboard.BoardGame) -> scoreboard.BoardGame:
    """The game, if its scores (or its replay's) are due now; else why not and what to do instead."""
    game = played.ref
    if played.state is GameState.CONFIRMATION_DUE:
        raise Conflict(_already_entered(game))
    if played.state is GameState.DONE:
        raise Conflict(
            f"Round {game.round_index} game {game.game_number} is confirmed. If it is wrong, dispute it "
            "(Dispute, or `/match dispute`), or record the correction both captains agree (`/match agreement`)."
        )
    return played


def _own_entry(played: scoreboard.BoardGame, context: MatchContext, acting: Acting) -> scoreboard.BoardGame:
    """COMMON-SCORE-3: scores awaiting confirmation may be fixed by the side that entered them (an official's
    entry by an official); once confirmed, a change is a dispute or an agreed correction."""
    game = played.ref
    where = f"Round {game.round_index} game {game.game_number}"
    if played.state is not GameState.CONFIRMATION_DUE:
        raise RuleViolation(
            "COMMON-SCORE-3",
            f"{where} has no scores waiting for confirmation. Once confirmed, a change is a dispute (Dispute) "
            "or a correction both captains agree (`/match agreement`).",
        )
    if played.entered_for is not acting.side:  # None for both: an official fixes an official's entry
        entered_by = context.teams[played.entered_for].name if played.entered_for else "a commissioner"
        raise PermissionDenied(
            f"{where} was entered by {entered_by}; only they can fix it before it is confirmed. "
            "If it is wrong, press Dispute."
        )
    return played


def _fixable(played: scoreboard.BoardGame, context: MatchContext, acting: Acting) -> scoreboard.BoardGame:
    """An entry its form can fix: the acting side's, for every player of the game (not one player's replay)."""
    game = played.ref
    _own_entry(played, context, acting)
    pending = {row.player_id for row in played.scores if row.confirmed_at is None}
    if pending != {player for side in Side for player in played.players[side]}:
        raise InvalidInput(
            f"Round {game.round_index} game {game.game_number} waits for one player's replay score; to change it, "
            "press Undo and enter it again (`/match replay`)."
        )
    return played


def _parsed(
    context: MatchContext, night: lineup.MatchNight, game: GameRef, typed: dict[Side, list[str]], now: datetime
) -> list[tuple[Side, int, int]]:
    """Each player's typed score, in lineup order (COMMON-SCORE-1); a refusal names the field and its player."""
    entries = _game_entries(night, context, game, now)
    parsed = []
    for side in Side:
        players = entries[side].players
        values = [text for text in typed[side] if text.strip()]
        if len(values) != len(players):
            raise InvalidInput(
                f"{context.teams[side].name} had {len(players)} player(s) in round {game.round_index} game "
                f"{game.game_number}; give {len(players)} score(s) for them, in lineup order."
            )
        for player, text in zip(players, values, strict=True):
            field = score_field(night, side, players, player)
            parsed.append((side, player, score_rules.parse_score(text, field=field, rules=context.options.score_input)))
    return parsed


def _photo_key(game: GameRef) -> dict[str, int]:
    return {"match_id": game.match_id, "round_index": game.round_index, "game_number": game.game_number}


def _already_entered(game: GameRef) -> str:
    return (
        f"Round {game.round_index} game {game.game_number} already has scores waiting for confirmation. The "
        "captain who entered them can Edit them until then; otherwise Confirm or Dispute them."
    )


def _day(day: date) -> str:
    return f"{day:%a %Y-%m-%d}"
