"""League nights in the field format: machines, check-in, guests, groups, scores, playoffs, penalties.

Each method loads the season's facts (`field_facts`), asks the pure rules (`bot.rules.field`) and stores
what was accepted in one transaction, with an audit entry. Officials are the league's commissioners
(FIELD-OFF-1); players act for themselves and enter scores for their own group.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, insert, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import scores as score_rules
from bot.rules.discipline import DisciplineKind
from bot.rules.field import groups as group_rules
from bot.rules.field import meet as meet_rules
from bot.rules.field import penalties as penalty_rules
from bot.rules.field.scoring import MachineId, PlayerId, TieToBreak
from bot.rules.photos import Photo, check_photo
from bot.rules.ratings.seeding import reordered_by_rating
from bot.rules.refusals import Conflict, InvalidInput, NotFound, PermissionDenied, RuleViolation
from bot.services import audit
from bot.services.actor import Actor
from bot.services.discipline import players_barred, record_automatic, require_in_good_standing
from bot.services.field import rulings
from bot.services.field.facts import (
    FieldContext,
    NightFacts,
    NightResult,
    SeasonFacts,
    load_context,
    load_night,
    load_season,
    load_tonight,
    with_scores_added,
)
from bot.services.field.facts import players_key as key_of
from bot.services.field.penalties import PenaltyAsk, ruling
from bot.services.field.tonight import TonightFacts
from bot.services.permissions import is_commissioner, require_commissioner
from bot.services.photos import keep_photo
from bot.services.players import Member
from bot.services.ratings import RatingService
from storage.db import Database
from storage.discipline import DisciplineEntry
from storage.field import (
    FieldCheckin,
    FieldGamePhoto,
    FieldMalfunction,
    FieldNight,
    FieldPenalty,
    FieldPlayoff,
    FieldScore,
    NightState,
)
from storage.models import Machine, Player
from storage.prepared import param, prepared


@dataclass(frozen=True)
class NightView:
    """What `/field night show` and every night command answer with."""

    season: SeasonFacts
    result: NightResult
    warning: str | None = None

    @property
    def night(self) -> FieldNight:
        return self.result.facts.night


@dataclass(frozen=True)
class ScoreEntered:
    view: NightView
    machine: str
    scores: list[tuple[str, int]]  # player name, score
    replay: bool
    group: int | None  # the players' group (one per game, FIELD-SCORE-1), whose board shows them


@dataclass(frozen=True)
class MaintenanceLog:
    league: str
    entries: list[tuple[int, str, FieldMalfunction]]  # week, machine, entry


@dataclass(frozen=True)
class PenaltyRecorded:
    view: NightView | None
    player: str
    sanction: penalty_rules.Sanction
    suspension: int | None = None  # the ledger's ruling id when the penalty suspends (FIELD-PEN-3/4/10)
    ruling: str | None = None  # what was decided with it (FIELD-PEN-2/5/7/8/12)
    involved_official: bool = False  # FIELD-OFF-2: every official present was in the group concerned
    replaying: tuple[int, int] | None = None  # (night, group) when the group replays the game: its board changes


class FieldNightService:
    def __init__(self, db: Database, clock: Clock, ratings: RatingService) -> None:
        self.db = db
        self.clock = clock
        self.ratings = ratings
        self.tonight = TonightFacts(db)  # tonight's facts from one score command to the next

    # --- the night and its machines (FIELD-MSEL-1) -----------------------------------------------------

    async def open_night(
        self, actor: Actor, league_name: str | None, *, machine_ids: list[int], play_on: date | None
    ) -> NightView:
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "open a league night")
            season = await load_season(session, context)
            if any(f.night.state is NightState.OPEN for f in season.nights):
                raise Conflict("A league night is already open: close it with `/field night close` first.")
            await self._check_machines(session, context, machine_ids)
            week = 1 + max((f.night.week for f in season.nights), default=0)
            if week > context.options.regular_weeks:
                raise RuleViolation(
                    "FIELD-CFG-1",
                    f"The regular season has {context.options.regular_weeks} weeks and all have been played: "
                    "the finals are next (`/field finals entry`), or change `regular_weeks` with `/field config`.",
                )
            assert context.season.id is not None and context.league.id is not None
            night = FieldNight(
                league_id=context.league.id,
                season_id=context.season.id,
                week=week,
                play_on=play_on or now.astimezone(context.zone).date(),
                machine_ids=machine_ids,
                opened_by=actor.user_id,
            )
            session.add(night)
            await session.flush()
            audit.created(session, actor, night, at=now)
            return await self._view(session, context)

    async def set_machines(self, actor: Actor, league_name: str | None, *, machine_ids: list[int]) -> NightView:
        """FIELD-MSEL-1 before play; FIELD-MSEL-4 a replacement once scores are in (scores on the machine it
        replaces stop counting, FIELD-AMB-12)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "choose the night's machines")
            season = await load_tonight(session, context)
            facts = season.open_night()
            await self._check_machines(session, context, machine_ids, out=facts.unplayable())
            if facts.scores:  # play has started: a changed slot takes a replacement (FIELD-MSEL-4)
                meet_rules.check_replacement(facts.night.machine_ids, machine_ids, season.machine_names)
            before = audit.snapshot(facts.night)
            facts.night.machine_ids = machine_ids
            session.add(facts.night)
            audit.updated(session, actor, facts.night, before=before, at=now)
            return await self._view(session, context)

    async def close_night(
        self, actor: Actor, league_name: str | None, *, with_scores_missing: bool = False
    ) -> NightView:
        """The night becomes final; refused while a tie on a machine waits for its playoff (FIELD-SCORE-3), and
        while checked-in players lack scores unless the official confirms that they count as none (FIELD-SCORE-5)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "close a league night")
            season = await load_tonight(session, context)
            facts = season.open_night()
            if ties := open_ties(season.night_result(facts)):
                machine, tie = ties[0]
                raise RuleViolation(
                    "FIELD-SCORE-3",
                    f"{_names(season, tie.players)} are tied on {season.machine_names[int(machine)]}: enter their "
                    "one-ball playoff with `/field tiebreak` (or mark it unplayable) before closing the night.",
                )
            day = now.astimezone(context.zone).date()
            barred = await players_barred(session, context.league, [c.player_id for c in facts.checkins], on=day)
            if not with_scores_missing and (gaps := _missing_scores(season, facts, barred)):
                raise RuleViolation(
                    "FIELD-SCORE-5",
                    f"{len(gaps)} checked-in player(s) have scores missing: {'; '.join(gaps)}. Enter them with "
                    "`/field score` or `/field game`, or close with `missing_scores:accept` to count them as no "
                    "score (no points on those machines).",
                )
            before = audit.snapshot(facts.night)
            facts.night.state = NightState.CLOSED
            session.add(facts.night)
            audit.updated(session, actor, facts.night, before=before, at=now)
            return await self._view(session, context, week=facts.night.week)

    async def show(self, actor: Actor, league_name: str | None, week: int | None) -> NightView:
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            return await self._view(session, context, week=week)

    # --- attendance and groups (FIELD-ATT-*, FIELD-GROUP-*) --------------------------------------------

    async def check_in(self, actor: Actor, league_name: str | None, member_id: int | None) -> NightView:
        """A player checks in, or an official checks someone in. After groups are made, a late arrival joins
        an open group or plays single-player games (FIELD-ATT-1)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            season = await load_tonight(session, context)
            facts = season.open_night()
            target = member_id if member_id is not None else actor.user_id
            if target != actor.user_id:
                require_commissioner(actor, context.league, "check in another player")
            player = await registered_player(session, context, target)
            await check_allowed(session, context, [player], season, now, doing="check in")
            rank = rulings.official_rank(actor, context.league) if target == actor.user_id else None
            await _add_checkin(session, actor, context, facts, player, guest=False, now=now, official_rank=rank)
            return await self._view(session, context)

    async def add_guest(self, actor: Actor, league_name: str | None, member: Member) -> NightView:
        """FIELD-ATT-3: a guest plays with an official's approval (recorded); guests are placed after members,
        only into groups with room (FIELD-AMB-11)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "approve a guest (FIELD-ATT-3)")
            season = await load_tonight(session, context)
            facts = season.open_night()
            assert context.league.id is not None
            query = select(Player).where(Player.league_id == context.league.id)
            player = (await session.exec(query.where(Player.discord_user_id == member.user_id))).first()
            if player is None:
                player = Player(
                    league_id=context.league.id,
                    discord_user_id=member.user_id,
                    display_name=member.display_name[:100],
                    registered_at=now,
                )
                session.add(player)
                await session.flush()
                audit.created(session, actor, player, at=now, reason="guest (FIELD-ATT-3)")
            await check_allowed(session, context, [player], season, now, doing="play as a guest")
            await _add_checkin(session, actor, context, facts, player, guest=True, now=now)
            return await self._view(session, context)

    async def make_groups(self, actor: Actor, league_name: str | None) -> NightView:
        """FIELD-GROUP-1/2, FIELD-AMB-2/11: members dealt by season standing (by rating where the league uses
        ratings and the player has one) into groups of 4 and 3 that avoid repeat opponents; guests then fill
        groups with room."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "make the night's groups")
            season = await load_season(session, context)
            facts = season.open_night()
            if facts.scores:
                raise RuleViolation("FIELD-GROUP-2", "Scores are already in: groups can only change before play.")
            # COMMON-PLAYER-2: a player suspended since checking in is left out of the deal (see README)
            day = now.astimezone(context.zone).date()
            barred = await players_barred(session, context.league, [c.player_id for c in facts.checkins], on=day)
            checkins = [c for c in facts.checkins if c.player_id not in barred]
            members = [c.player_id for c in checkins if not c.guest]
            if not members:
                raise InvalidInput("Nobody has checked in yet: players check in with `/field checkin`.")
            table_order = {row.player: index for index, row in enumerate(season.season_table())}
            shuffled = list(members)
            random.Random(facts.night.id).shuffle(shuffled)  # week 1 or newcomers: random (FIELD-AMB-2)
            ranked = sorted(shuffled, key=lambda p: table_order.get(p, len(table_order)))
            if context.options.use_ratings:  # abilities as the games played measure them, where known
                ranked = reordered_by_rating(ranked, await self._strengths(session, actor.guild_id, ranked))
            met = group_rules.past_pairings(f.groups() for f in season.nights if f.night.id != facts.night.id)
            groups = group_rules.deal_groups(ranked, context.options, met)
            for checkin in checkins:
                if checkin.guest:
                    placement = group_rules.place_guest(groups, checkin.player_id, context.options)
                    groups = list(placement.groups)
            number = {p: i + 1 for i, group in enumerate(groups) for p in group}
            for checkin in facts.checkins:  # a barred player keeps no group from an earlier deal
                before = audit.snapshot(checkin)
                checkin.group_number = number.get(checkin.player_id)
                checkin.mode = (
                    group_rules.PlayMode.GROUP if checkin.group_number else group_rules.PlayMode.SINGLE_PLAYER
                )
                session.add(checkin)
                audit.updated(session, actor, checkin, before=before, at=now)
            facts.night.groups_made_at = now
            session.add(facts.night)
            warning = group_rules.small_field_warning(len(members))
            return await self._view(session, context, warning=warning)

    async def _strengths(self, session: AsyncSession, guild_id: int, player_ids: list[int]) -> dict[int, float]:
        """The predictive rating of each of these players who has one, by player id (`use_ratings`)."""
        ratings = await self.ratings.of_members(guild_id)
        users = await session.exec(select(Player.id, Player.discord_user_id).where(col(Player.id).in_(player_ids)))
        return {player: ratings[user].predictive for player, user in users.all() if player and user in ratings}

    # --- scores, playoffs, penalties (FIELD-SCORE-*, FIELD-PEN-*) ---------------------------------------

    async def enter_scores(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        machine_id: int,
        entries: Sequence[tuple[int | None, str]],
        replay: bool = False,
        photo: Photo | None = None,
    ) -> ScoreEntered:
        """One game's scores on one machine: (Discord id or None for the actor, typed score) per player.

        FIELD-SCORE-1: one score per player and machine; a replay (official) replaces the first score even
        when lower (FIELD-MALF-2, FIELD-PEN-2/5). Players enter scores for their own group; all or none are
        stored, with the photo of the display sent from the group board's form (kept for the group's game)."""
        now = self.clock.now()
        photo = check_photo(photo) if photo else None
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, now)
            season = await self.tonight.load(session, context)
            players: dict[int, Player] = {}  # Discord id → player, each looked up once
            for member_id in dict.fromkeys(member_id or actor.user_id for member_id, _ in entries):
                players[member_id] = await registered_player(session, context, member_id)
            typed = [(players[member_id or actor.user_id], text) for member_id, text in entries]
            entered = await self.store_scores(
                session, actor, season, machine_id, typed, now, replay=replay, photo=photo
            )
            version = await self.tonight.after_write(session, entered.view.season)
        self.tonight.keep(version, entered.view.season)
        return entered

    async def store_scores(
        self,
        session: AsyncSession,
        actor: Actor,
        season: SeasonFacts,
        machine_id: int,
        entries: Sequence[tuple[Player, str]],
        now: datetime,
        *,
        replay: bool = False,
        photo: Photo | None = None,
    ) -> ScoreEntered:
        """`enter_scores` in the caller's transaction, on tonight's facts it already read (the group board's
        form, which checks and answers in the same transaction); the photo has been checked."""
        context = season.context
        facts = season.open_night()
        if machine_id not in facts.night.machine_ids:
            names = ", ".join(season.machine_names[m] for m in facts.night.machine_ids)
            raise RuleViolation("FIELD-MSEL-1", f"That machine is not one of tonight's: {names}.")
        machine = season.machine_names[machine_id]
        if machine_id in facts.unplayable():
            raise RuleViolation(
                "FIELD-MALF-3",
                f"{machine} was declared unplayable tonight: an official names its replacement with "
                "`/field night machines` (FIELD-MSEL-4), and the game is replayed there.",
            )
        meet_rules.check_before_closing(
            now.astimezone(context.zone).replace(tzinfo=None), facts.night.play_on, context.options
        )
        if replay:
            require_commissioner(actor, context.league, "enter a replay score (FIELD-MALF-2)")
        official = is_commissioner(actor, context.league)
        me = None
        if not official:
            mine = (player for player, _ in entries if player.discord_user_id == actor.user_id)
            me = next(mine, None) or await registered_player(session, context, actor.user_id)
        existing = set(facts.counted_scores())  # a granted group replay's first scores no longer count
        values = [
            score_rules.parse_score(
                text, field=f"{player.display_name}'s score on {machine}", rules=context.options.score_input
            )
            for player, text in entries
        ]
        players = [player for player, _ in entries]
        await check_allowed(session, context, players, season, now, doing="have a score entered")
        stored: list[tuple[str, int]] = []
        rows: list[dict[str, object]] = []
        groups_in_game: dict[tuple[int, ...], str] = {}  # group → the first of its players named
        group: int | None = None
        checked_in = {c.player_id for c in facts.checkins}
        for (player, _), value in zip(entries, values, strict=True):
            assert player.id is not None
            if player.id not in checked_in:
                raise RuleViolation("FIELD-ATT-1", f"{player.display_name} has not checked in tonight.")
            if me is not None and me.id != player.id and player.id not in (facts.group_of(me.id or 0) or ()):
                raise PermissionDenied("Players enter scores for their own group only; an official can enter any.")
            _check_one_group(groups_in_game, facts.group_of(player.id), player.display_name)
            group = next((c.group_number for c in facts.checkins if c.player_id == player.id), group)
            attempt = _attempt(facts, player, machine_id, machine, existing, replay)
            existing.add((player.id, machine_id))
            rows.append(
                {
                    "night_id": facts.night.id or 0,
                    "player_id": player.id,
                    "machine_id": machine_id,
                    "attempt": attempt,
                    "score": value,
                    "entered_by": actor.user_id,
                    "entered_at": now,
                }
            )
            stored.append((player.display_name, value))
        try:  # one INSERT … RETURNING for the group's scores (the ORM's unit of work sends one per row)
            inserted = (await session.exec(insert(FieldScore).returning(FieldScore), params=rows)).scalars().all()
        except IntegrityError:  # a score entered at the same moment, past the check above
            names = " or ".join(name for name, _ in stored)
            raise RuleViolation("FIELD-SCORE-1", f"{names} already has a score on {machine} tonight.") from None
        for row in inserted:
            audit.created(session, actor, row, at=now)
        if photo is not None and group is not None:
            key = {"night_id": facts.night.id or 0, "group_number": group, "machine_id": machine_id}
            await keep_photo(session, actor, FieldGamePhoto, key, photo, now)
        season = with_scores_added(season, inserted)  # only the night's scores changed here
        result = season.night_result(season.open_night())
        await note_ties(session, actor, season, result, machine_id, now)
        return ScoreEntered(NightView(season, result), machine, stored, replay, group)

    async def playoff_result(
        self, actor: Actor, league_name: str | None, *, machine_id: int, order: list[int], unplayable: bool = False
    ) -> NightView:
        """FIELD-SCORE-3: the tied players' one-ball playoff, best first (Discord ids). `unplayable`: the
        playoff cannot be played; the players share the best tied rank (FIELD-AMB-17, an official's call)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            season = await load_tonight(session, context)
            facts = season.open_night()
            ties = [tie for m, tie in open_ties(season.night_result(facts)) if m == machine_id]
            if not ties:
                raise RuleViolation("FIELD-SCORE-3", "There is no tie waiting for a playoff on that machine.")
            players = [(await registered_player(session, context, user)).id or 0 for user in order]
            if unplayable:
                require_commissioner(actor, context.league, "rule a playoff unplayable (FIELD-AMB-17)")
                tie = ties[0] if not players else next((t for t in ties if set(players) <= t.players), None)
            else:
                tie = next(
                    (t for t in ties if t.players == frozenset(players) and len(players) == len(t.players)), None
                )
            if tie is None:
                listing = "; ".join(_names(season, t.players) for t in ties)
                raise RuleViolation("FIELD-SCORE-3", f"Name every tied player once, winner first. Tied: {listing}.")
            me = (
                await registered_player(session, context, actor.user_id)
                if not is_commissioner(actor, context.league)
                else None
            )
            if me is not None and me.id not in tie.players:
                raise PermissionDenied("Only the tied players or an official enter a playoff result.")
            row = FieldPlayoff(
                night_id=facts.night.id or 0,
                machine_id=machine_id,
                players_key=key_of(set(int(p) for p in tie.players)),
                order=[] if unplayable else players,
                entered_by=actor.user_id,
                entered_at=now,
            )
            session.add(row)
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict("That playoff result was just entered by someone else.") from None
            audit.created(session, actor, row, at=now)
            return await self._view(session, context)

    async def record_penalty(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        member_id: int,
        offence: penalty_rules.Offence,
        machine_id: int | None,
        note: str | None,
        ask: PenaltyAsk | None = None,
    ) -> PenaltyRecorded:
        """FIELD-PEN-*: an official records an offence at tonight's meet; its effect follows the ladder. A
        season forfeit or cheating suspends the player (FIELD-PEN-3/10, COMMON-PLAYER-2). `ask` carries what
        the ruling needs (the victim's choice, the games started, the order kept; FIELD-PEN-2/5/7/8), and an
        interference ruling goes to the SLO (FIELD-OFF-2)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "record a penalty")
            season = await load_tonight(session, context)
            facts = season.open_night()
            player = await registered_player(session, context, member_id)
            recorded = await store_penalty(
                session, actor, context, season, facts, player, offence, machine_id, note, ask or PenaltyAsk(), now
            )
            return replace(recorded, view=await self._view(session, context))

    # --- malfunctions (FIELD-MALF-*) --------------------------------------------------------------------

    async def maintenance_log(self, actor: Actor, league_name: str | None) -> MaintenanceLog:
        """COMMON-MALF-1: the season's maintenance sheet, oldest first, for the venue operator."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            season = await load_season(session, context)
            weeks = {f.night.id: f.night.week for f in season.nights}
            rows = (
                await session.exec(
                    select(FieldMalfunction)
                    .where(col(FieldMalfunction.night_id).in_(list(weeks)))
                    .order_by(col(FieldMalfunction.id))
                )
            ).all()
            return MaintenanceLog(
                context.league.name, [(weeks[r.night_id], season.machine_names[r.machine_id], r) for r in rows]
            )

    # --- autocomplete ----------------------------------------------------------------------------------

    async def machine_choices(self, guild_id: int, league_name: str | None, *, tonight: bool) -> list[tuple[int, str]]:
        """Tonight's machines, or every machine in service (for choosing them)."""
        actor = Actor(guild_id, 0, "", frozenset(), False, "autocomplete")
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            machines = (await session.exec(select(Machine).where(Machine.league_id == context.league.id))).all()
            if tonight:  # only the open night's row: autocomplete cannot defer, so it reads no season facts
                query = (
                    select(FieldNight)
                    .where(FieldNight.season_id == context.season.id, FieldNight.state == NightState.OPEN)
                    .order_by(col(FieldNight.week).desc())
                )
                night = (await session.exec(query)).first()
                if night is None:
                    raise NotFound("No league night is open. A commissioner opens one with `/field night open`.")
                ids = night.machine_ids
                by_id = {m.id: m for m in machines}
                return [(m, by_id[m].title) for m in ids if m in by_id]
            return sorted(
                ((m.id or 0, m.title) for m in machines if m.status.in_service and m.removed_at is None),
                key=lambda c: c[1],
            )

    # --- helpers ---------------------------------------------------------------------------------------

    async def _check_machines(
        self, session: AsyncSession, context: FieldContext, machine_ids: list[int], *, out: set[int] | None = None
    ) -> None:
        """FIELD-MSEL-1; `out`: machines declared unplayable tonight, which stay out (FIELD-MALF-3)."""
        machines = (await session.exec(select(Machine).where(Machine.league_id == context.league.id))).all()
        working: set[MachineId] = {
            m.id for m in machines if m.id and m.status.in_service and m.removed_at is None and m.id not in (out or ())
        }
        names: dict[MachineId, str] = {m.id: m.title for m in machines if m.id is not None}
        if unknown := [m for m in machine_ids if m not in names]:
            raise NotFound(f"No machine #{unknown[0]} in {context.league.name}: pick one from the list.")
        meet_rules.check_meet_machines(list[MachineId](machine_ids), working, context.options, names)

    async def _view(
        self, session: AsyncSession, context: FieldContext, *, week: int | None = None, warning: str | None = None
    ) -> NightView:
        """The given week's night, else the open one, else the latest."""
        season = await load_night(session, context, week)
        return NightView(season, season.night_result(season.nights[0]), warning)


