"""A match's state as people see it: lineups, each game's scores, state and result, disputes and the captains.

The living scoreboard, its buttons and the replies are all drawn from one `Scoreboard`, so what the board says
is due is exactly what its buttons offer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from functools import cached_property

from sqlmodel import SQLModel, col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.photos import Photo
from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team import attendance, lineup, scoring
from bot.rules.team.model import RosterRole, ScoreStatus, Side
from bot.services.photos import by_key
from bot.services.team import match_facts
from bot.services.team.match_access import GameRef
from bot.services.team.match_facts import MatchContext
from storage.matches import ExtraBallOptOut, GamePhoto, GameScore, MatchChallenge, TiebreakerSetup

# The tables a board reads besides the night and the scores; on most nights all or most of them are empty.
BOARD_TABLES: tuple[type[SQLModel], ...] = (
    *match_facts.RARE_FACT_TABLES,
    TiebreakerSetup,
    GamePhoto,
    MatchChallenge,
    ExtraBallOptOut,
)


class GameState(StrEnum):
    """Where one declared game stands, which decides the action its board shows."""

    SCORES_DUE = "scores_due"  # both lineups declared, nothing entered yet
    REPLAY_DUE = "replay_due"  # confirmed level: replay on the same machine, same players (TEAM-AMB-4)
    CONFIRMATION_DUE = "confirmation_due"  # entered; the other side's captain confirms
    DONE = "done"  # confirmed, or a forfeited Singles game (TEAM-SHORT-5)


@dataclass(frozen=True)
class BoardGame:
    """One declared game. `entered_for`: the side whose captain entered the scores awaiting confirmation (None
    for an official's entry); `result`: None until both sides have scores."""

    ref: GameRef
    machine: str
    players: dict[Side, tuple[int, ...]]
    state: GameState
    result: scoring.GameResult | None
    entered_for: Side | None
    penalties: tuple[scoring.Penalty, ...]
    scores: tuple[GameScore, ...]  # the live (not VOID) rows, oldest first
    in_progress: bool = False  # started with `/match start` and no scores yet (TEAM-MACH-2)
    # TEAM-LINEUP-10, TEAM-MACH-9: who plays in what order, cut into the games its machine can hold at once.
    order: tuple[tuple[lineup.Seat, ...], ...] = ()
    photo: Photo | None = None  # of the machine's display, sent with the scores from the board's form


@dataclass(frozen=True)
class Scoreboard:
    """A match's state for the living scoreboard message and for replies."""

    context: MatchContext
    names: dict[int, str]  # player id → display name
    night: lineup.MatchNight
    facts: scoring.MatchFacts
    result: scoring.MatchResult
    scores: list[GameScore]
    open_challenges: list[MatchChallenge]
    games: tuple[BoardGame, ...]
    captains: dict[Side, tuple[int, ...]]  # Discord user ids of each side's captains
    tiebreak: TiebreakerSetup | None
    extra_balls_off: frozenset[Side] = frozenset()  # the captains who opted out of extra balls (TEAM-PEN-3)
    excused: dict[Side, tuple[int, ...]] = field(default_factory=dict)  # starters left unplayed (TEAM-AMB-12)
    window: attendance.WindowState = attendance.WindowState.DECIDED  # the start window (TEAM-SCHED-3)

    def game(self, ref: GameRef) -> BoardGame:
        return _found(self.games, self.night, ref)

    @cached_property
    def ready_to_sign(self) -> bool:
        """Everything but the captains' signatures is in (TEAM-MATCH-2/3/4): no dispute open, every entered score
        confirmed, and nothing else missing once both have signed. Games a walkout closed need no scores
        (TEAM-FORF-4), and a forfeited match has none."""
        if self.open_challenges or any(score.confirmed_at is None for score in self.scores):
            return False
        return not self._result_signed_by(frozenset(Side)).missing

    @cached_property
    def unsigned(self) -> tuple[Side, ...]:
        """The sides whose signature the result still waits for, AWAY first: not a team that forfeited or left."""
        return tuple(
            side
            for side in (Side.AWAY, Side.HOME)
            if side not in self.facts.confirmed_by and self._result_signed_by(frozenset({side.other})).missing
        )

    def _result_signed_by(self, sides: frozenset[Side]) -> scoring.MatchResult:
        signed = replace(self.facts, confirmed_by=self.facts.confirmed_by | sides)
        return scoring.match_result(signed, self.context.options)


async def open_challenges(session: AsyncSession, match_id: int) -> list[MatchChallenge]:
    query = select(MatchChallenge).where(MatchChallenge.match_id == match_id, col(MatchChallenge.ruled_at).is_(None))
    return list((await session.exec(query)).all())


async def build(
    session: AsyncSession,
    context: MatchContext,
    now: datetime,
    *,
    night: lineup.MatchNight | None = None,
    scores: Sequence[GameScore] | None = None,
    photos: bool = True,
) -> Scoreboard:
    """The match's board; `night`, and all its GameScore rows (`scores`), if the caller read them in this state of
    the match already; `photos=False` for a board only checked, never shown (the photos are one more read)."""
    night = night or await match_facts.night(session, context)
    match_id = context.match.id or 0
    with_rows = await match_facts.tables_with_rows(session, match_id, BOARD_TABLES)
    facts, shown = await _facts_and_scores(session, context, now, night, with_rows, scores)
    tiebreak = (
        (await session.exec(select(TiebreakerSetup).where(TiebreakerSetup.match_id == match_id))).first()
        if TiebreakerSetup in with_rows
        else None
    )
    photo_rows = (
        (await session.exec(select(GamePhoto).where(GamePhoto.match_id == match_id))).all()
        if photos and GamePhoto in with_rows
        else ()
    )
    kept = by_key(photo_rows, "round_index", "game_number")
    return Scoreboard(
        context=context,
        names=names(night),
        night=night,
        facts=facts,
        result=scoring.match_result(facts, context.options),
        scores=shown,
        open_challenges=await open_challenges(session, match_id) if MatchChallenge in with_rows else [],
        games=_games(context, night, facts, shown, now, kept),
        captains=_captain_users(night),
        tiebreak=tiebreak,
        extra_balls_off=await extra_ball_opt_outs(session, match_id) if ExtraBallOptOut in with_rows else frozenset(),
        excused=_excused(context, night, now),
        window=match_facts.attendance_call(context, night.visits, now).state,
    )


async def game(
    session: AsyncSession, context: MatchContext, ref: GameRef, now: datetime, *, night: lineup.MatchNight
) -> BoardGame:
    """One game as the board shows it, for a command about that game alone (its form, a check before writing):
    the match's facts without the reads and the other games only the whole board needs."""
    with_rows = await match_facts.tables_with_rows(session, context.match.id or 0, match_facts.RARE_FACT_TABLES)
    facts, scores = await _facts_and_scores(session, context, now, night, with_rows)
    games = _games(context, night, facts, scores, now, {}, only=ref)
    if not games:  # not one of the match's games: refused as the whole board refuses it
        games = _games(context, night, facts, scores, now, {})
    return _found(games, night, ref)


def names(night: lineup.MatchNight) -> dict[int, str]:
    """Player id → display name, from the rosters."""
    return {entry.player_id: entry.name for entries in night.rosters.values() for entry in entries}


async def _facts_and_scores(
    session: AsyncSession,
    context: MatchContext,
    now: datetime,
    night: lineup.MatchNight,
    with_rows: frozenset[type[SQLModel]],
    every_score: Sequence[GameScore] | None = None,
) -> tuple[scoring.MatchFacts, list[GameScore]]:
    """The match's facts and its live scores in board order, from one read of its scores (`every_score`, VOID
    ones included, if the caller read them)."""
    if every_score is None:
        every_score = (
            await session.exec(match_facts.of_match(GameScore), params=match_facts.match_params(context.match.id))
        ).all()
    facts = await match_facts.facts(session, context, now, known=night, scores=every_score, with_rows=with_rows)
    scores = sorted(
        (s for s in every_score if s.status is not ScoreStatus.VOID),  # a replayed game's first (TEAM-MACH-5)
        key=lambda s: (s.round_index, s.game_number, s.side != Side.HOME, s.id or 0),
    )
    return facts, scores


def _found(games: tuple[BoardGame, ...], night: lineup.MatchNight, ref: GameRef) -> BoardGame:
    found = next((game for game in games if game.ref == ref), None)
    if found is None:
        if len(match_facts.effective_lineups(night, ref.round_index)) < 2:
            raise RuleViolation("TEAM-LINEUP-2", f"Round {ref.round_index} is not declared by both teams yet.")
        in_round = sum(1 for game in games if game.ref.round_index == ref.round_index)
        raise InvalidInput(f"Round {ref.round_index} has games 1 to {in_round}.")
    return found


def _excused(context: MatchContext, night: lineup.MatchNight, now: datetime) -> dict[Side, tuple[int, ...]]:
    """TEAM-AMB-12: once every round is declared, the starters who came but had no slot left to play are
    excused, with no penalty; the board records them."""
    plans = lineup.round_plan(context.options)
    declared = {(d.round_index, d.side) for d in night.declarations}
    if any((plan.index, side) not in declared for plan in plans for side in Side):
        return {}
    found = {side: lineup.unplayed_starters(night, side, now=now, options=context.options) for side in Side}
    return {side: players for side, players in found.items() if players}


async def extra_ball_opt_outs(session: AsyncSession, match_id: int) -> frozenset[Side]:
    """TEAM-PEN-3: the sides whose captain agreed to play the match without extra balls."""
    rows = (await session.exec(select(ExtraBallOptOut.side).where(ExtraBallOptOut.match_id == match_id))).all()
    return frozenset(Side(side) for side in rows)


def _games(
    context: MatchContext,
    night: lineup.MatchNight,
    facts: scoring.MatchFacts,
    scores: list[GameScore],
    now: datetime,
    photos: dict[tuple[int, ...], Photo],
    *,
    only: GameRef | None = None,
) -> tuple[BoardGame, ...]:
    """The board's games; `only`: that one game alone."""
    machines = {m.machine_id: m.name for m in night.machines}
    capacity = {m.machine_id: m.max_players for m in night.machines}
    running = {(p.round_index, p.game_number) for p in night.progress if p.status is lineup.GameStatus.IN_PROGRESS}
    rows_of: dict[tuple[int, int], list[GameScore]] = {}
    for score in scores:
        rows_of.setdefault((score.round_index, score.game_number), []).append(score)
    games = []
    for plan, played in zip(lineup.round_plan(context.options), facts.rounds, strict=False):
        if only is not None and only.round_index != plan.index:
            continue
        declared = match_facts.effective_lineups(night, plan.index)
        as_played = {side: lineup.as_played(night, side, plan.index, now=now, options=context.options) for side in Side}
        orders = lineup.round_order(night, plan.index, now=now, options=context.options) if played else ()
        for number, game in enumerate(played, start=1):
            ref = GameRef(context.match.id or 0, plan.index, number)
            if only is not None and ref != only:
                continue
            rows = tuple(rows_of.get((plan.index, number), ()))
            machine_id = declared[plan.first_declarer].games[number - 1].machine
            seats = orders[number - 1]
            result = scoring.game_result(game, context.options) if game.is_entered else None
            games.append(
                BoardGame(
                    ref=ref,
                    machine=machines.get(machine_id or 0, "—"),
                    players={side: (as_played[side] or ())[number - 1] for side in Side},
                    state=_state(game, rows, result),
                    result=result,
                    entered_for=next((row.entered_for for row in rows if row.confirmed_at is None), None),
                    penalties=game.penalties,
                    scores=rows,
                    in_progress=(plan.index, number) in running and not rows,
                    order=lineup.games_for_machine_capacity(capacity.get(machine_id or 0, 4), seats) if seats else (),
                    photo=photos.get((plan.index, number)),
                )
            )
    return tuple(games)


def _state(game: scoring.GameScores, rows: tuple[GameScore, ...], result: scoring.GameResult | None) -> GameState:
    """`result`: the game's, if both sides have scores."""
    if game.forfeited_by:
        return GameState.DONE
    if not rows:
        return GameState.SCORES_DUE
    if any(row.confirmed_at is None for row in rows):
        return GameState.CONFIRMATION_DUE
    if result is not None and result.needs_replay:
        return GameState.REPLAY_DUE
    return GameState.DONE if result is not None else GameState.SCORES_DUE


def _captain_users(night: lineup.MatchNight) -> dict[Side, tuple[int, ...]]:
    """The Discord users to ask when a side's captain must act, in the order of their players."""
    captains = {
        side: sorted((e.player_id, e.user_id) for e in entries if e.role is RosterRole.CAPTAIN)
        for side, entries in night.rosters.items()
    }
    return {side: tuple(user for _, user in found if user) for side, found in captains.items()}
