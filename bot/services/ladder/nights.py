"""League nights: the commissioner sets normalizers, opens a night (working machines and the week's
groups, LADDER-GSEL-1, LADDER-GROUP-1/2/7) and closes it (bot/services/ladder/close.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.ladder.games import picks_needed, select_games
from bot.rules.ladder.groups import Skill, check_groups, first_week_groups, group_sizes, regroup
from bot.rules.ladder.scoring import check_normalizer
from bot.rules.refusals import Conflict, Refusal, RuleViolation
from bot.rules.scores import parse_score
from bot.services import audit
from bot.services.actor import Actor
from bot.services.ladder.close import NightSummary, close_night
from bot.services.ladder.facts import (
    Entrant,
    LadderLeague,
    barred_entrants,
    entrant_of,
    entrants,
    group_of,
    ladder_league,
    machine_named,
    night_groups,
    nights,
    open_night,
    ranks,
    require_standing,
    week_records,
)
from bot.services.lookup import insert_unique
from bot.services.permissions import require_commissioner
from bot.services.players import Member
from bot.services.ratings import RatingService
from storage.db import Database
from storage.ladder import (
    LadderAttendance,
    LadderGroup,
    LadderMachine,
    LadderNight,
    LadderPick,
    LadderScore,
    LadderStatus,
)
from storage.models import Machine


@dataclass(frozen=True)
class GroupView:
    number: int
    division: str | None
    players: list[tuple[str, int, bool]]  # name, league rank, checked in
    games: list[str] | None  # the night's slots once chosen (LADDER-GSEL-4)


@dataclass(frozen=True)
class GroupsView:
    league: str
    week: int
    play_on: date | None
    machines: list[str]
    groups: list[GroupView]
    planned: bool  # True: next week's groups from the last closed night, not an open night
    choose_position: bool = False  # LADDER-AMB-30: later games' order is the order of choosing positions


class LadderNightService:
    def __init__(self, db: Database, clock: Clock, ratings: RatingService) -> None:
        self.db = db
        self.clock = clock
        self.ratings = ratings

    async def set_normalizer(
        self, actor: Actor, league_name: str | None, *, machine: str, value: str
    ) -> tuple[str, int]:
        """LADDER-NORM-1, LADDER-AMB-28: the commissioner enters each machine's normalizer."""
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            require_commissioner(actor, ladder.league, "set normalizers")
            found = await machine_named(session, ladder, machine)
            normalizer = parse_score(value, field=f"Normalizer for {found.title}", rules=ladder.options.score_input)
            check_normalizer(found.title, normalizer)
            assert found.id is not None
            row = await session.get(LadderMachine, found.id)
            if row is None:
                row = LadderMachine(machine_id=found.id, league_id=ladder.league_id, normalizer=normalizer)
                session.add(row)
                await session.flush()
                audit.created(session, actor, row, at=now)
            else:
                before = audit.snapshot(row)
                row.normalizer = normalizer
                session.add(row)
                audit.updated(session, actor, row, before=before, at=now)
            return found.title, normalizer

    async def open(self, actor: Actor, league_name: str | None, *, play_on: date | None) -> GroupsView:
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            require_commissioner(actor, ladder.league, "open a league night")
            season_nights = await nights(session, ladder)
            if season_nights and season_nights[-1].closed_at is None:
                week = season_nights[-1].week
                raise Conflict(f"Week {week} is still open: close it with `/ladder night close` first.")
            week = len(season_nights) + 1
            if week > ladder.options.regular_weeks:
                raise RuleViolation(
                    "LADDER-CFG-1", f"All {ladder.options.regular_weeks} regular-season weeks have been played."
                )
            working = await _working_machines(session, ladder)
            everyone = await entrants(session, ladder)
            league_rank = ranks(everyone, await week_records(session, ladder))
            previous = season_nights[-1] if season_nights else None
            day = play_on or now.astimezone(ZoneInfo(ladder.league.timezone)).date()
            barred = await barred_entrants(session, ladder, everyone, on=day)
            rated = await self._ratings(ladder, actor.guild_id) if previous is None else None  # week 1 only
            groups = _groups_for_week(everyone, league_rank, previous, barred, rated)
            night = LadderNight(
                league_id=ladder.league_id,
                season_id=ladder.season_id,
                week=week,
                play_on=day,
                machines=working,
                opened_at=now,
            )
            await insert_unique(session, night, f"Week {week} was opened a moment ago; see `/ladder groups`.")
            assert night.id is not None
            audit.created(session, actor, night, at=now)
            names = [m["name"] for m in working]
            games = ladder.options.games_per_match
            # LADDER-GSEL-2: as many working machines as games (or one machine), so there is nothing to pick
            fixed = None if picks_needed(names, games) else select_games(names, [], pickers=1, games=games)
            ids = {m["name"]: m["id"] for m in working}
            for number, (division, members) in enumerate(groups, start=1):
                session.add(
                    LadderGroup(
                        night_id=night.id,
                        number=number,
                        division=division,
                        members=members,
                        ranks={str(m): league_rank[m] for m in members},
                        slots=[ids[name] for name in fixed] if fixed else None,
                    )
                )
            await session.flush()
            return await _view(session, ladder, night, everyone, planned=False)

    async def close(self, actor: Actor, league_name: str | None) -> NightSummary:
        now = self.clock.now()
        try:
            async with self.db.writing() as session:
                ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
                require_commissioner(actor, ladder.league, "close a league night")
                night = await open_night(session, ladder)
                before = audit.snapshot(night)
                summary = await close_night(session, ladder, night, now)
                audit.updated(session, actor, night, before=before, at=now)
                if summary.no_shows:  # COMMON-NOTIFY-1: the commissioners are told
                    detail = {"week": night.week, "no_shows": summary.no_shows, "dropped": summary.dropped}
                    audit.noted(session, actor, night, action="no_shows", detail=detail, at=now)
                for shared in summary.shared_payouts:  # the rules cannot order them: flagged (COMMON-NOTIFY-1)
                    detail = {"week": night.week, "players": [n for n, _ in shared], "cents": [c for _, c in shared]}
                    audit.noted(session, actor, night, action="payout_tie", detail=detail, at=now)
                return summary
        except IntegrityError:  # another commissioner closed it a moment ago; theirs stands
            raise Conflict("This night was closed a moment ago; see `/ladder groups` for next week.") from None

    async def swap(self, actor: Actor, league_name: str | None, *, first: Member, second: Member) -> GroupsView:
        """LADDER-GROUP-7 / LADDER-AMB-26: the commissioner places players by swapping two of them, in tonight's
        groups before either group has picked or scored, or in next week's groups once a night is closed.
        Sizes stay, and from week 6 both must be in the same division (LADDER-GROUP-8)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            require_commissioner(actor, ladder.league, "move players between groups")
            season_nights = await nights(session, ladder)
            if not season_nights:
                raise RuleViolation("LADDER-GROUP-2", "Week 1's groups are dealt by skill when the night opens.")
            everyone = await entrants(session, ladder)
            a = entrant_of(everyone, first.user_id, who=first.display_name)
            b = entrant_of(everyone, second.user_id, who=second.display_name)
            await require_standing(session, ladder, [a, b], now, doing="be placed in a group")
            if a.entry.division != b.entry.division:
                raise RuleViolation("LADDER-GROUP-8", f"{a.name} and {b.name} play in different divisions.")
            night = season_nights[-1]
            if night.closed_at is None:
                groups = await night_groups(session, night)
                group_a, group_b = group_of(groups, a.id), group_of(groups, b.id)
                for group in (group_a, group_b):
                    if await _has_play(session, group):
                        raise Conflict(f"Group {group.number} has already picked or played; its players stay.")
                for group, leaving, coming, rank in (
                    (group_a, a.id, b.id, group_b.ranks[str(b.id)]),
                    (group_b, b.id, a.id, group_a.ranks[str(a.id)]),
                ):
                    before = audit.snapshot(group)
                    group.members = [coming if p == leaving else p for p in group.members]
                    group.ranks = {**{k: v for k, v in group.ranks.items() if k != str(leaving)}, str(coming): rank}
                    session.add(group)
                    audit.updated(session, actor, group, before=before, at=now, reason="commissioner placement")
            else:
                before = audit.snapshot(night)
                swapped = {a.id: b.id, b.id: a.id}
                night.next_groups = [[swapped.get(p, p) for p in g] for g in night.next_groups or []]
                session.add(night)
                audit.updated(session, actor, night, before=before, at=now, reason="commissioner placement")
            await session.flush()
            return await _view(session, ladder, night, everyone, planned=night.closed_at is not None)

    async def _ratings(self, ladder: LadderLeague, guild_id: int) -> dict[int, float] | None:
        """`use_ratings`: each rated member's predictive rating (by Discord user id); None when the option is off."""
        if not ladder.options.use_ratings:
            return None
        ratings = await self.ratings.of_members(guild_id)
        return {user: rating.predictive for user, rating in ratings.items()}

    async def machine_names(self, guild_id: int, league_name: str | None, *, tonight: bool) -> list[str]:
        """For autocomplete: the league's machines, or only tonight's working set; nothing when unknown."""
        try:
            async with self.db.reading() as session:
                ladder = await ladder_league(session, guild_id, league_name, self.clock.now())
                if tonight:
                    return [m["name"] for m in (await open_night(session, ladder)).machines]
                query = select(Machine).where(Machine.league_id == ladder.league_id, Machine.removed_at == None)  # noqa: E711
                return sorted(m.title for m in (await session.exec(query)).all())
        except Refusal:
            return []

    async def groups(self, actor: Actor, league_name: str | None) -> GroupsView:
        """The open night's groups, or the next week's once the last night closed (LADDER-GROUP-3)."""
        async with self.db.reading() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            season_nights = await nights(session, ladder)
            if not season_nights:
                raise RuleViolation("LADDER-GROUP-2", "Week 1's groups are made when the commissioner opens the night.")
            everyone = await entrants(session, ladder)
            last = season_nights[-1]
            return await _view(session, ladder, last, everyone, planned=last.closed_at is not None)


