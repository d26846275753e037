"""Discipline in the ladder and field formats, on SQLite and PostgreSQL: the ledger refuses a suspended or
expelled player at every step of a night, naming the ruling, and changes nothing (COMMON-PLAYER-2); the
formats' own escalations reach the ledger (COMMON-DISC-1, LADDER-PEN-6, FIELD-PEN-3/4/10); and /admin's
tools work for players who have no team."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func
from sqlmodel import SQLModel, select

from bot.clock import ManualClock
from bot.rules.discipline import DisciplineKind
from bot.rules.field.penalties import Offence
from bot.rules.refusals import RuleViolation
from bot.services import Services
from bot.services.actor import Actor
from bot.services.ladder.nights import GroupView
from bot.services.players import Member
from storage.db import Database
from storage.discipline import DisciplineEntry

GUILD = 700
WEDNESDAY = datetime(2027, 3, 3, 23, 0, tzinfo=UTC)  # 18:00 in New York
MACHINES = ["Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Elvira", "Firepower"]


def actor(user_id: int, *, admin: bool = False) -> Actor:
    return Actor(GUILD, user_id, f"user{user_id}", frozenset(), admin, "/test")


ADMIN = actor(1, admin=True)


def member(user_id: int) -> Member:
    return Member(user_id, f"user{user_id}")


async def counts(db: Database) -> dict[str, int]:
    async with db.reading() as session:
        return {
            table.name: (await session.exec(select(func.count()).select_from(table))).one()
            for table in SQLModel.metadata.sorted_tables
        }


async def league_of(db: Database, league_format: str, machines: int = 6) -> tuple[Services, ManualClock]:
    clock = ManualClock(WEDNESDAY)
    services = Services.build(db, clock, default_timezone="America/New_York")
    await services.leagues.create(
        ADMIN, name="League", league_format=league_format, timezone="America/New_York", commissioner_role_id=None
    )
    await services.venues.add_venue(ADMIN, None, name="The Break", address=None)
    for model in MACHINES[:machines]:
        await services.venues.add_machine(
            ADMIN, None, venue_name="The Break", model=model, variant=None, max_players=4, balls=3
        )
    return services, clock


@pytest.fixture
async def ladder(db: Database) -> tuple[Services, ManualClock]:
    services, clock = await league_of(db, "ladder", machines=5)  # five machines: games set at open (LADDER-GSEL-2)
    for user in range(11, 17):
        await services.ladder_players.join(actor(user), None, skill=20 - user, member=None)
    for model in MACHINES[:5]:
        await services.ladder_nights.set_normalizer(ADMIN, None, machine=model, value="10,000,000")
    return services, clock


@pytest.fixture
async def field(db: Database) -> Services:
    services, _ = await league_of(db, "field")
    for user in range(11, 19):
        await services.players.register(ADMIN, None, member=member(user), ifpa_number=None, ifpa_rank=None)
    machines = await services.field_nights.machine_choices(GUILD, None, tonight=False)
    await services.field_nights.open_night(ADMIN, None, machine_ids=[m for m, _ in machines[:5]], play_on=None)
    return services


async def test_a_suspended_ladder_player_is_refused_at_every_step_naming_the_ruling(
    ladder: tuple[Services, ManualClock], db: Database
) -> None:
    """COMMON-PLAYER-2: check-in, score entry, premakeup recording and a group swap are refused with the
    ruling's id and change nothing; a suspension through a date ends on its own."""
    services, clock = ladder
    opened = await services.ladder_nights.open(ADMIN, None, play_on=None)
    await services.ladder_players.checkin(actor(11), None, member=None)
    until = (WEDNESDAY + timedelta(days=6)).date().isoformat()
    ruling = await services.discipline.suspend(ADMIN, None, member_id=11, reason="abusive", until=until)
    assert ruling.entry.rule_id == "COMMON-DISC-1"
    before = await counts(db)
    elsewhere = next(name for g in opened.groups for name, _, _ in g.players if "user11" not in g_names(g))
    for attempt in (
        services.ladder_players.checkin(ADMIN, None, member=member(11)),
        services.ladder_play.score(actor(11), None, game=1, score="1,000,000", member=None),
        services.ladder_premakeups.record(actor(11), None, machine="Elvira", score="1,000,000"),
        services.ladder_nights.swap(ADMIN, None, first=member(11), second=member(int(elsewhere[4:]))),
    ):
        with pytest.raises(RuleViolation, match=rf"ruling #{ruling.entry.id}\)") as refused:
            await attempt
        assert refused.value.rule_id == "COMMON-PLAYER-2"
        assert f"suspended through {until}" in str(refused.value)
    assert await counts(db) == before
    await services.ladder_players.checkin(actor(12), None, member=None)  # the group plays on without them

    clock.set(WEDNESDAY + timedelta(days=7))  # the suspension's last day has passed
    await services.ladder_play.score(actor(11), None, game=1, score="1,000,000", member=None)


