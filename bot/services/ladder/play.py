"""During a league night: each group picks its games (LADDER-GSEL-3, LADDER-AMB-14/15), scores are entered
(LADDER-SCORE-1, COMMON-SCORE-1), one-ball playoffs settle exact ties (LADDER-AMB-5), and the 3rd No-Show
fires when a group starts game 3 without the player (LADDER-ATT-5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, insert, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.ladder.attendance import (
    Attendance,
    GameStage,
    Notices,
    attendance_at_start,
    late_arrival_can_play,
    third_no_show,
    third_no_show_possible,
)
from bot.rules.ladder.games import (
    Pick,
    check_pick,
    commissioner_games,
    next_game_order,
    next_picker,
    select_games,
)
from bot.rules.ladder.penalties import malfunction_replay, take_higher
from bot.rules.ladder.scoring import EntryKind, GameEntry, TieNeedsPlayoff, placement_order, players_in_a_tie
from bot.rules.refusals import Conflict, InvalidInput, NotFound, RuleViolation
from bot.rules.scores import parse_score, typed_scores
from bot.services import audit
from bot.services.actor import Actor
from bot.services.ladder.close import drop_for_no_shows
from bot.services.ladder.facts import (
    Entrant,
    LadderLeague,
    barred_entrants,
    check_active,
    entrant_of,
    entrants,
    group_of,
    ladder_league,
    local_time,
    night_groups,
    open_night,
    require_standing,
)
from bot.services.lookup import insert_unique
from bot.services.permissions import is_commissioner, require_commissioner
from bot.services.players import Member
from storage.db import Database
from storage.ladder import LadderAttendance, LadderGroup, LadderNight, LadderPick, LadderScore, LadderStatus
from storage.prepared import param, prepared


@dataclass(frozen=True)
class PickState:
    group: int
    picks: list[tuple[str, str]]  # (player, game) in pick order
    excluding: bool  # True: picks leave games out (P > games per match); False: picks repeat games
    next_picker: str | None
    games: list[str] | None  # the night's slots once set
    note: str | None  # why another pass is needed (LADDER-AMB-14)
    group_id: int  # whose board shows the games once set


@dataclass(frozen=True)
class ScoreEntry:
    player: str
    game: int
    machine: str
    score: int
    replaced: int | None
    dropped: list[str]
    group_id: int  # whose living board shows it
    next_order: list[str] | None = None  # once the game is complete: who plays next game, in order (ORDER-2)


class LadderPlayService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def pick(self, actor: Actor, league_name: str | None, *, game: str) -> PickState:
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            night = await open_night(session, ladder)
            everyone = await entrants(session, ladder)
            me = entrant_of(everyone, actor.user_id)
            check_active(me)
            group = group_of(await night_groups(session, night), me.id)
            if group.slots is not None:
                raise Conflict(f"Group {group.number}'s games are already set; see `/ladder groups`.")
            working = [m["name"] for m in night.machines]
            chosen = next((name for name in working if name.casefold() == game.strip().casefold()), game.strip())
            pickers = await _pickers(session, ladder, night, group)
            picks = await _picks(session, group, night)
            if me.id not in pickers:
                raise RuleViolation("LADDER-GSEL-3", "Check in with `/ladder checkin` first: present players pick.")
            check_pick(working, pickers, picks, Pick(me.id, chosen))
            row = LadderPick(
                group_id=group.id or 0,
                seq=len(picks),
                ladder_player_id=me.id,
                machine_id=_machine_id(night, chosen),
                picked_at=now,
            )
            await insert_unique(session, row, "Someone in your group picked at the same moment; try again.")
            audit.created(session, actor, row, at=now)
            picks.append(Pick(me.id, chosen))
            note = None
            try:
                slots = select_games(working, picks, pickers=len(pickers), games=ladder.options.games_per_match)
            except RuleViolation as unfinished:
                slots, note = None, unfinished.message if unfinished.rule_id == "LADDER-AMB-14" else None
            if slots is not None:
                await _set_slots(session, actor, group, night, slots, now)
            return PickState(
                group.number,
                [(everyone[p.player].name, p.game) for p in picks],
                len(working) > ladder.options.games_per_match,
                None if slots else everyone[next_picker(pickers, picks)].name,
                slots,
                note,
                group.id or 0,
            )

    async def set_games(self, actor: Actor, league_name: str | None, *, group_number: int, games: str) -> PickState:
        """LADDER-AMB-15: the commissioner overrides a group's choice with the night's games from the working set."""
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            require_commissioner(actor, ladder.league, "set a group's games")
            night = await open_night(session, ladder)
            group = next((g for g in await night_groups(session, night) if g.number == group_number), None)
            if group is None:
                raise NotFound(f"Tonight has no group {group_number}; see `/ladder groups`.")
            if await _has_scores(session, group):
                raise Conflict(f"Group {group_number} has entered scores; its games can no longer change.")
            working = [m["name"] for m in night.machines]
            named = [name.strip() for name in games.split(",") if name.strip()]
            slots = commissioner_games(working, named, ladder.options.games_per_match)
            await _set_slots(session, actor, group, night, slots, now)
            excluding = len(working) > ladder.options.games_per_match
            return PickState(group.number, [], excluding, None, slots, None, group.id or 0)

    async def score(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        game: int,
        score: str,
        member: Member | None,
        replay: str | None = None,
    ) -> list[ScoreEntry]:
        """LADDER-SCORE-1: one score, or several separated by spaces for this game and the next ones. `replay`:
        the score is a replay of the game's first, which it replaces even when lower after a malfunction
        ("replaces", LADDER-PEN-1), or of which the higher counts after a tilted ball ("higher", LADDER-PEN-5)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            night = await open_night(session, ladder)
            everyone = await entrants(session, ladder)
            who = "You" if member is None or member.user_id == actor.user_id else member.display_name
            target = entrant_of(everyone, member.user_id if member else actor.user_id, who=who)
            check_active(target)
            await require_standing(session, ladder, [target], now, doing="have a score entered")
            group = group_of(await night_groups(session, night), target.id)
            check_may_enter(actor, ladder, everyone, group, target)
            values = [
                parse_score(text, field=f"Game {number} ({target.name})", rules=ladder.options.score_input)
                for number, text in enumerate(typed_scores(score), start=game)
            ]
            if target.id not in await checked_in(session, ladder, night):
                raise RuleViolation(
                    "LADDER-ATT-1",
                    f"{target.name} has not checked in: check in with `/ladder checkin` first. "
                    "Absent players are scored from their premakeups.",
                )
            if group.slots is None:
                raise RuleViolation(
                    "LADDER-GSEL-4", f"Group {group.number} has not set its games yet: pick with `/ladder games pick`."
                )
            last = game + len(values) - 1
            if game < 1 or last > len(group.slots):
                raise InvalidInput(
                    f"Tonight has games 1 to {len(group.slots)}; {len(values)} score(s) from game {game} do not fit."
                )
            await check_late_arrival(session, ladder, night, group, [target], range(game, last + 1))
            if replay is not None:
                values = [await _replayed(session, group, target, game, values, replay)]
            return [
                await store_score(session, actor, ladder, night, group, everyone, target, number, value, now)
                for number, value in enumerate(values, start=game)
            ]

    async def tiebreak(self, actor: Actor, league_name: str | None, *, game: int, winner: Member) -> str:
        """LADDER-AMB-5: the winner of the one-ball playoff between players level on a game's score."""
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            night = await open_night(session, ladder)
            everyone = await entrants(session, ladder)
            target = entrant_of(everyone, winner.user_id, who=winner.display_name)
            group = group_of(await night_groups(session, night), target.id)
            check_may_enter(actor, ladder, everyone, group, target)
            if group.slots is None or not 1 <= game <= len(group.slots):
                raise InvalidInput(f"Group {group.number} has no game {game} tonight.")
            entries = await _game_entries(session, ladder, night, group, game - 1)
            if entries is None:
                raise RuleViolation(
                    "LADDER-AMB-5",
                    f"Game {game} of group {group.number} still awaits scores: a playoff winner is entered once "
                    "every score is in and two players are level.",
                )
            if target.id not in players_in_a_tie(entries):
                raise RuleViolation(
                    "LADDER-AMB-5",
                    f"{target.name} is not level with anyone in game {game}: a one-ball playoff is only for players "
                    "with the same score. If a score is wrong, enter it again with `/ladder score`.",
                )
            before = audit.snapshot(group)
            others = [p for p in group.members if p != target.id]
            group.playoff_orders = {**group.playoff_orders, str(game - 1): [target.id, *others]}
            session.add(group)
            audit.updated(session, actor, group, before=before, at=now)
            return target.name