async def planned_groups(session: AsyncSession, ladder: LadderLeague, night: LadderNight) -> GroupsView:
    """The groups a closed night made for the next week (LADDER-GROUP-3), for the scheduled post."""
    return await _view(session, ladder, night, await entrants(session, ladder), planned=True)


async def _has_play(session: AsyncSession, group: LadderGroup) -> bool:
    picked = (await session.exec(select(LadderPick.id).where(LadderPick.group_id == group.id))).first()
    scored = (await session.exec(select(LadderScore.id).where(LadderScore.group_id == group.id))).first()
    return picked is not None or scored is not None


async def _working_machines(session: AsyncSession, ladder: LadderLeague) -> list[dict[str, Any]]:
    """LADDER-GSEL-1 / LADDER-NORM-1: the commissioner records tonight's working set P when opening the night: the
    league's machines in service (a machine out of service after a malfunction is left out), each with its
    normalizer."""
    machines = (
        await session.exec(
            select(Machine)
            .where(Machine.league_id == ladder.league_id, Machine.removed_at == None)  # noqa: E711
            .order_by(Machine.model_name, col(Machine.id))
        )
    ).all()
    working = [m for m in machines if m.status.in_service]
    if not working:
        raise RuleViolation("LADDER-GSEL-1", "No machine is in service: add machines with `/machine add`.")
    normalizers = {
        row.machine_id: row.normalizer
        for row in (await session.exec(select(LadderMachine).where(LadderMachine.league_id == ladder.league_id))).all()
    }
    return [
        {"id": m.id, "name": m.title, "normalizer": check_normalizer(m.title, normalizers.get(m.id or 0))}
        for m in working
    ]