async def _add_checkin(
    session: AsyncSession,
    actor: Actor,
    context: FieldContext,
    facts: NightFacts,
    player: Player,
    *,
    guest: bool,
    now: datetime,
    official_rank: int | None = None,
) -> None:
    """Check a player in; once groups exist, place them (FIELD-ATT-1, FIELD-AMB-11)."""
    assert player.id is not None
    if player.id in {c.player_id for c in facts.checkins}:
        raise Conflict(f"{player.display_name} is already checked in tonight.")
    group_number: int | None = None
    mode = group_rules.PlayMode.GROUP
    if facts.night.groups_made_at is not None:
        groups = facts.groups()
        placement = (
            group_rules.place_guest(groups, player.id, context.options)
            if guest
            else group_rules.place_late_arrival(groups, player.id, context.options, facts.guests)
        )
        mode = placement.mode
        if placement.group_index is not None:
            group_number = placement.group_index + 1
        if placement.displaced_guest is not None:
            displaced = next(c for c in facts.checkins if c.player_id == placement.displaced_guest)
            before = audit.snapshot(displaced)
            displaced.group_number, displaced.mode = None, group_rules.PlayMode.SINGLE_PLAYER
            session.add(displaced)
            audit.updated(session, actor, displaced, before=before, at=now, reason="displaced by a late member")
    row = FieldCheckin(
        night_id=facts.night.id or 0,
        player_id=player.id,
        guest=guest,
        approved_by=actor.user_id if guest else None,
        group_number=group_number,
        mode=mode,
        arrived_at=now,
        official_rank=official_rank,
    )
    session.add(row)
    try:
        await session.flush()
    except IntegrityError:
        raise Conflict(f"{player.display_name} is already checked in tonight.") from None
    audit.created(session, actor, row, at=now)


