"""Every table stores and returns its facts unchanged, and the database enforces the model's rules.

All tests run on SQLite and on PostgreSQL (the `db` fixture).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError, StatementError
from sqlmodel import SQLModel, col, select

from storage.db import Database, WriteInReadingBlock
from storage.models import (
    AuditEntry,
    BotState,
    League,
    LeagueFormat,
    Machine,
    MachineStatus,
    Player,
    PlayerStatus,
    RosterEnd,
    RosterEntry,
    RosterRole,
    Season,
    Team,
    Venue,
)
from tests.storage import helpers as make
from tests.storage.helpers import add, count, insert

SNOWFLAKE = 1234567890123456789
BIGINT_MAX = 2**63 - 1


async def fetch_one(db: Database, model: type[Any], row_id: int | None) -> Any:
    """Read a row back in a new session, so nothing comes from the writer's identity map."""
    async with db.reading() as session:
        row = await session.get(model, row_id)
    assert row is not None, f"{model.__name__} {row_id} was not stored"
    return row


def assert_violates(exc: pytest.ExceptionInfo[IntegrityError], constraint: str, *columns: str) -> None:
    """PostgreSQL names the constraint (from our naming convention); SQLite lists its columns."""
    message = str(exc.value.orig)
    assert constraint in message or all(column in message for column in columns), message


# --- round trips -------------------------------------------------------------------------------------


async def test_league_round_trips_with_nested_json_options(db: Database) -> None:
    options = {
        "points": {"win": 2, "tie": 1, "loss": 0},
        "machines_per_round": [4, 5],
        "tiebreak": None,
        "playoffs": True,
        "note": "Ünïcode ✓ flippers",
    }
    stored = await insert(db, make.league(options=options, commissioner_role_id=SNOWFLAKE + 1))

    loaded = await fetch_one(db, League, stored.id)

    assert loaded.options == options
    assert loaded.name == "Flipper Kings" and loaded.name_key == "flipper kings"
    assert loaded.format == LeagueFormat.TEAM
    assert loaded.timezone == "Europe/Berlin"
    assert loaded.commissioner_role_id == SNOWFLAKE + 1


async def test_league_options_default_to_an_empty_object(db: Database) -> None:
    stored = await insert(db, make.league())

    assert (await fetch_one(db, League, stored.id)).options == {}


async def test_season_round_trips_with_dates(db: Database) -> None:
    lg = await insert(db, make.league())
    stored = await insert(db, make.season(lg.id, number=3, starts_on=date(2026, 1, 5), ends_on=date(2026, 4, 27)))

    loaded = await fetch_one(db, Season, stored.id)

    assert (loaded.league_id, loaded.number, loaded.name) == (lg.id, 3, "Season 3")
    assert (loaded.starts_on, loaded.ends_on) == (date(2026, 1, 5), date(2026, 4, 27))


async def test_venue_round_trips(db: Database) -> None:
    lg = await insert(db, make.league())
    stored = await insert(db, make.venue(lg.id, address="1 Main St, Springfield", regular_league_venue=False))

    loaded = await fetch_one(db, Venue, stored.id)

    assert (loaded.name, loaded.name_key, loaded.address) == ("Silverball Bar", "silverball bar", stored.address)
    assert loaded.regular_league_venue is False


async def test_machine_round_trips_with_status_and_times(db: Database) -> None:
    lg = await insert(db, make.league())
    ven = await insert(db, make.venue(lg.id))
    removed = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    stored = await insert(
        db,
        make.machine(
            lg.id,
            ven.id,
            model_name="Attack from Mars",
            variant="Remake LE",
            family="Attack from Mars",
            max_players=4,
            balls_per_game=5,
            status=MachineStatus.KNOWN_ISSUE_ANNOUNCED,
            removed_at=removed,
        ),
    )

    loaded = await fetch_one(db, Machine, stored.id)

    assert (loaded.league_id, loaded.venue_id) == (lg.id, ven.id)
    assert loaded.title == "Attack from Mars (Remake LE)"
    assert (loaded.max_players, loaded.balls_per_game) == (4, 5)
    assert loaded.status == MachineStatus.KNOWN_ISSUE_ANNOUNCED
    assert loaded.installed_at == make.WHEN and loaded.status_changed_at == make.WHEN
    assert loaded.removed_at == removed