def g_names(group: GroupView) -> list[str]:
    return [name for name, _, _ in group.players]


async def test_a_ladder_night_opens_without_a_suspended_player(ladder: tuple[Services, ManualClock]) -> None:
    """COMMON-PLAYER-2: groups are dealt without a suspended or expelled player; a lifted suspension deals the
    player back in, and an expulsion cannot be lifted."""
    services, _ = ladder
    await services.discipline.expel(ADMIN, None, member_id=14, reason="violence")
    await services.discipline.suspend(ADMIN, None, member_id=13, reason="threats", until=None)
    await services.discipline.suspend(ADMIN, None, member_id=15, reason="threats", until=None)
    await services.discipline.lift(ADMIN, None, member_id=15, reason="apologised")
    opened = await services.ladder_nights.open(ADMIN, None, play_on=None)
    assert sorted(name for g in opened.groups for name in g_names(g)) == ["user11", "user12", "user15", "user16"]
    with pytest.raises(RuleViolation, match="is expelled") as refused:
        await services.discipline.lift(ADMIN, None, member_id=14, reason="second chance")
    assert refused.value.rule_id == "COMMON-PLAYER-2"


async def test_suspended_or_expelled_players_cannot_join_the_ladder(db: Database) -> None:
    """COMMON-PLAYER-2: registration is refused from the ledger, naming the ruling."""
    services, _ = await league_of(db, "ladder")
    for user in (21, 22):
        await services.players.register(ADMIN, None, member=member(user), ifpa_number=None, ifpa_rank=None)
    suspended = await services.discipline.suspend(ADMIN, None, member_id=21, reason="abuse", until=None)
    expelled = await services.discipline.expel(ADMIN, None, member_id=22, reason="violence")
    for user, ruling, status in ((21, suspended, "suspended"), (22, expelled, "expelled")):
        with pytest.raises(RuleViolation, match=rf"{status}.*ruling #{ruling.entry.id}") as refused:
            await services.ladder_players.join(actor(user), None, skill=5, member=None)
        assert refused.value.rule_id == "COMMON-PLAYER-2"


async def test_intentional_slams_are_logged_and_a_repeat_is_flagged(ladder: tuple[Services, ManualClock]) -> None:
    """LADDER-PEN-6 / COMMON-DISC-1: each intentional slam is an unsportsmanlike offence in the ledger; the
    second in a season flags an expulsion review in /admin history. Warnings in a ladder league do not
    suspend (TEAM-DISC-2 is the team format's), and a team cannot be warned."""
    services, _ = ladder
    opened = await services.ladder_nights.open(ADMIN, None, play_on=None)
    assert all(g.games for g in opened.groups)
    first = await services.ladder_rulings.penalty(ADMIN, None, game=1, offence="slam_intentional", member=member(11))
    accidental = await services.ladder_rulings.penalty(
        ADMIN, None, game=2, offence="slam_accidental", member=member(11)
    )
    second = await services.ladder_rulings.penalty(ADMIN, None, game=3, offence="slam_intentional", member=member(11))
    assert first.ledger_entry and second.ledger_entry and accidental.ledger_entry is None
    assert second.expulsion_review
    history = await services.discipline.history(ADMIN, None, member_id=11, team_name=None)
    assert [(e.kind, e.rule_id, e.automatic) for e in history.entries] == [
        (DisciplineKind.OFFENCE, "LADDER-PEN-6", True)
    ] * 2
    assert ("LADDER-PEN-6", "2 intentional slam tilts this season: review for expulsion.") in history.flags
    await services.ladder_players.checkin(actor(11), None, member=None)  # an offence bars nobody

    for _ in range(2):
        warned = await services.discipline.warn(
            ADMIN, None, member_id=12, team_name=None, reason="language", rule_id=None
        )
        assert warned.automatic is None and warned.entry.rule_id == "COMMON-DISC-1"
    await services.ladder_players.checkin(actor(12), None, member=None)
    with pytest.raises(RuleViolation, match="has no teams") as refused:
        await services.discipline.warn(ADMIN, None, member_id=None, team_name="Flippers", reason="rules")
    assert refused.value.rule_id == "COMMON-DISC-1"