async def store_penalty(
    session: AsyncSession,
    actor: Actor,
    context: FieldContext,
    season: SeasonFacts,
    facts: NightFacts,
    player: Player,
    offence: penalty_rules.Offence,
    machine_id: int | None,
    note: str | None,
    ask: PenaltyAsk,
    now: datetime,
) -> PenaltyRecorded:
    """Check and store one penalty of tonight's meet with its ruling, and its step in the discipline ledger."""
    assert player.id is not None and context.season.id is not None and context.league.id is not None
    if player.id not in {c.player_id for c in facts.checkins}:
        raise RuleViolation("FIELD-ATT-1", f"{player.display_name} has not checked in tonight.")
    if machine_id is not None and machine_id not in facts.night.machine_ids:
        raise RuleViolation("FIELD-MSEL-1", "That machine is not one of tonight's.")
    penalty_rules.check_penalty(penalty_rules.Penalty(player.id, facts.night.week, offence, machine_id))
    group = facts.group_of(player.id) or (player.id,)
    decided = ruling(offence, ask, offender=player.display_name, players=len(group))
    if decided.group_replay and machine_id is None:
        raise InvalidInput("Give `machine:`: the group replays the game on that machine.")
    involved = False
    if offence is penalty_rules.Offence.INTERFERENCE:  # FIELD-OFF-2: an interference ruling goes to the SLO
        slo = await rulings.require_slo(
            session, actor, context, season, facts, rulings.concerned(facts, player.id), doing="rule on interference"
        )
        involved = slo.involved
    row = FieldPenalty(
        league_id=context.league.id,
        season_id=context.season.id,
        night_id=facts.night.id or 0,
        player_id=player.id,
        offence=offence,
        machine_id=machine_id,
        note=note,
        recorded_by=actor.user_id,
        recorded_at=now,
        ruling=(decided.text + (" [involved official]" if involved else ""))[:200] if decided.text else None,
        group_replay=decided.group_replay,
    )
    session.add(row)
    await session.flush()
    audit.created(session, actor, row, at=now, reason=note, action="field_penalty")
    after = await load_tonight(session, context)
    sanction = next(s for s in reversed(after.sanctions) if s.penalty.player == player.id)
    suspension = await _to_ledger(session, actor, context, player, sanction, facts.night, now)
    number = next((c.group_number for c in facts.checkins if c.player_id == player.id), None)
    replaying = (facts.night.id or 0, number) if decided.group_replay and number is not None else None
    return PenaltyRecorded(
        None, player.display_name, sanction, suspension.id if suspension else None, decided.text, involved, replaying
    )