async def test_machine_status_defaults_to_working_and_removed_at_to_null(db: Database) -> None:
    lg = await insert(db, make.league())
    ven = await insert(db, make.venue(lg.id))
    stored = await insert(db, make.machine(lg.id, ven.id))

    loaded = await fetch_one(db, Machine, stored.id)

    assert loaded.status == MachineStatus.WORKING
    assert loaded.removed_at is None
    assert loaded.variant is None


async def test_enum_columns_load_as_their_enum_members(db: Database) -> None:
    lg = await insert(db, make.league(format=LeagueFormat.LADDER))
    ven = await insert(db, make.venue(lg.id))
    sea = await insert(db, make.season(lg.id))
    tm = await insert(db, make.team(lg.id))
    pl = await insert(db, make.player(lg.id, status=PlayerStatus.DROPPED))
    ma = await insert(db, make.machine(lg.id, ven.id, status=MachineStatus.UNPLAYABLE))
    ro = await insert(db, make.roster_entry(lg.id, sea.id, tm.id, pl.id, role=RosterRole.RESERVE))

    loaded = [
        (await fetch_one(db, League, lg.id)).format,
        (await fetch_one(db, Player, pl.id)).status,
        (await fetch_one(db, Machine, ma.id)).status,
        (await fetch_one(db, RosterEntry, ro.id)).role,
    ]

    assert [type(value) for value in loaded] == [LeagueFormat, PlayerStatus, MachineStatus, RosterRole]
    assert loaded == [
        LeagueFormat.LADDER,
        PlayerStatus.DROPPED,
        MachineStatus.UNPLAYABLE,
        RosterRole.RESERVE,
    ]
    assert loaded[2].in_service is False


async def test_enum_columns_are_stored_as_their_plain_values(db: Database) -> None:
    lg = await insert(db, make.league())
    ven = await insert(db, make.venue(lg.id))
    await insert(db, make.machine(lg.id, ven.id, status=MachineStatus.KNOWN_ISSUE_ANNOUNCED))

    async with db.connect() as connection:
        raw = (await connection.exec_driver_sql("SELECT status FROM machine")).scalar_one()

    assert raw == "known_issue_announced"


async def test_enum_columns_accept_the_plain_value_and_refuse_unknown_ones(db: Database) -> None:
    lg = await insert(db, make.league())
    ven = await insert(db, make.venue(lg.id))
    stored = await insert(db, make.machine(lg.id, ven.id, status="out_of_service"))
    assert (await fetch_one(db, Machine, stored.id)).status is MachineStatus.OUT_OF_SERVICE

    with pytest.raises(StatementError) as exc:
        await insert(db, make.machine(lg.id, ven.id, status="on_fire"))

    assert isinstance(exc.value.orig, ValueError)
    assert await count(db, Machine) == 1


async def test_team_round_trips_with_home_venue(db: Database) -> None:
    lg = await insert(db, make.league())
    ven = await insert(db, make.venue(lg.id))
    stored = await insert(db, make.team(lg.id, home_venue_id=ven.id))

    loaded = await fetch_one(db, Team, stored.id)

    assert (loaded.league_id, loaded.name, loaded.name_key) == (lg.id, "Tilt Warriors", "tilt warriors")
    assert loaded.home_venue_id == ven.id


async def test_deleting_a_home_venue_keeps_the_team_without_one(db: Database) -> None:
    lg = await insert(db, make.league())
    ven = await insert(db, make.venue(lg.id))
    stored = await insert(db, make.team(lg.id, home_venue_id=ven.id))

    async with db.writing() as session:
        await session.exec(delete(Venue).where(col(Venue.id) == ven.id))

    assert (await fetch_one(db, Team, stored.id)).home_venue_id is None


