"""A field group's living board on a meet night: tonight's five machines, played in any order (FIELD-MSEL-2),
each with the group's scores and where it stands; Enter scores stores the group's game on a machine through
`FieldNightService.enter_scores` (FIELD-SCORE-1, all or none), another player of the group confirms it
(bot/rules/confirmation.py), and until then its entrant can fix or take it back. Once confirmed, a wrong score is
corrected only with the whole group's consent (FIELD-SCORE-4, `/field correct`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import scores as score_rules
from bot.rules.field import groups as group_rules
from bot.rules.field import meet as meet_rules
from bot.rules.field.scoring import MachineId, MachineResult
from bot.rules.photos import Photo, check_photo
from bot.rules.refusals import NotFound, PermissionDenied, RuleViolation
from bot.services import audit
from bot.services.actor import Actor
from bot.services.field.facts import (
    FieldContext,
    NightResult,
    SeasonFacts,
    field_context,
    with_fresh_scores,
)
from bot.services.field.nights import FieldNightService, ScoreEntered, note_ties
from bot.services.field.tonight import TonightFacts
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
from bot.services.lookup import current_season
from bot.services.permissions import is_commissioner
from bot.services.photos import by_key, drop_photo, keep_photo
from storage.db import Database
from storage.field import FieldGamePhoto, FieldNight, FieldScore
from storage.models import League, Player
from storage.prepared import param, params_in, prepared


@dataclass(frozen=True)
class _Group:
    context: FieldContext
    season: SeasonFacts
    night: FieldNight
    number: int
    players: dict[int, Player]  # player id → player, in check-in order


class FieldBoardService:
    def __init__(self, db: Database, clock: Clock, nights: FieldNightService) -> None:
        self.db = db
        self.clock = clock
        self.nights = nights  # entries go through the night's own service, which owns their rules

    async def board(self, ids: tuple[int, ...]) -> GroupBoard:
        """The board as it stands, for the publisher (no actor: it only reads what the group's players see)."""
        async with self.db.reading() as session:
            return await _board(session, await _load(session, self.nights.tonight, None, ids, self.clock.now()))

    async def entered_board(self, entered: ScoreEntered) -> GroupBoard:
        """The board of the group a command's scores went to (`/field score`, `/field game`), on tonight's facts
        and rankings that command read and computed as it wrote: only the group's scores and photos are read again,
        not the whole night."""
        assert entered.group is not None
        async with self.db.reading() as session:
            found = await _group(session, entered.view.season, entered.group)
            return await _board(session, found, machines=entered.view.result.machines)

    async def score_sheet(self, actor: Actor, ids: tuple[int, ...], game: int, *, correcting: bool) -> ScoreSheet:
        """The form: one field per player of the group still without a score on the machine, or, to fix, every
        player's stored score."""
        async with self.db.reading() as session:
            found = await _load(session, self.nights.tonight, actor.guild_id, ids, self.clock.now())
            official = _official(actor, found)
            board = await _board(session, found, shown=False)
            _check_official_edit(board, game, official=official, correcting=correcting)
            played = changeable(board, game, actor.user_id, official=official, correcting=correcting)
            seats = played.seats if correcting else tuple(s for s in played.seats if s.score is None)
            return ScoreSheet(f"{played.name} {'fix' if correcting else 'scores'}", seats)

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
        """The group's scores on the machine, with the photo of the display if one was sent (a fix's photo replaces
        the one kept)."""
        photo = check_photo(photo) if photo else None
        now = self.clock.now()
        async with self.db.writing() as session:  # checked, stored and shown in one transaction: tonight read once
            found = await _load(session, self.nights.tonight, actor.guild_id, ids, now)
            official = _official(actor, found)
            checked = await _board(session, found, shown=False)
            _check_official_edit(checked, game, official=official, correcting=correcting)
            played = changeable(checked, game, actor.user_id, official=official, correcting=correcting)
            if correcting:
                season, result = await self._fix(session, actor, found, played, typed, photo, now)
            else:
                entries = [(found.players[seat.player_id], typed.get(seat.key, "")) for seat in played.seats]
                unscored = [entry for entry, seat in zip(entries, played.seats, strict=True) if seat.score is None]
                stored = await self.nights.store_scores(session, actor, found.season, game, unscored, now, photo=photo)
                season, result = stored.view.season, stored.view.result
            board = await _board(session, replace(found, season=season), machines=result.machines)
            version = await self.nights.tonight.after_write(session, season)
        self.nights.tonight.keep(version, season)
        completed = played.state is GameState.SCORES_DUE and board.game(game).state is not GameState.SCORES_DUE
        asked = tuple(user for user in board.confirmers(game) if user != actor.user_id)
        return Entered(board, game, asked, completed)

    async def confirm(self, actor: Actor, ids: tuple[int, ...], game: int) -> GroupBoard:
        now = self.clock.now()
        async with self.db.writing() as session:
            found = await _load(session, self.nights.tonight, actor.guild_id, ids, now)
            scored = await _rows_by_machine(session, found, tuple(found.night.machine_ids))
            checked = await _board(session, found, shown=False, scored=scored)
            confirmable(checked, game, actor.user_id, official=_official(actor, found))
            await confirm_rows(session, actor, scored.get(game, []), now)  # the rows the board shows, confirmed
            board = await _board(session, found, scored=scored)
            version = await self.nights.tonight.after_write(session, found.season)  # a confirmation is no fact
        self.nights.tonight.keep(version, found.season)
        return board

    async def undo(self, actor: Actor, ids: tuple[int, ...], game: int) -> GroupBoard:
        """Take back the machine's unconfirmed scores this player entered for the group."""
        now = self.clock.now()
        async with self.db.writing() as session:
            found = await _load(session, self.nights.tonight, actor.guild_id, ids, now)
            official = _official(actor, found)
            checked = await _board(session, found, shown=False)
            changeable(checked, game, actor.user_id, official=official, correcting=True)
            left = await undo_rows(session, actor, await _rows(session, found, game), now, official=official)
            if not left:  # the photo goes with the group's last scores on the machine (others' stay with theirs)
                reason = "taken back before confirmation"
                await drop_photo(session, actor, FieldGamePhoto, _photo_key(found, game), now, reason=reason)
            season = await with_fresh_scores(session, found.season)
            board = await _board(session, replace(found, season=season))
            version = await self.nights.tonight.after_write(session, season)
        self.nights.tonight.keep(version, season)
        return board

    async def board_posted(self, ids: tuple[int, ...], channel_id: int, message_id: int) -> None:
        night_id, number = ids
        async with self.db.writing() as session:
            night = await session.get(FieldNight, night_id)
            if night is not None:
                night.boards = {**(night.boards or {}), str(number): [channel_id, message_id]}
                session.add(night)

    async def _fix(
        self,
        session: AsyncSession,
        actor: Actor,
        found: _Group,
        played: BoardGame,
        typed: dict[str, str],
        photo: Photo | None,
        now: datetime,
    ) -> tuple[SeasonFacts, NightResult]:
        """The entrant's fix of scores not yet confirmed: only the values that differ change (audited). Returns
        the facts with the scores read again, and tonight's result on them."""
        machine = played.name
        rows = {row.player_id: row for row in await _rows(session, found, played.game)}
        official = _official(actor, found)
        for seat in played.seats:
            value = score_rules.parse_score(
                typed.get(seat.key, ""),
                field=f"{seat.label}'s score on {machine}",
                rules=found.context.options.score_input,
            )
            row = rows.get(seat.player_id)
            if row is None or row.score == value:
                continue
            if row.confirmed_by is not None or (row.entered_by != actor.user_id and not official):
                raise PermissionDenied(f"{seat.label}'s score was not entered by you: only its entrant fixes it.")
            before = audit.snapshot(row)
            row.score = value
            session.add(row)
            audit.updated(session, actor, row, before=before, at=now)
        await keep_photo(session, actor, FieldGamePhoto, _photo_key(found, played.game), photo, now)
        await session.flush()
        season = await with_fresh_scores(session, found.season)
        result = season.night_result(season.open_night())
        await note_ties(session, actor, season, result, played.game, now)
        return season, result


def _check_official_edit(board: GroupBoard, game: int, *, official: bool, correcting: bool) -> None:
    """COMMON-SCORE-3 in the field: once confirmed, a score changes only by a correction every player of the group
    confirms (FIELD-SCORE-4); an official's Edit is no such consent, so it stays pending and is refused."""
    if not (official and correcting and board.game(game).state is GameState.CONFIRMED):
        return
    try:
        meet_rules.check_official_edit(meet_rules.CorrectionState.PENDING)
    except RuleViolation as refused:
        raise RuleViolation(
            refused.rule_id or "FIELD-SCORE-4",
            f"{refused.message}: ask for it with `/field correct`, and the group confirms with `/field confirm`.",
        ) from None


def _photo_key(found: _Group, machine_id: int) -> dict[str, int]:
    return {"night_id": found.night.id or 0, "group_number": found.number, "machine_id": machine_id}


def _official(actor: Actor, found: _Group) -> bool:
    return is_commissioner(actor, found.context.league)


async def _load(
    session: AsyncSession, tonight: TonightFacts, guild_id: int | None, ids: tuple[int, ...], now: datetime
) -> _Group:
    """The group of tonight's open night, in a field league of this server (any server's for the publisher)."""
    night_id, number = ids
    night = await session.get(FieldNight, night_id)
    league = await session.get(League, night.league_id) if night else None
    if night is None or league is None or guild_id not in (None, league.guild_id):
        raise NotFound("That group is not on tonight's night: see `/field night show`.")
    context = await field_context(session, league, await current_season(session, league), now)
    season = await tonight.load(session, context)
    if season.open_night().night.id != night_id:
        raise RuleViolation("COMMON-SCORE-3", f"Week {night.week}'s night is closed: its scores are final.")
    return await _group(session, season, number)


async def _group(session: AsyncSession, season: SeasonFacts, number: int) -> _Group:
    """Group `number` of tonight's night in `season`, with its players."""
    facts = season.open_night()
    members = [c.player_id for c in sorted(facts.checkins, key=lambda c: c.id or 0) if c.group_number == number]
    query = prepared("players by id", lambda: select(Player).where(col(Player.id).in_(params_in("players"))))
    rows = (await session.exec(query, params={"players": members})).all()
    by_id = {player.id: player for player in rows}
    players = {p: by_id[p] for p in members if p in by_id}
    return _Group(season.context, season, facts.night, number, players)


async def _rows(session: AsyncSession, found: _Group, machine_id: int) -> list[FieldScore]:
    """The group's scores on the machine: each player's latest attempt (a replay replaces the first), without those
    a granted group replay replaces (FIELD-MALF-2, FIELD-AMB-18)."""
    return (await _rows_by_machine(session, found, (machine_id,))).get(machine_id, [])


async def _rows_by_machine(
    session: AsyncSession, found: _Group, machine_ids: tuple[int, ...]
) -> dict[int, list[FieldScore]]:
    """`_rows` of each of the machines, in one query."""
    query = prepared(
        "group scores on machines",
        lambda: select(FieldScore).where(
            FieldScore.night_id == param("night"),
            col(FieldScore.machine_id).in_(params_in("machines")),
            col(FieldScore.player_id).in_(params_in("players")),
        ),
    )
    latest: dict[tuple[int, int], FieldScore] = {}
    due = found.season.open_night().replays_due()  # a granted group replay: the scores before it are replaced
    values = {"night": found.night.id, "machines": list(machine_ids), "players": list(found.players)}
    for row in (await session.exec(query, params=values)).all():
        key = (row.player_id, row.machine_id)
        if (at := due.get(key)) is not None and row.entered_at <= at:
            continue
        if key not in latest or row.attempt > latest[key].attempt:
            latest[key] = row
    by_machine: dict[int, list[FieldScore]] = {}
    for (_, machine_id), row in latest.items():
        by_machine.setdefault(machine_id, []).append(row)
    return by_machine


async def _board(
    session: AsyncSession,
    found: _Group,
    *,
    shown: bool = True,
    machines: dict[MachineId, MachineResult] | None = None,
    scored: dict[int, list[FieldScore]] | None = None,
) -> GroupBoard:
    """The group's board on `found`'s facts as read (a caller that wrote scores passes them read again); a board
    only checked, never shown (`shown=False`), skips the photos (one more read) and the field's ties. `machines`:
    the machines' results on those facts, if the caller ranked them already (an entry does, for its tie notice);
    `scored`: the group's rows on tonight's machines (`_rows_by_machine`), if the caller read them."""
    season = found.season
    if shown and machines is None:
        machines = season.machine_results(season.open_night())
    ties = {
        machine
        for machine, result in (machines or {}).items()
        for tie in result.open_ties
        if set(tie.players) & set(found.players)
    }
    photo_query = prepared(
        "group photos",
        lambda: select(FieldGamePhoto).where(
            FieldGamePhoto.night_id == param("night"), FieldGamePhoto.group_number == param("group")
        ),
    )
    photos = (await session.exec(photo_query, params={"night": found.night.id, "group": found.number})) if shown else ()
    kept = by_key(list(photos), "machine_id")
    games = []
    if scored is None:
        scored = await _rows_by_machine(session, found, tuple(found.night.machine_ids))
    # FIELD-GROUP-3: the order is the group's choice; the board suggests a rotation over the machines
    orders = group_rules.suggested_orders(tuple(found.players), found.night.machine_ids)
    for machine_id in found.night.machine_ids:
        rows = {row.player_id: row for row in scored.get(machine_id, [])}
        seats = tuple(
            Seat(p, player.display_name, rows[p].score if p in rows else None) for p, player in found.players.items()
        )
        unconfirmed = [row for row in rows.values() if row.confirmed_by is None]
        games.append(
            BoardGame(
                machine_id,
                season.machine_names.get(machine_id, "?"),
                tuple(found.players[int(p)].display_name for p in orders.get(machine_id, ())),
                seats,
                game_state(seats, bool(unconfirmed)),
                frozenset(row.entered_by for row in unconfirmed),
                machine_id in ties,
                kept.get((machine_id,)),
            )
        )
    players = {player.discord_user_id: player.display_name for player in found.players.values()}
    where = tuple((found.night.boards or {}).get(str(found.number), (None, None)))
    title = f"Week {found.night.week} · group {found.number}"
    return GroupBoard(
        (found.night.id or 0, found.number), title, tuple(games), players, (where[0], where[1]), True, "/field tiebreak"
    )