async def registered_player(session: AsyncSession, context: FieldContext, user_id: int) -> Player:
    query = prepared(
        "league player of user",
        lambda: select(Player).where(Player.league_id == param("league"), Player.discord_user_id == param("user")),
    )
    player = (await session.exec(query, params={"league": context.league.id, "user": user_id})).first()
    if player is None:
        raise NotFound(
            f"<@{user_id}> is not a player of {context.league.name}: a commissioner registers players with "
            "`/player register`, or adds a guest with `/field guest`."
        )
    return player


def _missing_scores(season: SeasonFacts, facts: NightFacts, barred: set[int]) -> list[str]:
    """One line per checked-in player short of scores, e.g. 'P03: Godzilla, Jaws'; a player suspended since
    checking in (COMMON-PLAYER-2) or who forfeited the season (FIELD-PEN-3) plays no more."""
    out = barred | set(penalty_rules.season_forfeits(season.sanctions))
    players = [c.player_id for c in facts.checkins if c.player_id not in out]
    gaps = meet_rules.missing_scores(players, facts.night.machine_ids, facts.counted_scores())
    every = len(facts.night.machine_ids)
    return [
        f"{season.names.get(int(player), str(player))}: "
        + ("every machine" if len(machines) == every else ", ".join(season.machine_names[int(m)] for m in machines))
        for player, machines in gaps.items()
    ]