async def test_player_round_trips_with_ifpa_fields_and_snowflake(db: Database) -> None:
    lg = await insert(db, make.league())
    stored = await insert(
        db,
        make.player(
            lg.id,
            discord_user_id=SNOWFLAKE,
            display_name="Zoë “The Wizard”",
            ifpa_number=12345,
            ifpa_rank=678,
            status=PlayerStatus.SUSPENDED,
        ),
    )

    loaded = await fetch_one(db, Player, stored.id)

    assert loaded.discord_user_id == SNOWFLAKE
    assert loaded.display_name == "Zoë “The Wizard”"
    assert (loaded.ifpa_number, loaded.ifpa_rank) == (12345, 678)
    assert loaded.status == PlayerStatus.SUSPENDED
    assert loaded.registered_at == make.WHEN


async def test_roster_entry_round_trips(db: Database) -> None:
    lg = await insert(db, make.league())
    sea = await insert(db, make.season(lg.id))
    tm = await insert(db, make.team(lg.id))
    pl = await insert(db, make.player(lg.id))
    stored = await insert(
        db,
        make.roster_entry(
            lg.id,
            sea.id,
            tm.id,
            pl.id,
            role=RosterRole.CAPTAIN,
            ends_on=date(2026, 2, 2),
            end_reason=RosterEnd.DROPPED,
            ifpa_rank=148,
        ),
    )

    loaded = await fetch_one(db, RosterEntry, stored.id)

    assert (loaded.league_id, loaded.season_id, loaded.team_id, loaded.player_id) == (
        lg.id,
        sea.id,
        tm.id,
        pl.id,
    )
    assert loaded.role == RosterRole.CAPTAIN
    assert (loaded.starts_on, loaded.ends_on) == (date(2026, 1, 5), date(2026, 2, 2))
    assert (loaded.end_reason, loaded.ifpa_rank) == (RosterEnd.DROPPED, 148)
    assert loaded.applies_on(date(2026, 2, 1)) and not loaded.applies_on(date(2026, 2, 2))
    assert not loaded.applies_on(date(2026, 1, 4))


async def test_audit_entry_round_trips_with_before_and_after_snapshots(db: Database) -> None:
    lg = await insert(db, make.league())
    before = {"status": "working", "notes": ["left flipper weak"], "count": 0}
    after = {"status": "unplayable", "notes": [], "count": 1, "nested": {"by": SNOWFLAKE}}
    stored = await insert(
        db,
        make.audit(
            guild_id=SNOWFLAKE,
            league_id=lg.id,
            actor_id=BIGINT_MAX,
            command="/machine status",
            action="update",
            entity="machine",
            entity_id=42,
            before=before,
            after=after,
            reason="ball stuck in the castle",
        ),
    )

    loaded = await fetch_one(db, AuditEntry, stored.id)

    assert (loaded.before, loaded.after) == (before, after)
    assert (loaded.guild_id, loaded.actor_id, loaded.league_id) == (SNOWFLAKE, BIGINT_MAX, lg.id)
    assert (loaded.command, loaded.action, loaded.entity, loaded.entity_id) == (
        "/machine status",
        "update",
        "machine",
        42,
    )
    assert loaded.reason == "ball stuck in the castle"
    assert loaded.at == make.WHEN


async def test_audit_entry_without_league_or_snapshots_stores_nulls(db: Database) -> None:
    stored = await insert(db, make.audit())

    loaded = await fetch_one(db, AuditEntry, stored.id)

    assert (loaded.league_id, loaded.before, loaded.after, loaded.reason) == (None, None, None, None)


async def test_bot_state_round_trips_and_merge_replaces_the_value(db: Database) -> None:
    await insert(db, BotState(key="commands_hash", value="a" * 64))

    async with db.writing() as session:
        await session.merge(BotState(key="commands_hash", value="b" * 64))

    async with db.reading() as session:
        stored = (await session.exec(select(BotState))).all()
    assert [(s.key, s.value) for s in stored] == [("commands_hash", "b" * 64)]


async def test_bot_state_key_is_unique(db: Database) -> None:
    await insert(db, BotState(key="commands_hash", value="a"))

    with pytest.raises(IntegrityError):
        await insert(db, BotState(key="commands_hash", value="b"))

    assert await count(db, BotState) == 1