def _groups_for_week(
    everyone: dict[int, Entrant],
    league_rank: dict[int, int],
    previous: LadderNight | None,
    barred: set[int],
    ratings: dict[int, float] | None,
) -> list[tuple[str | None, list[int]]]:
    """Week 1 by skill, or by rating where the league uses ratings (`ratings` given; LADDER-GROUP-2); later the
    last night's movement, re-dealt when players dropped or joined (LADDER-GROUP-7, LADDER-ATT-6), per division
    from week 6 (LADDER-DIV-2). Players suspended or expelled that day are left out, as if they had dropped
    (COMMON-PLAYER-2)."""
    active = sorted(
        (i for i, e in everyone.items() if e.entry.status is LadderStatus.ACTIVE and i not in barred),
        key=lambda i: league_rank[i],
    )
    if len(active) < 3:
        raise RuleViolation(
            "LADDER-AMB-11", f"A ladder night needs at least 3 active players; there are {len(active)}."
        )
    if previous is None or previous.next_groups is None:
        rated = ratings or {}
        skills = [
            Skill(i, everyone[i].entry.skill, order, everyone[i].entry.seed, rated.get(everyone[i].discord_user_id))
            for order, i in enumerate(sorted(active))
        ]
        week_one = first_week_groups(skills, by_rating=ratings is not None)
        planned: list[tuple[str | None, list[int]]] = [(None, g) for g in week_one]
    else:
        divisions = sorted({everyone[i].entry.division for i in active}, key=lambda d: d or "")
        planned = []
        for division in divisions:
            ladder_groups = [g for g in previous.next_groups if g and everyone[g[0]].entry.division == division]
            in_division = [i for i in active if everyone[i].entry.division == division]
            planned += [(division, g) for g in regroup(ladder_groups, in_division)]
    for division in {d for d, _ in planned}:  # LADDER-GROUP-8: the size vector, one division per group
        division_ladder = [members for d, members in planned if d == division]
        check_groups(division_ladder, group_sizes(sum(len(g) for g in division_ladder)))
    return [(division, sorted(members, key=lambda i: league_rank[i])) for division, members in planned]