def _check_one_group(groups_in_game: dict[tuple[int, ...], str], group: tuple[int, ...] | None, name: str) -> None:
    """FIELD-SCORE-1: a game is played by one group (a late arrival without a group plays alone), so one
    entry cannot name players of two groups."""
    if group is None:
        return
    groups_in_game.setdefault(group, name)
    if len(groups_in_game) > 1:
        first = next(iter(groups_in_game.values()))
        raise RuleViolation(
            "FIELD-SCORE-1",
            f"{first} and {name} are in different groups, and a game is one group's: enter each group's game "
            "on its own.",
        )


async def check_allowed(
    session: AsyncSession,
    context: FieldContext,
    players: Sequence[Player],
    season: SeasonFacts,
    now: datetime,
    *,
    doing: str,
) -> None:
    """COMMON-PLAYER-2: suspended or expelled players take no part (the discipline ledger names the ruling and
    knows when a suspension ends); FIELD-PEN-3: nor does a player whose season was wiped."""
    today = now.astimezone(context.zone).date()
    ids = [player.id or 0 for player in players]
    await require_in_good_standing(session, context.league, ids, on=today, doing=doing)
    forfeited = penalty_rules.season_forfeits(season.sanctions)
    for player in players:
        if player.id in forfeited:
            raise RuleViolation(
                "FIELD-PEN-3", f"{player.display_name} forfeited the season (fourth interference offence)."
            )