# --- 64-bit Discord ids --------------------------------------------------------------------------------


@pytest.mark.parametrize("snowflake", [SNOWFLAKE, BIGINT_MAX, 2**53 + 1])
async def test_snowflakes_survive_exactly_and_can_be_filtered_on(db: Database, snowflake: int) -> None:
    await insert(db, make.league(guild_id=snowflake, created_by=snowflake, commissioner_role_id=snowflake))
    await insert(db, make.league(guild_id=snowflake - 1, name="Neighbour"))

    async with db.reading() as session:
        found = (await session.exec(select(League).where(League.guild_id == snowflake))).all()

    assert [(lg.guild_id, lg.created_by, lg.commissioner_role_id) for lg in found] == [
        (snowflake, snowflake, snowflake)
    ]


# --- aware UTC datetimes -------------------------------------------------------------------------------


async def test_datetimes_come_back_aware_utc_and_equal(db: Database) -> None:
    stored = await insert(db, make.audit(at=make.WHEN))

    loaded = (await fetch_one(db, AuditEntry, stored.id)).at

    assert loaded == make.WHEN
    assert loaded.tzinfo is not None and loaded.utcoffset() == timedelta(0)
    assert loaded.microsecond == 123456


async def test_non_utc_aware_datetime_is_stored_as_the_same_instant_in_utc(db: Database) -> None:
    tokyo = timezone(timedelta(hours=9))
    local = datetime(2026, 3, 15, 4, 30, 15, 123456, tzinfo=tokyo)
    stored = await insert(db, make.audit(at=local))

    loaded = (await fetch_one(db, AuditEntry, stored.id)).at

    assert loaded == local == make.WHEN
    assert loaded.utcoffset() == timedelta(0)
    assert (loaded.hour, loaded.minute) == (19, 30)


async def test_datetimes_given_in_different_zones_sort_and_filter_by_instant(db: Database) -> None:
    # 08:00Z written as 10:00+02:00 must sort before 09:00Z, which a naive text comparison would get wrong.
    early = datetime(2026, 6, 1, 10, 0, tzinfo=timezone(timedelta(hours=2)))
    late = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
    await insert(db, make.audit(at=late, action="late"))
    await insert(db, make.audit(at=early, action="early"))

    async with db.reading() as session:
        ordered = (await session.exec(select(AuditEntry.action).order_by(col(AuditEntry.at)))).all()
        after_half_past_eight = (
            await session.exec(select(AuditEntry.action).where(AuditEntry.at > datetime(2026, 6, 1, 8, 30, tzinfo=UTC)))
        ).all()

    assert list(ordered) == ["early", "late"]
    assert list(after_half_past_eight) == ["late"]


async def test_naive_datetime_is_refused_and_nothing_is_stored(db: Database) -> None:
    with pytest.raises(StatementError) as exc:
        async with db.writing() as session:
            session.add(make.audit(at=datetime(2026, 3, 14, 19, 30)))

    assert isinstance(exc.value.orig, ValueError)
    assert "naive" in str(exc.value.orig)
    assert await count(db, AuditEntry) == 0


async def test_naive_datetime_is_refused_in_a_query_too(db: Database) -> None:
    async with db.reading() as session:
        with pytest.raises(StatementError):
            await session.exec(select(AuditEntry).where(AuditEntry.at > datetime(2026, 1, 1)))


# --- unique constraints ------------------------------------------------------------------------------


async def test_league_name_key_is_unique_per_guild(db: Database) -> None:
    await insert(db, make.league(guild_id=1, name="Flipper Kings"))

    with pytest.raises(IntegrityError) as exc:
        await insert(db, make.league(guild_id=1, name="FLIPPER KINGS"))

    assert_violates(exc, "uq_league_guild_id_name_key", "guild_id", "name_key")
    assert await count(db, League) == 1


async def test_same_league_name_in_another_guild_is_fine(db: Database) -> None:
    await insert(db, make.league(guild_id=1, name="Flipper Kings"))
    await insert(db, make.league(guild_id=2, name="Flipper Kings"))

    assert await count(db, League) == 2