async def _view(
    session: AsyncSession, ladder: LadderLeague, night: LadderNight, everyone: dict[int, Entrant], *, planned: bool
) -> GroupsView:
    names = {m["id"]: m["name"] for m in night.machines}
    if planned:
        assert night.next_groups is not None
        league_rank = ranks(everyone, await week_records(session, ladder))
        groups = []
        for number, members in enumerate(night.next_groups, start=1):
            division = everyone[members[0]].entry.division if members else None
            players = [(everyone[i].name, league_rank[i], False) for i in sorted(members, key=lambda i: league_rank[i])]
            groups.append(GroupView(number, division, players, None))
        return GroupsView(ladder.league.name, night.week + 1, None, [], groups, planned=True)
    checked_in = {
        row.ladder_player_id
        for row in (
            await session.exec(
                select(LadderAttendance).where(
                    LadderAttendance.season_id == ladder.season_id, LadderAttendance.week == night.week
                )
            )
        ).all()
        if row.checked_in_at is not None
    }
    views = [
        GroupView(
            group.number,
            group.division,
            [(everyone[i].name, group.ranks[str(i)], i in checked_in) for i in group.members],
            [names[m] for m in group.slots] if group.slots else None,
        )
        for group in await night_groups(session, night)
    ]
    return GroupsView(
        ladder.league.name,
        night.week,
        night.play_on,
        list(names.values()),
        views,
        planned=False,
        choose_position=ladder.options.choose_position,
    )
