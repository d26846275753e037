"""What the ladder's and the field's group boards share: a group's games on a league night, each with one seat
per player (the score form's fields, labelled with the names), where it stands (scores due, a confirmation
due, confirmed: bot/rules/confirmation.py) and who is asked to confirm it."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from sqlmodel import SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.confirmation import check_may_change, check_may_confirm
from bot.rules.photos import Photo
from bot.rules.refusals import Conflict, InvalidInput, PermissionDenied
from bot.services import audit
from bot.services.actor import Actor


class GameState(StrEnum):
    SCORES_DUE = "scores due"
    CONFIRMATION_DUE = "confirmation due"
    CONFIRMED = "confirmed"


@dataclass(frozen=True)
class Seat:
    """One player's field on the game's form, labelled with the name."""

    player_id: int  # the format's player id (ladder entry, field player)
    label: str
    score: int | None

    @property
    def key(self) -> str:
        return f"p{self.player_id}"


@dataclass(frozen=True)
class BoardGame:
    game: int  # what its buttons carry: the game's number (ladder), the machine (field)
    name: str  # "Game 2 · Black Knight", "Black Knight"
    order: tuple[str, ...]  # who plays it, in order, once known (LADDER-ORDER-1/2); empty for any order
    seats: tuple[Seat, ...]
    state: GameState
    entered_by: frozenset[int]  # Discord ids of who entered its unconfirmed scores
    tie: bool  # complete, with players level: a one-ball playoff is due (LADDER-AMB-5, FIELD-SCORE-3)
    photo: Photo | None = None  # of the machine's display, sent with the scores from the board's form


@dataclass(frozen=True)
class GroupBoard:
    ids: tuple[int, ...]  # what its buttons carry before the game: the group (ladder), night and group (field)
    title: str  # "Week 1 · group 2"
    games: tuple[BoardGame, ...]  # empty until the group's games are set (LADDER-GSEL-4)
    players: dict[int, str]  # the present players' Discord ids → names
    where: tuple[int | None, int | None]  # the living board's channel and message, once posted
    any_order: bool  # the games are played in any order (FIELD-MSEL-2), else in the board's order
    playoff_command: str  # where a tie's one-ball playoff is entered

    def game(self, game: int) -> BoardGame:
        found = next((g for g in self.games if g.game == game), None)
        if found is None:
            names = ", ".join(g.name for g in self.games) or "none yet"
            raise InvalidInput(f"That is not one of this group's games tonight ({names}).")
        return found

    def confirmers(self, game: int) -> tuple[int, ...]:
        """Who is asked to confirm a game awaiting it: the group's other present players."""
        played = self.game(game)
        if played.state is not GameState.CONFIRMATION_DUE:
            return ()
        return tuple(user for user in self.players if user not in played.entered_by)

    @property
    def awaiting_scores(self) -> list[BoardGame]:
        return [g for g in self.games if g.state is GameState.SCORES_DUE]


@dataclass(frozen=True)
class ScoreSheet:
    title: str
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class Entered:
    board: GroupBoard
    game: int
    asked: tuple[int, ...]  # who may confirm: the group's other present players
    ping: bool  # they are pinged once, when the game's last score is in


def game_state(seats: Collection[Seat], unconfirmed: bool) -> GameState:
    if any(seat.score is None for seat in seats):
        return GameState.SCORES_DUE
    return GameState.CONFIRMATION_DUE if unconfirmed else GameState.CONFIRMED


def changeable(board: GroupBoard, game: int, actor: int, *, official: bool, correcting: bool) -> BoardGame:
    """The game, if this member may enter its scores (a player of the group, or an official) or fix or take back
    those they entered; a game whose scores are all in awaits its confirmation or its entrant's Edit."""
    played = board.game(game)
    if not official and actor not in board.players:
        raise PermissionDenied("Players enter scores for their own group only; an official can enter any.")
    confirmed = played.state is GameState.CONFIRMED
    if correcting or confirmed:
        check_may_change(actor, played.entered_by if correcting else (), confirmed=confirmed, official=official)
    elif played.state is GameState.CONFIRMATION_DUE:
        raise Conflict(
            f"Every player of the group has a score in {played.name}: **Confirm** them, or whoever entered them "
            "fixes them with **Edit**."
        )
    return played


def confirmable(board: GroupBoard, game: int, actor: int, *, official: bool) -> BoardGame:
    """The game, once all its scores are in, if this member may confirm them (another player of the group)."""
    played = board.game(game)
    if played.state is GameState.SCORES_DUE:
        missing = ", ".join(seat.label for seat in played.seats if seat.score is None)
        raise Conflict(f"{played.name} still awaits scores ({missing}): **Enter scores** first.")
    check_may_confirm(actor, played.entered_by, board.players, official=official)
    return played


class EnteredScore(Protocol):
    """A format's stored score row of a group game: who entered it, and who confirmed it (None: not yet)."""

    entered_by: int
    confirmed_by: int | None


async def confirm_rows(session: AsyncSession, actor: Actor, rows: Sequence[EnteredScore], now: datetime) -> None:
    """The game's unconfirmed scores, confirmed by `actor` (the check that they may came first), audited."""
    for row in rows:
        if row.confirmed_by is None:
            stored = _row(row)
            before = audit.snapshot(stored)
            row.confirmed_by = actor.user_id
            session.add(stored)
            audit.updated(session, actor, stored, before=before, at=now)


async def undo_rows(
    session: AsyncSession, actor: Actor, rows: Sequence[EnteredScore], now: datetime, *, official: bool
) -> int:
    """The game's unconfirmed scores that `actor` entered (any, for an official), deleted, audited; how many of
    the game's scores are left."""
    left = 0
    for row in rows:
        if row.confirmed_by is None and (row.entered_by == actor.user_id or official):
            stored = _row(row)
            audit.deleted(session, actor, stored, at=now)
            await session.delete(stored)
        else:
            left += 1
    await session.flush()
    return left


def _row(row: EnteredScore) -> SQLModel:
    assert isinstance(row, SQLModel), "score rows are stored rows"
    return row
