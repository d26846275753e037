"""A ladder group's living board on a league night: its games in play order (LADDER-ORDER-1/2), who plays
next, which games await scores or a confirmation, and the board's actions (Enter scores, Confirm, Edit, Undo).

A game's scores are entered in one form by any player of the group and confirmed by another
(bot/rules/confirmation.py); `/ladder score` still enters one player's score at a time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.ladder.games import first_game_order, next_game_order
from bot.rules.ladder.scoring import TieNeedsPlayoff
from bot.rules.photos import Photo, check_photo
from bot.rules.refusals import NotFound, RuleViolation
from bot.rules.scores import parse_score
from bot.services.actor import Actor
from bot.services.group_boards import (
    BoardGame,
    Entered,
    GameState,
    GroupBoard,
    ScoreSheet,
    Seat,
    changeable,
    confirm_rows,
    confirmable,
    game_state,
    undo_rows,
)
from bot.services.ladder.facts import (
    Entrant,
    LadderLeague,
    check_active,
    entrant_of,
    entrants,
    group_of,
    ladder_league,
    ladder_league_of,
    night_groups,
    open_night,
    require_standing,
)
from bot.services.ladder.play import check_late_arrival, check_may_enter, checked_in, finish_from, store_game_scores
from bot.services.permissions import is_commissioner
from bot.services.photos import by_key, drop_photo, keep_photo
from storage.db import Database
from storage.ladder import LadderGamePhoto, LadderGroup, LadderNight, LadderScore
from storage.models import League


@dataclass(frozen=True)
class _Group:
    ladder: LadderLeague
    night: LadderNight
    group: LadderGroup
    everyone: dict[int, Entrant]


class LadderBoardService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def board(self, ids: tuple[int, ...]) -> GroupBoard:
        """The board as it stands, for the publisher (no actor: it only reads what the group's players see)."""
        async with self.db.reading() as session:
            return await _board(session, await _load(session, None, ids, self.clock.now()))

    async def game_choices(self, guild_id: int, league_name: str | None, user_id: int) -> list[tuple[int, str]]:
        """`/ladder score`'s game option: the games of this player's group tonight, with where each stands."""
        async with self.db.reading() as session:
            ladder = await ladder_league(session, guild_id, league_name, self.clock.now())
            everyone = await entrants(session, ladder)
            entrant = entrant_of(everyone, user_id)
            group = group_of(await night_groups(session, await open_night(session, ladder)), entrant.id)
            found = await _load(session, guild_id, (group.id or 0,), self.clock.now())
            board = await _board(session, found, photos=False)
            return [(g.game, f"{g.name} ({g.state.value})") for g in board.games]

    async def score_sheet(self, actor: Actor, ids: tuple[int, ...], game: int, *, correcting: bool) -> ScoreSheet:
        """What the form shows: the game's title and one field per player, with the stored scores."""
        async with self.db.reading() as session:
            found = await _load(session, actor.guild_id, ids, self.clock.now())
            official = _official(actor, found)
            board = await _board(session, found, photos=False)
            played = changeable(board, game, actor.user_id, official=official, correcting=correcting)
            what = "fix" if correcting else "scores"
            return ScoreSheet(f"{played.name} {what}", played.seats)

    async def enter(
        self,
        actor: Actor,
        ids: tuple[int, ...],
        game: int,
        typed: dict[str, str],
        *,
        correcting: bool,
        photo: Photo | None = None,
    ) -> Entered:
        """LADDER-SCORE-1, COMMON-SCORE-1: every present player's score in one game, all or none stored; a fix
        changes only the scores that differ, and only while they are unconfirmed (COMMON-SCORE-3). A photo of the
        display sent with them is kept with the game (a fix's replaces it)."""
        now = self.clock.now()
        photo = check_photo(photo) if photo else None
        async with self.db.writing() as session:
            found = await _load(session, actor.guild_id, ids, now)
            official = _official(actor, found)
            board = await _board(session, found, photos=False)
            played = changeable(board, game, actor.user_id, official=official, correcting=correcting)
            targets = [found.everyone[seat.player_id] for seat in played.seats]
            for target in targets:
                check_active(target)
                check_may_enter(actor, found.ladder, found.everyone, found.group, target)
            await require_standing(session, found.ladder, targets, now, doing="have a score entered")
            rules = found.ladder.options.score_input
            values = [
                parse_score(typed.get(seat.key, ""), field=f"{seat.label}'s score", rules=rules)
                for seat in played.seats
            ]
            changed = [
                (target, value)
                for seat, target, value in zip(played.seats, targets, values, strict=True)
                if value != seat.score
            ]
            if changed:  # LADDER-ATT-2: not a game finished before a late arrival came
                entering = [target for target, _ in changed]
                this_game = range(game, game + 1)
                await check_late_arrival(session, found.ladder, found.night, found.group, entering, this_game)
                await store_game_scores(
                    session, actor, found.ladder, found.night, found.group, found.everyone, game, changed, now
                )
            await keep_photo(session, actor, LadderGamePhoto, _photo_key(found.group, game), photo, now)
            board = await _board(session, found)
            completed = played.state is GameState.SCORES_DUE and board.game(game).state is not GameState.SCORES_DUE
            asked = tuple(user for user in board.confirmers(game) if user != actor.user_id)
            return Entered(board, game, asked, completed)

    async def confirm(self, actor: Actor, ids: tuple[int, ...], game: int) -> GroupBoard:
        """Another player of the group confirms the game's scores; they are locked from then on."""
        now = self.clock.now()
        async with self.db.writing() as session:
            found = await _load(session, actor.guild_id, ids, now)
            checked = await _board(session, found, photos=False)
            confirmable(checked, game, actor.user_id, official=_official(actor, found))
            await confirm_rows(session, actor, await _rows(session, found.group, game), now)
            return await _board(session, found)

    async def undo(self, actor: Actor, ids: tuple[int, ...], game: int) -> GroupBoard:
        """Take back the game's unconfirmed scores this player entered."""
        now = self.clock.now()
        async with self.db.writing() as session:
            found = await _load(session, actor.guild_id, ids, now)
            official = _official(actor, found)
            checked = await _board(session, found, photos=False)
            changeable(checked, game, actor.user_id, official=official, correcting=True)
            left = await undo_rows(session, actor, await _rows(session, found.group, game), now, official=official)
            if not left:  # the photo goes with the game's last scores (others' stay with theirs)
                reason = "taken back before confirmation"
                await drop_photo(session, actor, LadderGamePhoto, _photo_key(found.group, game), now, reason=reason)
            return await _board(session, found)

    async def board_posted(self, ids: tuple[int, ...], channel_id: int, message_id: int) -> None:
        async with self.db.writing() as session:
            group = await session.get(LadderGroup, ids[0])
            if group is not None:
                group.board_channel_id, group.board_message_id = channel_id, message_id
                session.add(group)


def _photo_key(group: LadderGroup, game: int) -> dict[str, int]:
    return {"group_id": group.id or 0, "slot": game - 1}


def _official(actor: Actor, found: _Group) -> bool:
    return is_commissioner(actor, found.ladder.league)


async def _load(session: AsyncSession, guild_id: int | None, ids: tuple[int, ...], now: datetime) -> _Group:
    """The group, in a ladder league of this server (a button of another server's board finds nothing); any
    server's for the publisher (`guild_id` None)."""
    (group_id,) = ids
    group = await session.get(LadderGroup, group_id)
    night = await session.get(LadderNight, group.night_id) if group else None
    league = await session.get(League, night.league_id) if night else None
    if group is None or night is None or league is None or guild_id not in (None, league.guild_id):
        raise NotFound("That group is not on tonight's ladder: see `/ladder groups`.")
    ladder = await ladder_league_of(session, league, now)
    if night.closed_at is not None:
        raise RuleViolation(
            "COMMON-SCORE-3", f"Week {night.week}'s night is closed: its scores are final (a commissioner corrects)."
        )
    return _Group(ladder, night, group, await entrants(session, ladder))


async def _rows(session: AsyncSession, group: LadderGroup, game: int) -> list[LadderScore]:
    query = select(LadderScore).where(LadderScore.group_id == group.id, LadderScore.slot == game - 1)
    return list((await session.exec(query)).all())


async def _board(session: AsyncSession, found: _Group, *, photos: bool = True) -> GroupBoard:
    """The group's board; `photos=False` for a board only checked, never shown (the photos are one more read)."""
    group, night, everyone = found.group, found.night, found.everyone
    present_ids = await checked_in(session, found.ladder, night)
    present = [p for p in group.members if p in present_ids]
    rows = (await session.exec(select(LadderScore).where(LadderScore.group_id == group.id))).all()
    names = {m["id"]: m["name"] for m in night.machines}
    photo_query = select(LadderGamePhoto).where(LadderGamePhoto.group_id == group.id)
    kept = by_key((await session.exec(photo_query)).all() if photos else (), "slot")
    games: list[BoardGame] = []
    order: list[int] | None = first_game_order({p: group.ranks[str(p)] for p in present})
    for slot, machine_id in enumerate(group.slots or ()):
        scores = {row.ladder_player_id: row for row in rows if row.slot == slot}
        seats = tuple(Seat(p, everyone[p].name, scores[p].score if p in scores else None) for p in (order or present))
        unconfirmed = [row for row in scores.values() if row.confirmed_by is None]
        state = game_state(seats, bool(unconfirmed))
        done = state is not GameState.SCORES_DUE
        finished = finish_from(group, slot, rows, present_ids) if done else None
        games.append(
            BoardGame(
                slot + 1,
                f"Game {slot + 1} · {names.get(machine_id, '?')}",
                tuple(everyone[p].name for p in order) if order else (),
                seats,
                state,
                frozenset(row.entered_by for row in unconfirmed),
                isinstance(finished, TieNeedsPlayoff),
                kept.get((slot,)),
            )
        )
        order = next_game_order(finished) if isinstance(finished, tuple) else None
    players = {everyone[p].discord_user_id: everyone[p].name for p in present}
    where = (group.board_channel_id, group.board_message_id)
    title = f"Week {night.week} · group {group.number}"
    return GroupBoard((group.id or 0,), title, tuple(games), players, where, False, "/ladder tiebreak")