async def check_late_arrival(
    session: AsyncSession,
    ladder: LadderLeague,
    night: LadderNight,
    group: LadderGroup,
    targets: Sequence[Entrant],
    games: range,
) -> None:
    """LADDER-ATT-2: a player who checked in after the groups started plays the games not started yet; a game
    the group finished before they came (someone's score was in) is scored as absent, premakeup or ghost.
    The players' check-ins are read in one query."""
    arrivals = (
        await session.exec(
            select(LadderAttendance.ladder_player_id, LadderAttendance.checked_in_at).where(
                LadderAttendance.season_id == ladder.season_id,
                LadderAttendance.week == night.week,
                col(LadderAttendance.ladder_player_id).in_([target.id for target in targets]),
            )
        )
    ).all()
    arrived_at = dict(arrivals)
    start = datetime.combine(night.play_on, ladder.options.group_start)
    for target in targets:
        arrived = arrived_at.get(target.id)
        if arrived is None or local_time(arrived, ladder.league.timezone) <= start:
            continue
        finished = set(
            (
                await session.exec(
                    select(LadderScore.slot).where(
                        LadderScore.group_id == group.id,
                        LadderScore.ladder_player_id != target.id,
                        col(LadderScore.entered_at) < arrived,
                    )
                )
            ).all()
        )
        for game in games:
            stage = GameStage.FINISHED if game - 1 in finished else GameStage.NOT_STARTED
            if not late_arrival_can_play(stage):
                raise RuleViolation(
                    "LADDER-ATT-2",
                    f"Game {game} of group {group.number} was finished before {target.name} checked in: it is "
                    "scored as absent (premakeup, else ghost). Enter scores only for the games played after arriving.",
                )


