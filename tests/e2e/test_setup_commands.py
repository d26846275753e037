"""A commissioner sets a league up from Discord, through the real discord.py client and the emulator."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlmodel import select

from storage.db import Database
from storage.models import League, Machine, MachineStatus, Player, Team, Venue
from tests.e2e.harness import RunningBot, running_bot

CREATE = '/league create name:"Tuesday Night" format:team timezone:America/New_York commissioner_role:@Commissioner'


@pytest.fixture
async def league_bot(db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(db) as running:
        yield running


@pytest.fixture
async def league(league_bot: RunningBot) -> RunningBot:
    result = await league_bot.run(CREATE, as_member="owner")
    assert "Tuesday Night" in result.content and not result.ephemeral
    return league_bot


async def test_commissioner_sets_up_a_whole_league(league: RunningBot) -> None:
    """COMMON-LEAGUE-1, COMMON-VENUE-1 (name, address), COMMON-MACH-1 (title, variant kept apart, family key),
    COMMON-MACH-2 (capacity, balls), COMMON-PLAYER-1 (IFPA number and rank), every change audited."""
    alice = "alice"  # holds the Commissioner role, is not a server admin
    steps = [
        '/venue add name:"Ace Arcade" address:"12 Flipper Street"',
        '/machine add venue:"Ace Arcade" model:Godzilla variant:Premium',
        '/machine add venue:"ace arcade" model:"Medieval Madness" players:2 balls:5',
        '/team create name:"Flipper Kings" evening:Tuesday home_venue:"Ace Arcade"',
        '/team create name:"Tilt Warriors" evening:Tuesday',
        "/player register member:@bob ifpa_number:12345 ifpa_rank:850",
        "/player register member:@carol",
    ]
    for line in steps:
        result = await league.run(line, as_member=alice)
        assert result.ephemeral, line
        assert "⛔" not in result.content and "⚠️" not in result.content, (line, result.content)
        assert result.ack_latency is not None and result.ack_latency < 3.0

    shown = await league.run("/league show", as_member="carol")
    text = shown.text()
    bob_name, carol_name = league.emulator.member("bob").display_name, league.emulator.member("carol").display_name
    for expected in (
        "Tuesday Night",
        "Ace Arcade",
        "Godzilla (Premium)",
        "Medieval Madness",
        "Flipper Kings (Ace Arcade)",
        "Tilt Warriors",
        bob_name,
        carol_name,
    ):
        assert expected in text, expected

    async with league.db.reading() as session:
        the_league = (await session.exec(select(League))).one()
        assert the_league.guild_id == league.emulator.guild.id
        assert the_league.commissioner_role_id == league.emulator.guild.role("Commissioner").id
        machines = (await session.exec(select(Machine).order_by(Machine.model_name))).all()
        assert [(m.model_name, m.variant, m.family, m.max_players, m.balls_per_game) for m in machines] == [
            ("Godzilla", "Premium", "godzilla", 4, 3),
            ("Medieval Madness", None, "medieval_madness", 2, 5),
        ]
        venue = (await session.exec(select(Venue))).one()
        assert venue.address == "12 Flipper Street"
        kings = (await session.exec(select(Team).where(Team.name == "Flipper Kings"))).one()
        assert kings.home_venue_id == venue.id
        bob = (
            await session.exec(select(Player).where(Player.discord_user_id == league.emulator.member("bob").id))
        ).one()
        assert (bob.ifpa_number, bob.ifpa_rank, bob.display_name) == (12345, 850, bob_name)

    audit = await league.audit()
    assert [(entry.command, entry.entity) for entry in audit] == [
        ("/league create", "league"),
        ("/league create", "season"),
        ("/venue add", "venue"),
        ("/machine add", "machine"),
        ("/machine add", "machine"),
        ("/team create", "team"),
        ("/team create", "team"),
        ("/player register", "player"),
        ("/player register", "player"),
    ]
    assert {entry.actor_id for entry in audit[2:]} == {league.emulator.member("alice").id}


async def test_machine_can_go_out_of_service_and_back(league: RunningBot) -> None:
    await league.run('/venue add name:"Ace Arcade"', as_member="alice")
    await league.run('/machine add venue:"Ace Arcade" model:Godzilla', as_member="alice")
    async with league.db.reading() as session:
        machine_id = (await session.exec(select(Machine.id))).one()

    choices = await league.emulator.autocomplete("/machine status machine:godz", focused="machine", as_member="alice")
    assert [choice["value"] for choice in choices] == [machine_id]

    result = await league.run(f"/machine status machine:{machine_id} status:out_of_service", as_member="alice")
    assert "out of service" in result.content
    async with league.db.reading() as session:
        assert (await session.exec(select(Machine.status))).one() == MachineStatus.OUT_OF_SERVICE
    shown = await league.run("/league show", as_member="alice")
    assert "❌ Godzilla" in shown.text()


NOT_ALLOWED = [
    ("bob", '/venue add name:"Sneaky Bar"'),
    ("bob", "/team create name:Interlopers evening:Tuesday"),
    ("carol", "/player register member:@carol"),
    ("bob", "/league config commissioner_role:@Captain"),
    ("alice", '/league create name:"Second League" format:ladder'),  # creating needs a server admin
]


@pytest.mark.parametrize(("member", "line"), NOT_ALLOWED)
async def test_members_without_the_role_are_refused_and_nothing_changes(
    league: RunningBot, member: str, line: str
) -> None:
    await league.run('/venue add name:"Ace Arcade"', as_member="alice")
    before = await league.row_counts()
    result = await league.run(line, as_member=member)
    assert result.ephemeral
    assert result.content.startswith("⛔ Only")
    assert "COMMON-ROLE-1" in result.content
    assert await league.row_counts() == before


async def test_machine_add_by_a_captain_is_refused(league: RunningBot) -> None:
    await league.run('/venue add name:"Ace Arcade"', as_member="alice")
    before = await league.row_counts()
    result = await league.run('/machine add venue:"Ace Arcade" model:Godzilla', as_member="bob")
    assert result.ephemeral and "Only commissioners of Tuesday Night" in result.content
    assert await league.row_counts() == before


BAD_INPUT = [
    ('/team create name:"   " evening:Tuesday', "`name` cannot be empty"),
    ('/venue add name:"  "', "`name` cannot be empty"),
    ("/team create evening:Tuesday name:" + "T" * 41, "the limit is 40"),
    ('/team create name:"Night Owls"', "TEAM-CFG-1"),
    ('/venue add name:"' + "V" * 90 + '"', "the limit is 80"),
    ('/team create name:"flipper kings" evening:Tuesday', "already has a team named 'flipper kings'"),
    ('/venue add name:"ACE ARCADE"', "already has a venue named 'ACE ARCADE'"),
    ('/machine add venue:"Nowhere" model:Godzilla', "has no venue named 'Nowhere'"),
    ('/machine add venue:"Ace Arcade" model:Godzilla players:3', "COMMON-MACH-2"),
    ('/machine add venue:"Ace Arcade" model:Godzilla balls:4', "3 or 5 balls"),
    ('/machine add venue:"Ace Arcade" model:"\u200b"', "invisible"),
    ("/player register member:@dan ifpa_number:-4", "COMMON-PLAYER-1"),
    ("/player register member:@erin ifpa_number:12345", "IFPA #12345 already belongs to Carol"),
    ("/player register member:@carol", "Carol is already registered"),
    ('/team create name:Owls evening:Tuesday home_venue:"Nowhere"', "has no venue named 'Nowhere'"),
    ('/league create name:"Tuesday night" format:ladder', "already has a league named"),
    ('/league create name:"Summer" format:field', "COMMON-AMB-1"),
    ('/league create name:"Summer" format:team timezone:Mars/Olympus', "not an IANA time zone"),
    (
        '/league create name:"Summer" format:team timezone:EST',
        "EST has no daylight saving; did you mean America/New_York?",
    ),  # COMMON-AMB-1
    ('/league create name:"Summer" format:field timezone:Etc/GMT+5', "Rule COMMON-AMB-1"),
    ('/league create name:"Summer" format:ladder timezone:UTC', "nobody's wall clock"),
    ('/league create name:"' + "L" * 61 + '" format:team', "the limit is 60"),
    ("/machine status machine:999999 status:working", "has no machine #999999"),
]


@pytest.mark.parametrize(("line", "message"), BAD_INPUT)
async def test_bad_setup_input_is_explained_and_changes_nothing(league: RunningBot, line: str, message: str) -> None:
    await league.run('/venue add name:"Ace Arcade"', as_member="alice")
    await league.run('/team create name:"Flipper Kings" evening:Tuesday', as_member="alice")
    await league.run("/player register member:@carol ifpa_number:12345", as_member="alice")
    before = await league.row_counts()
    result = await league.run(line, as_member="owner")
    assert result.ephemeral
    assert result.content.startswith("⛔"), result.content
    assert message in result.content
    assert "Traceback" not in result.content
    assert await league.row_counts() == before


async def test_several_leagues_in_one_server_need_a_choice(league: RunningBot) -> None:
    await league.run('/league create name:"Summer Field" format:field timezone:America/Chicago', as_member="owner")
    ambiguous = await league.run('/venue add name:"Ace Arcade"', as_member="owner")
    assert "several leagues (Summer Field, Tuesday Night)" in ambiguous.content
    chosen = await league.run('/venue add name:"Ace Arcade" league:"summer field"', as_member="owner")
    assert "⛔" not in chosen.content
    names = await league.emulator.autocomplete("/venue add name:x league:sum", focused="league", as_member="owner")
    assert [choice["value"] for choice in names] == ["Summer Field"]
    unknown = await league.run('/league show league:"Winter"', as_member="owner")
    assert "No league named 'Winter'" in unknown.content


async def test_league_zone_is_picked_by_name_and_stored_as_iana_spells_it(league_bot: RunningBot) -> None:
    """COMMON-AMB-1: autocomplete offers region zones with readable labels; typed case does not matter."""
    offered = await league_bot.emulator.autocomplete(
        '/league create name:"Summer" format:team timezone:eastern', focused="timezone", as_member="owner"
    )
    assert offered[0] == {"name": "US Eastern (New York) · America/New_York", "value": "America/New_York"}
    indiana = await league_bot.emulator.autocomplete(
        '/league create name:"Summer" format:field timezone:indianapolis', focused="timezone", as_member="owner"
    )
    assert [choice["value"] for choice in indiana] == ["America/Indiana/Indianapolis", "America/Indianapolis"]
    created = await league_bot.run(
        '/league create name:"Summer" format:field timezone:america/chicago', as_member="owner"
    )
    assert "⛔" not in created.content, created.content
    async with league_bot.db.reading() as session:
        assert (await session.exec(select(League.timezone))).all() == ["America/Chicago"]


async def test_a_league_stored_with_an_old_zone_name_keeps_working(league: RunningBot) -> None:
    """COMMON-AMB-1: the region rule applies to zones being set; a zone stored before it is read as it is."""
    async with league.db.writing() as session:
        stored = (await session.exec(select(League))).one()
        stored.timezone = "EST"
        session.add(stored)
    shown = await league.run("/league show", as_member="alice")
    assert "Team league · EST" in shown.text(), shown.text()
    added = await league.run('/team create name:"Flipper Kings" evening:Tuesday', as_member="alice")
    assert "⛔" not in added.content, added.content


async def test_no_league_yet_says_how_to_start_one(league_bot: RunningBot) -> None:
    result = await league_bot.run('/venue add name:"Ace Arcade"', as_member="alice")
    assert "no league yet" in result.content and "/league create" in result.content


async def test_commissioner_role_can_be_changed(league: RunningBot) -> None:
    result = await league.run("/league config commissioner_role:@Captain", as_member="alice")
    assert "now members with" in result.content
    assert "⛔" in (await league.run('/venue add name:"X"', as_member="alice")).content
    assert "⛔" not in (await league.run('/venue add name:"X"', as_member="bob")).content