async def _to_ledger(
    session: AsyncSession,
    actor: Actor,
    context: FieldContext,
    player: Player,
    sanction: penalty_rules.Sanction,
    night: FieldNight,
    now: datetime,
) -> DisciplineEntry | None:
    """COMMON-DISC-1: each step of the interference ladder is an offence in the player's discipline record; the
    4th (FIELD-PEN-3/4) and cheating (FIELD-PEN-10) suspend for the rest of the season, so the standing check
    refuses the player from now on (COMMON-PLAYER-2). Returns that suspension."""
    offence = sanction.penalty.offence
    rule = "FIELD-PEN-10" if offence is penalty_rules.Offence.CHEATING else "FIELD-PEN-3"
    if offence in (penalty_rules.Offence.EJECTION, penalty_rules.Offence.VIOLENCE):
        rule = "FIELD-PEN-4"
    cause = None
    if offence in penalty_rules.INTERFERENCE_LADDER:
        cause = await record_automatic(
            session, actor, context.league, player.id or 0, kind=DisciplineKind.OFFENCE, rule_id=rule,
            on=night.play_on, now=now,
            reason=f"Interference offence {sanction.count} this season (week {night.week}, "
            f"{offence.value.replace('_', ' ')}): {sanction.message}.",
        )  # fmt: skip
    if sanction.effect not in (penalty_rules.Effect.SEASON_FORFEIT, penalty_rules.Effect.SUSPENSION):
        return None
    return await record_automatic(
        session, actor, context.league, player.id or 0, kind=DisciplineKind.SUSPENSION, rule_id=rule,
        on=night.play_on, now=now, cause_id=cause.id if cause else None,
        reason=f"{offence.value.replace('_', ' ').capitalize()} in week {night.week}: {sanction.message}.",
    )  # fmt: skip