async def _replayed(
    session: AsyncSession, group: LadderGroup, target: Entrant, game: int, values: list[int], replay: str
) -> int:
    """The score that counts once a replay is played: LADDER-PEN-1 (the replay, even lower) or LADDER-PEN-5
    (the higher of the two)."""
    rule = "LADDER-PEN-5" if replay == "higher" else "LADDER-PEN-1"
    if len(values) != 1:
        raise InvalidInput(f"`replay`: give the one replay score of game {game}, not {len(values)} scores.")
    first = (
        await session.exec(
            select(LadderScore.score).where(
                LadderScore.group_id == group.id,
                LadderScore.slot == game - 1,
                LadderScore.ladder_player_id == target.id,
            )
        )
    ).first()
    if first is None:
        raise RuleViolation(rule, f"{target.name} has no first score in game {game} to replay: enter it first.")
    return take_higher(first, values[0]) if replay == "higher" else malfunction_replay(first, values[0])


async def store_score(
    session: AsyncSession,
    actor: Actor,
    ladder: LadderLeague,
    night: LadderNight,
    group: LadderGroup,
    everyone: dict[int, Entrant],
    target: Entrant,
    game: int,
    value: int,
    now: datetime,
) -> ScoreEntry:
    """Store or correct one score (audited); the first score of game 3 may fire a 3rd No-Show."""
    return (await store_game_scores(session, actor, ladder, night, group, everyone, game, [(target, value)], now))[0]