async def test_team_name_key_is_unique_per_league_but_not_across_leagues(db: Database) -> None:
    first = await insert(db, make.league(name="First"))
    second = await insert(db, make.league(name="Second"))
    await insert(db, make.team(first.id, name="Tilt Warriors"))
    await insert(db, make.team(second.id, name="Tilt Warriors"))

    with pytest.raises(IntegrityError) as exc:
        await insert(db, make.team(first.id, name="tilt warriors"))

    assert_violates(exc, "uq_team_league_id_name_key", "league_id", "name_key")
    assert await count(db, Team) == 2


async def test_venue_name_key_is_unique_per_league(db: Database) -> None:
    lg = await insert(db, make.league())
    await insert(db, make.venue(lg.id, name="Silverball Bar"))

    with pytest.raises(IntegrityError) as exc:
        await insert(db, make.venue(lg.id, name="silverball bar"))

    assert_violates(exc, "uq_venue_league_id_name_key", "league_id", "name_key")


async def test_season_number_is_unique_per_league(db: Database) -> None:
    lg = await insert(db, make.league())
    other = await insert(db, make.league(name="Other"))
    await insert(db, make.season(lg.id, number=1))
    await insert(db, make.season(other.id, number=1))

    with pytest.raises(IntegrityError) as exc:
        await insert(db, make.season(lg.id, number=1))

    assert_violates(exc, "uq_season_league_id_number", "league_id", "number")


async def test_player_discord_user_is_unique_per_league_but_not_across_leagues(db: Database) -> None:
    first = await insert(db, make.league(name="First"))
    second = await insert(db, make.league(name="Second"))
    await insert(db, make.player(first.id, discord_user_id=SNOWFLAKE))
    await insert(db, make.player(second.id, discord_user_id=SNOWFLAKE))

    with pytest.raises(IntegrityError) as exc:
        await insert(db, make.player(first.id, discord_user_id=SNOWFLAKE))

    assert_violates(exc, "uq_player_league_id_discord_user_id", "league_id", "discord_user_id")
    assert await count(db, Player) == 2


async def test_player_ifpa_number_is_unique_per_league(db: Database) -> None:
    first = await insert(db, make.league(name="First"))
    second = await insert(db, make.league(name="Second"))
    await insert(db, make.player(first.id, discord_user_id=1, ifpa_number=12345))
    await insert(db, make.player(second.id, discord_user_id=1, ifpa_number=12345))

    with pytest.raises(IntegrityError) as exc:
        await insert(db, make.player(first.id, discord_user_id=2, ifpa_number=12345))

    assert_violates(exc, "uq_player_league_id_ifpa_number", "league_id", "ifpa_number")


async def test_several_players_without_ifpa_number_share_a_league(db: Database) -> None:
    lg = await insert(db, make.league())
    async with db.writing() as session:
        for user in (1, 2, 3):
            session.add(make.player(lg.id, discord_user_id=user, ifpa_number=None))

    assert await count(db, Player) == 3


# --- foreign keys and cascades ------------------------------------------------------------------------


async def test_machine_pointing_at_a_missing_venue_is_refused(db: Database) -> None:
    lg = await insert(db, make.league())

    with pytest.raises(IntegrityError) as exc:
        await insert(db, make.machine(lg.id, venue_id=999_999))

    assert_violates(exc, "fk_machine_venue_id_venue", "FOREIGN KEY")
    assert await count(db, Machine) == 0


async def test_row_pointing_at_a_missing_league_is_refused(db: Database) -> None:
    with pytest.raises(IntegrityError):
        await insert(db, make.venue(league_id=999_999))

    assert await count(db, Venue) == 0