async def test_the_fourth_interference_offence_suspends_a_field_player(field: Services, db: Database) -> None:
    """FIELD-PEN-3 / COMMON-DISC-1: every step of the interference ladder is an offence in the ledger; the
    fourth forfeits the season and suspends (an automatic ledger entry), so check-in and scores are refused
    naming that ruling (COMMON-PLAYER-2). /admin history lists them all."""
    services = field
    for user in (11, 12, 13, 14):
        await services.field_nights.check_in(actor(user), None, member_id=None)
    machine = (await services.field_nights.machine_choices(GUILD, None, tonight=True))[0][0]
    for step in range(1, 4):
        recorded = await services.field_nights.record_penalty(
            ADMIN, None, member_id=11, offence=Offence.INTERFERENCE, machine_id=machine, note=f"shove {step}"
        )
        assert recorded.suspension is None
    fourth = await services.field_nights.record_penalty(
        ADMIN, None, member_id=11, offence=Offence.INTERFERENCE, machine_id=machine, note="shove 4"
    )
    assert fourth.suspension is not None
    history = await services.discipline.history(ADMIN, None, member_id=11, team_name=None)
    assert [(e.kind, e.rule_id) for e in history.entries] == [(DisciplineKind.OFFENCE, "FIELD-PEN-3")] * 4 + [
        (DisciplineKind.SUSPENSION, "FIELD-PEN-3")
    ]
    suspension = history.entries[-1]
    assert suspension.automatic and suspension.ends_on is None and suspension.cause_id == history.entries[3].id
    assert "Interference offence 4 this season" in history.entries[3].reason

    before = await counts(db)
    with pytest.raises(RuleViolation, match=rf"suspended for the rest of the season \(ruling #{fourth.suspension}\)"):
        await services.field_nights.enter_scores(ADMIN, None, machine_id=machine, entries=[(11, "1000")])
    assert await counts(db) == before


async def test_cheating_suspends_and_a_lift_lets_the_player_back(field: Services, db: Database) -> None:
    """FIELD-PEN-10: cheating is an immediate suspension in the ledger (COMMON-PLAYER-2 refuses the check-in,
    a guest approval and the finals entry); a commissioner's lift lets the player check in again."""
    services = field
    await services.field_nights.check_in(actor(12), None, member_id=None)
    cheated = await services.field_nights.record_penalty(
        ADMIN, None, member_id=12, offence=Offence.CHEATING, machine_id=None, note="marked the sheet"
    )
    assert cheated.suspension is not None
    await services.field_nights.close_night(ADMIN, None)
    machines = await services.field_nights.machine_choices(GUILD, None, tonight=False)
    await services.field_nights.open_night(ADMIN, None, machine_ids=[m for m, _ in machines[:5]], play_on=None)
    before = await counts(db)
    for attempt in (
        services.field_nights.check_in(actor(12), None, member_id=None),
        services.field_nights.add_guest(ADMIN, None, member(12)),
    ):
        with pytest.raises(RuleViolation, match=rf"ruling #{cheated.suspension}\)") as refused:
            await attempt
        assert refused.value.rule_id == "COMMON-PLAYER-2"
    assert await counts(db) == before
    async with db.reading() as session:
        entry = await session.get(DisciplineEntry, cheated.suspension)
    assert entry is not None and entry.rule_id == "FIELD-PEN-10" and entry.kind is DisciplineKind.SUSPENSION
    await services.discipline.lift(ADMIN, None, member_id=12, reason="one-off, paid back")
    await services.field_nights.check_in(actor(12), None, member_id=None)


async def test_groups_leave_out_a_field_player_suspended_after_checking_in(field: Services) -> None:
    """COMMON-PLAYER-2: the group deal skips a player suspended since checking in; the others play on."""
    services = field
    for user in range(11, 19):
        await services.field_nights.check_in(actor(user), None, member_id=None)
    await services.discipline.suspend(ADMIN, None, member_id=18, reason="threats", until=None)
    view = await services.field_nights.make_groups(ADMIN, None)
    placed = {p for group in view.result.facts.groups() for p in group}
    async with services.field_nights.db.reading() as session:
        suspended = (await session.exec(select(DisciplineEntry.player_id))).one()
    assert suspended not in placed and len(placed) == 7