async def store_game_scores(
    session: AsyncSession,
    actor: Actor,
    ladder: LadderLeague,
    night: LadderNight,
    group: LadderGroup,
    everyone: dict[int, Entrant],
    game: int,
    values: Sequence[tuple[Entrant, int]],
    now: datetime,
) -> list[ScoreEntry]:
    """Store or correct scores of one game (each audited), then settle the game once: the 3rd No-Show its first
    score may fire, the finish or the tie awaiting its playoff, the next game's order. The game's rows are read
    once and its new scores inserted together."""
    assert group.slots is not None
    slot = game - 1
    query = select(LadderScore).where(LadderScore.group_id == group.id, LadderScore.slot == slot)
    rows = {row.ladder_player_id: row for row in (await session.exec(query)).all()}
    starts_game = not rows
    replaced = [rows[target.id].score if target.id in rows else None for target, _ in values]
    added: list[tuple[Entrant, int]] = []
    for target, value in values:
        if target.id in rows:
            _correct(session, actor, ladder, rows[target.id], target, game, value, now)
        else:
            added.append((target, value))
    if added:
        names = " or ".join(target.name for target, _ in added)
        new = [
            {
                "group_id": group.id or 0,
                "slot": slot,
                "ladder_player_id": target.id,
                "score": value,
                "entered_by": actor.user_id,
                "entered_at": now,
            }
            for target, value in added
        ]
        try:  # one INSERT … RETURNING for the new scores (the ORM's unit of work sends one per row)
            inserted = (await session.exec(insert(LadderScore).returning(LadderScore), params=new)).scalars().all()
        except IntegrityError:  # entered at the same moment by someone else
            raise Conflict(f"A score for {names} in game {game} was just entered.") from None
        for row in inserted:
            rows[row.ladder_player_id] = row
            audit.created(session, actor, row, at=now)
    dropped = await _third_no_shows(session, ladder, night, group, everyone, game, now) if starts_game else []
    if dropped:  # COMMON-NOTIFY-1: a 3rd No-Show at game 3 drops the player at once
        detail = {"week": night.week, "no_shows": dropped, "dropped": dropped}
        audit.noted(session, actor, night, action="no_shows", detail=detail, at=now)
    machine = next(m["name"] for m in night.machines if m["id"] == group.slots[slot])
    finish = finish_from(group, slot, list(rows.values()), await checked_in(session, ladder, night))
    if isinstance(finish, TieNeedsPlayoff):
        detail = {
            "week": night.week,
            "where": f"group {group.number}, game {game} ({machine})",
            "players": [everyone[p].name for p in finish.players],
        }  # COMMON-NOTIFY-1: unresolved until `/ladder tiebreak`; the night cannot close before (LADDER-AMB-5)
        await audit.noted_once(session, actor, night, action="tie_awaiting_playoff", detail=detail, at=now)
    order = next_game_order(finish) if game < len(group.slots) and isinstance(finish, tuple) else None
    next_order = [everyone[p].name for p in order] if order else None
    return [
        ScoreEntry(target.name, game, machine, value, before, dropped, group.id or 0, next_order)
        for (target, value), before in zip(values, replaced, strict=True)
    ]


def _correct(
    session: AsyncSession,
    actor: Actor,
    ladder: LadderLeague,
    existing: LadderScore,
    target: Entrant,
    game: int,
    value: int,
    now: datetime,
) -> None:
    """Correct a stored score, audited; a confirmed one only by a commissioner (COMMON-SCORE-3)."""
    if existing.confirmed_by is not None and not is_commissioner(actor, ladder.league):
        raise RuleViolation(
            "COMMON-SCORE-3",
            f"{target.name}'s score in game {game} is confirmed: only a commissioner can change it now.",
        )
    before = audit.snapshot(existing)
    existing.score, existing.entered_by, existing.entered_at = value, actor.user_id, now
    session.add(existing)
    audit.updated(session, actor, existing, before=before, at=now)


async def game_finish(
    session: AsyncSession, ladder: LadderLeague, night: LadderNight, group: LadderGroup, slot: int
) -> tuple[int, ...] | TieNeedsPlayoff | None:
    """A game's finish once every checked-in player has a score in it (its reverse is the next game's order,
    LADDER-ORDER-2), or the exact tie that awaits its playoff (LADDER-AMB-5); None while scores are missing."""
    entries = await _game_entries(session, ladder, night, group, slot)
    return None if entries is None else placement_order(entries, group.playoff_orders.get(str(slot), ()))


def finish_from(
    group: LadderGroup, slot: int, rows: Sequence[LadderScore], present: set[int]
) -> tuple[int, ...] | TieNeedsPlayoff | None:
    """`game_finish` from the group's score rows and who checked in, already read (a board reads them once)."""
    entries = _entries(group, slot, rows, present)
    return None if entries is None else placement_order(entries, group.playoff_orders.get(str(slot), ()))


async def _game_entries(
    session: AsyncSession, ladder: LadderLeague, night: LadderNight, group: LadderGroup, slot: int
) -> list[GameEntry] | None:
    """The checked-in players' scores of one game, or None while any of them is missing."""
    await session.flush()
    present = await checked_in(session, ladder, night)
    rows = (
        await session.exec(select(LadderScore).where(LadderScore.group_id == group.id, LadderScore.slot == slot))
    ).all()
    return _entries(group, slot, rows, present)


def _entries(group: LadderGroup, slot: int, rows: Sequence[LadderScore], present: set[int]) -> list[GameEntry] | None:
    scores = {row.ladder_player_id: row.score for row in rows if row.slot == slot}
    playing = [p for p in group.members if p in present]
    if any(p not in scores for p in playing):
        return None
    return [GameEntry(p, EntryKind.PLAYED, scores[p], group.ranks[str(p)]) for p in playing]