async def _populate_league(db: Database, guild_id: int, name: str) -> int:
    async with db.writing() as session:
        lg = await add(session, make.league(guild_id=guild_id, name=name))
        ven = await add(session, make.venue(lg.id))
        sea = await add(session, make.season(lg.id))
        tm = await add(session, make.team(lg.id, home_venue_id=ven.id))
        pl = await add(session, make.player(lg.id))
        session.add(make.machine(lg.id, ven.id))
        session.add(make.roster_entry(lg.id, sea.id, tm.id, pl.id))
        session.add(make.audit(guild_id=guild_id, league_id=lg.id))
        assert lg.id is not None
        return lg.id


CASCADED: tuple[type[SQLModel], ...] = (Season, Venue, Machine, Team, Player, RosterEntry, AuditEntry)


async def test_deleting_a_league_cascades_to_everything_in_it_and_nothing_else(db: Database) -> None:
    doomed = await _populate_league(db, guild_id=1, name="Doomed")
    kept = await _populate_league(db, guild_id=2, name="Kept")
    for model in CASCADED:
        assert await count(db, model) == 2, model.__name__

    async with db.writing() as session:
        await session.exec(delete(League).where(col(League.id) == doomed))

    async with db.reading() as session:
        for model in CASCADED:
            league_ids = (await session.exec(select(model.league_id))).all()  # type: ignore[attr-defined]
            assert list(league_ids) == [kept], model.__name__
        assert (await session.exec(select(League.id))).all() == [kept]


async def test_deleting_a_venue_cascades_to_its_machines(db: Database) -> None:
    lg = await insert(db, make.league())
    gone = await insert(db, make.venue(lg.id, name="Gone"))
    stays = await insert(db, make.venue(lg.id, name="Stays"))
    await insert(db, make.machine(lg.id, gone.id))
    kept = await insert(db, make.machine(lg.id, stays.id))

    async with db.writing() as session:
        await session.exec(delete(Venue).where(col(Venue.id) == gone.id))

    async with db.reading() as session:
        assert (await session.exec(select(Machine.id))).all() == [kept.id]


# --- transactions --------------------------------------------------------------------------------------


class Boom(Exception):
    pass


async def test_failed_writing_block_leaves_nothing_behind(db: Database) -> None:
    with pytest.raises(Boom):
        async with db.writing() as session:
            lg = await add(session, make.league())
            await add(session, make.venue(lg.id))
            raise Boom

    assert await count(db, League) == 0
    assert await count(db, Venue) == 0


async def test_constraint_failure_rolls_back_earlier_writes_in_the_same_block(db: Database) -> None:
    await insert(db, make.league(guild_id=1, name="Taken"))

    with pytest.raises(IntegrityError):
        async with db.writing() as session:
            session.add(make.league(guild_id=1, name="Fresh"))
            await session.flush()
            session.add(make.league(guild_id=1, name="Taken"))

    async with db.reading() as session:
        assert (await session.exec(select(League.name))).all() == ["Taken"]


async def test_successful_writing_block_commits_every_row(db: Database) -> None:
    async with db.writing() as session:
        lg = await add(session, make.league())
        session.add(make.venue(lg.id, name="A"))
        session.add(make.venue(lg.id, name="B"))

    assert await count(db, League) == 1
    assert await count(db, Venue) == 2


async def test_reading_block_never_commits(db: Database) -> None:
    """A change inside reading() is refused, whether flushed by hand or before a query, and nothing is stored."""
    async with db.reading() as session:
        session.add(make.league())
        with pytest.raises(WriteInReadingBlock, match=r"use db\.writing"):
            await session.flush()
    async with db.reading() as session:
        session.add(make.league())
        with pytest.raises(WriteInReadingBlock):
            await session.exec(select(League.id))  # autoflush
    async with db.writing() as session:
        session.add(make.league())
    async with db.reading() as session:
        league = (await session.exec(select(League))).one()
        league.name = "Renamed in a read"
        with pytest.raises(WriteInReadingBlock):
            await session.flush()

    async with db.reading() as session:
        assert (await session.exec(select(League.name))).all() == ["Flipper Kings"]


async def test_reader_does_not_see_an_open_writers_rows_until_commit(db: Database) -> None:
    async with db.writing() as writer:
        await add(writer, make.league())
        assert await count(db, League) == 0  # a separate reading() session, while the writer is open

    assert await count(db, League) == 1