def _attempt(
    facts: NightFacts, player: Player, machine_id: int, machine: str, existing: set[tuple[int, int]], replay: bool
) -> int:
    """FIELD-SCORE-1: a first score, or (officials) a replay that replaces it (FIELD-MALF-2)."""
    assert player.id is not None
    attempts = [s.attempt for s in facts.scores if (s.player_id, s.machine_id) == (player.id, machine_id)]
    if not replay:  # a group replay's score (FIELD-MALF-2, FIELD-PEN-2/5) follows the attempts it replaces
        meet_rules.check_new_score(
            player.id, machine_id, existing, f"{player.display_name} already has a score on {machine}"
        )
        return 1 + max(attempts, default=0)
    if (player.id, machine_id) not in existing:
        raise RuleViolation("FIELD-MALF-2", f"{player.display_name} has no first score on {machine} to replay.")
    return 1 + max(attempts, default=1)


async def note_ties(
    session: AsyncSession, actor: Actor, season: SeasonFacts, result: NightResult, machine_id: int, now: datetime
) -> None:
    """COMMON-NOTIFY-1: a tie on the machine waits for its playoff (FIELD-SCORE-3); the commissioners are told
    once, since the night cannot close until it is entered."""
    night = result.facts.night
    for machine, tie in open_ties(result):
        if machine == machine_id:
            detail = {"week": night.week, "where": season.machine_names[machine_id], "players": sorted(
                season.names.get(int(p), str(p)) for p in tie.players
            )}  # fmt: skip
            await audit.noted_once(session, actor, night, action="tie_awaiting_playoff", detail=detail, at=now)


def open_ties(result: NightResult) -> list[tuple[MachineId, TieToBreak]]:
    return [(machine, tie) for machine, r in result.machines.items() for tie in r.open_ties]


def _names(season: SeasonFacts, players: Iterable[PlayerId]) -> str:
    return " and ".join(sorted(season.names.get(int(p), str(p)) for p in players))