def check_may_enter(
    actor: Actor, ladder: LadderLeague, everyone: dict[int, Entrant], group: LadderGroup, target: Entrant
) -> None:
    """Players enter scores for their own group; commissioners for anyone (COMMON-ROLE-1)."""
    if actor.user_id == target.discord_user_id or is_commissioner(actor, ladder.league):
        return
    if any(everyone[p].discord_user_id == actor.user_id for p in group.members):
        return
    require_commissioner(actor, ladder.league, "enter scores for another group")


async def checked_in(session: AsyncSession, ladder: LadderLeague, night: LadderNight) -> set[int]:
    """The players checked in for the night (a score command asks several times: two plain columns, read fast)."""
    query = prepared(
        "ladder check-ins",
        lambda: select(LadderAttendance.ladder_player_id).where(
            LadderAttendance.season_id == param("season"),
            LadderAttendance.week == param("week"),
            col(LadderAttendance.checked_in_at).is_not(None),
        ),
    )
    return set((await session.exec(query, params={"season": ladder.season_id, "week": night.week})).all())


async def _pickers(session: AsyncSession, ladder: LadderLeague, night: LadderNight, group: LadderGroup) -> list[int]:
    """LADDER-GSEL-3: the group's present players, worst-placed (highest rank number) first."""
    present = await checked_in(session, ladder, night)
    return sorted((p for p in group.members if p in present), key=lambda p: -group.ranks[str(p)])


async def _picks(session: AsyncSession, group: LadderGroup, night: LadderNight) -> list[Pick]:
    names = {m["id"]: m["name"] for m in night.machines}
    rows = (
        await session.exec(select(LadderPick).where(LadderPick.group_id == group.id).order_by(col(LadderPick.seq)))
    ).all()
    return [Pick(row.ladder_player_id, names[row.machine_id]) for row in rows]


def _machine_id(night: LadderNight, name: str) -> int:
    return int(next(m["id"] for m in night.machines if m["name"] == name))


async def _set_slots(
    session: AsyncSession, actor: Actor, group: LadderGroup, night: LadderNight, slots: list[str], now: datetime
) -> None:
    """LADDER-GSEL-4: the night's slots are stored before play starts."""
    before = audit.snapshot(group)
    group.slots = [_machine_id(night, name) for name in slots]
    session.add(group)
    audit.updated(session, actor, group, before=before, at=now)


async def _has_scores(session: AsyncSession, group: LadderGroup) -> bool:
    query = select(LadderScore.id).where(LadderScore.group_id == group.id)
    return (await session.exec(query)).first() is not None


async def _third_no_shows(
    session: AsyncSession,
    ladder: LadderLeague,
    night: LadderNight,
    group: LadderGroup,
    everyone: dict[int, Entrant],
    game: int,
    now: datetime,
) -> list[str]:
    """LADDER-ATT-5: a player with 2 No-Shows who has not come when the group starts game 3 is dropped."""
    if not any(third_no_show_possible(everyone[p].entry.no_shows, game, ladder.options) for p in group.members):
        return []  # the usual case: nobody of the group is one No-Show from the drop, or it is before game 3
    rows = (
        await session.exec(
            select(LadderAttendance).where(
                LadderAttendance.season_id == ladder.season_id, LadderAttendance.week == night.week
            )
        )
    ).all()
    attendance = {row.ladder_player_id: row for row in rows}
    barred = await barred_entrants(session, ladder, everyone, on=night.play_on)  # COMMON-PLAYER-2: no No-Show
    dropped = []
    for player in group.members:
        entrant = everyone[player]
        if entrant.entry.status is not LadderStatus.ACTIVE or player in barred:
            continue
        row = attendance.get(player) or LadderAttendance(
            season_id=ladder.season_id, week=night.week, ladder_player_id=player
        )
        if row.checked_in_at is not None:
            continue
        zone = ladder.league.timezone
        notices = Notices(
            None,
            local_time(row.late_notice_at, zone) if row.late_notice_at else None,
            local_time(row.absence_notice_at, zone) if row.absence_notice_at else None,
        )
        status = attendance_at_start(notices, night.play_on, ladder.options)
        if status is Attendance.MISSING and third_no_show(entrant.entry.no_shows, status, game, ladder.options):
            row.no_show = True
            session.add(row)
            entrant.entry.no_shows += 1
            await drop_for_no_shows(session, ladder, night, entrant, now)
            dropped.append(entrant.name)
    return dropped
