"""Every registered slash command, with a line that exercises it and who may use it (COMMON-ROLE-1).

Shared by the permission matrix and the two-guild isolation test. A new command needs a row in COMMANDS:
the permission matrix fails, naming it, until it has one.

Outcome codes, one per role in ROLES order:
  Y  accepted (no refusal)
  D  denied: refused because of who is asking (COMMON-ROLE-1, TEAM-LINEUP-11 or TEAM-ROSTER-6)
  R  refused for another reason (the rules, or the other guild's data is not there); nothing changes
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import text
from sqlmodel import SQLModel, select

from bot.clock import ManualClock
from bot.local.emulator import InteractionResult
from storage.matches import Match
from storage.models import League, Machine, Season, Team, Venue
from tests.e2e.harness import RunningBot

NEW_YORK = ZoneInfo("America/New_York")
MATCH_DAY = date(2027, 3, 3)  # a Wednesday
ROLES = ("commissioner", "captain", "other_captain", "player", "outsider", "foreign")
PERMISSION_RULES = ("Rule COMMON-ROLE-1", "Rule TEAM-LINEUP-11", "Rule TEAM-ROSTER-6")
# Members of the seeded guild for each role (the foreign commissioner lives in the other guild).
ACTING = {
    "commissioner": "alice",  # the league's Commissioner role; not a server admin
    "captain": "hc",  # captain of the HOME team of the seeded match: the team concerned
    "other_captain": "oc",  # captain of a team not in that match
    "player": "hp2",  # a HOME player
    "outsider": "carol",  # a member who never joined the league
    "foreign": "alice",  # the commissioner of the other guild's league
}
TEAMS = (("Flipper Kings", "h"), ("Tilt Warriors", "a"), ("Drain Masters", "o"))

# path: (line, outcomes for commissioner, captain, other captain, player, outsider, foreign commissioner).
# `league:` is added to every line whose command has that option. Placeholders: see Seeded.values().
COMMANDS: dict[str, tuple[str, str]] = {
    "admin audit": ("/admin audit match:{match}", "YDDDDR"),
    "admin dismiss": ('/admin dismiss incident:1 reason:"Not proven"', "RDDDDR"),
    "admin expel": ('/admin expel member:@v1 reason:"Threats"', "YDDDDR"),
    "admin history": ("/admin history member:@v1", "YDDDDR"),
    "admin incident": ('/admin incident member:@v1 category:threats description:"Shouted at a player"', "YDDDDR"),
    "admin lift": ('/admin lift member:@v2 reason:"Served"', "RDDDDR"),
    "admin machine-log": ("/admin machine-log", "YDDDDR"),
    "admin override attendance": (
        '/admin override attendance match:{match} member:@hp6 present:true reason:"Was there"', "YDDDDR"),
    "admin override forfeit": ('/admin override forfeit match:{match} side:none reason:"Cleared"', "YDDDDR"),
    "admin override lineup": (
        '/admin override lineup match:{match} round:1 game:1 out:@hp2 replacement:@hp3 reason:"Swap"', "RDDDDR"),
    "admin override machine": (
        '/admin override machine machine:{machine3} status:working reason:"Fixed"', "YDDDDR"),
    "admin override result": ('/admin override result match:{match} final:false reason:"Reopen"', "RDDDDR"),
    "admin override score": (
        '/admin override score match:{match} round:1 game:1 member:@hp2 score:1 reason:"Typo"', "RDDDDR"),
    "admin suspend": ('/admin suspend member:@v3 reason:"Conduct"', "YDDDDR"),
    "admin warn": ('/admin warn member:@v4 reason:"Language"', "YDDDDR"),
    "checkin": ("/checkin match:{match} member:@{home_player}", "YYDDDR"),
    "highscores": ("/highscores", "YYYYYR"),
    "league config": ("/league config remove_official_role:@Captain", "YDDDDR"),
    "league create": ('/league create name:"League {n}" format:team', "DDDDDD"),
    "league show": ("/league show", "YYYYYR"),
    "lineup": ("/lineup match:{match} p1:AC p2:AP2 p3:AP3 p4:AP4", "RRDDDR"),
    "machine add": ('/machine add venue:"{venue}" model:"Model {n}"', "YDDDDR"),
    "machine status": ("/machine status machine:{machine3} status:working", "YDDDDR"),
    "match adjustment": ('/match adjustment match:{match} machine:{machine} what:"Tilt tightened"', "YYDDDR"),
    "match agreement": ('/match agreement match:{match} terms:"Replay on a stuck ball"', "RYDDDR"),
    "match both-ways": ("/match both-ways match:{match} round:1 game:1 home1:1 home2:1 away1:1 away2:1", "RRDDDR"),
    "match dispute": ('/match dispute match:{match} reason:"Score misread"', "YYDDDR"),
    "match extension": ("/match extension match:{match} agreed:false", "YDDDDR"),
    "match forfeit": ("/match forfeit match:{match} side:away", "YDDDDR"),
    "match machine": (
        '/match machine match:{match} machine:{machine} kind:removed agreed:false reason:"Sticky flipper"', "RRDDDR"),
    "match penalty": ("/match penalty match:{match} round:1 game:1 offence:slam_tilt member:@hp2", "RRDDDR"),
    "match played-out": ("/match played-out match:{match}", "RRDDDR"),
    "match replace": ("/match replace match:{match} round:1 game:1", "RRDDDR"),
    "match replay": ("/match replay match:{match} round:1 game:1 member:@hp2 score:1", "RRDDDR"),
    "match ruling": ('/match ruling match:{match} ruling:"Score stands"', "YDDDDR"),
    "match show": ("/match show match:{match}", "YYYYYR"),
    "match walkout": ("/match walkout match:{match} side:away kind:left", "YDDDDR"),
    "player register": ("/player register member:@{newcomer}", "YDDDDR"),
    "playoffs next": ("/playoffs next", "RDDDDR"),
    "playoffs seed": ("/playoffs seed", "YDDDDR"),
    "playoffs show": ("/playoffs show", "YYYYYR"),
    "roster add": ('/roster add team:"{team}" member:@{newcomer} role:reserve', "RRDDDR"),
    "roster drop": ('/roster drop team:"{team}" member:@hp6', "RRDDDR"),
    "roster role": ('/roster role team:"{team}" member:@hp5 role:reserve', "RRDDDR"),
    "roster show": ('/roster show team:"{team}"', "YYYYYR"),
    "roster submit": ('/roster submit team:"{team}"', "RRRRRR"),  # "already submitted" comes first
    "schedule generate": ("/schedule generate weeks:1 start:2027-03-08", "RDDDDR"),  # the seeded match exists
    "schedule move": ('/schedule move match:{match} venue:"{venue}" reason:"Machines down"', "RDDDDR"),
    "schedule reschedule": (
        '/schedule reschedule match:{match} date:2027-03-10 agreed:true reason:"Storm"', "RDDDDR"),
    "schedule show": ("/schedule show", "YYYYYR"),
    "score": ("/score match:{match} round:1 game:1 home1:1 home2:1 away1:1 away2:1", "RRDDDR"),
    "standings": ("/standings", "YYYYYR"),
    "team create": ('/team create name:"Team {n}" evening:Friday', "YDDDDR"),
    "tiebreak choose": ("/tiebreak choose match:{match} format:shared_game", "RRDDDR"),
    "tiebreak declare": ("/tiebreak declare match:{match} p1:HC p2:HP2 p3:HP3", "RRDDDR"),
    "tiebreak defer": ("/tiebreak defer match:{match}", "RRDDDR"),
    "tiebreak score": ("/tiebreak score match:{match} home:1 away:2", "RRDDDR"),
    "venue add": ('/venue add name:"Venue {n}"', "YDDDDR"),
}  # fmt: skip


def leaf_commands(registered: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Every runnable command path ("admin override score") with the names of its options."""
    found: dict[str, set[str]] = {}

    def walk(prefix: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if not subs:
            found[prefix] = {o["name"] for o in options}
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub.get("options") or [])

    for command in registered:
        walk(command["name"], command.get("options") or [])
    return found


def outcome(result: InteractionResult) -> str:
    content = result.content
    if not content.startswith("⛔"):
        return "Y"
    return "D" if any(rule in content for rule in PERMISSION_RULES) else "R"


@dataclass
class Seeded:
    """One guild's league, seeded through its commands, and the values command lines refer to."""

    league: str
    match: int
    team: str
    venue: str
    machines: list[int]
    newcomers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    home_players: itertools.cycle[str] = field(default_factory=lambda: itertools.cycle(["hp3", "hp4", "hp5"]))
    names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def values(self, running: RunningBot) -> dict[str, Any]:
        newcomer = f"new{next(self.newcomers)}"
        running.emulator.add_member(newcomer)
        return {
            "league": self.league, "match": self.match, "team": self.team, "venue": self.venue,
            "machine": self.machines[0], "machine3": self.machines[2], "n": next(self.names),
            "newcomer": newcomer, "home_player": next(self.home_players),
        }  # fmt: skip

    def line(self, path: str, running: RunningBot, options: set[str], *, values: dict[str, Any] | None = None) -> str:
        line = COMMANDS[path][0].format(**(values or self.values(running)))
        return f'{line} league:"{self.league}"' if "league" in options else line


async def seed(running: RunningBot, league_name: str) -> Seeded:
    """A team league: a venue with three machines, three six-player teams, two discipline targets (v1..v4), and
    a match between the first two teams on MATCH_DAY, with the clock at 19:50 that evening."""
    clock = running.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(datetime(2027, 2, 26, 12, 0, tzinfo=NEW_YORK))
    quiet, running.emulator.quiet_window = running.emulator.quiet_window, 0.001
    run = running.run
    try:
        created = await run(
            f'/league create name:"{league_name}" format:team commissioner_role:@Commissioner', as_member="owner"
        )
        assert "⛔" not in created.content, created.content
        await run('/venue add name:"Ace Arcade"', as_member="alice")
        for model in ("Godzilla", "Medieval Madness", "Attack from Mars"):
            await run(f'/machine add venue:"Ace Arcade" model:"{model}"', as_member="alice")
        for team, prefix in TEAMS:
            await run(f'/team create name:"{team}" evening:Wednesday home_venue:"Ace Arcade"', as_member="alice")
            names = [f"{prefix}c", *(f"{prefix}p{n}" for n in range(2, 7))]
            for name in names:
                running.emulator.add_member(name)
                role = "captain" if name == names[0] else "starter"
                await run(f'/roster add team:"{team}" member:@{name} role:{role} adult:true', as_member="alice")
            submitted = await run(f'/roster submit team:"{team}" effective:2027-03-01', as_member="alice")
            assert "Roster submitted" in submitted.text(), submitted.text()
        for n in range(1, 5):
            running.emulator.add_member(f"v{n}")
            await run(f"/player register member:@v{n}", as_member="alice")
    finally:
        running.emulator.quiet_window = quiet
    async with running.db.writing() as session:
        league = (await session.exec(select(League).where(League.guild_id == running.emulator.guild.id))).one()
        teams = {t.name: t for t in (await session.exec(select(Team).where(Team.league_id == league.id))).all()}
        venue = (await session.exec(select(Venue).where(Venue.league_id == league.id))).one()
        season = (await session.exec(select(Season.id).where(Season.league_id == league.id))).one()
        match = Match(
            league_id=league.id or 0, season_id=season or 0, week=1, play_on=MATCH_DAY,
            home_team_id=teams["Flipper Kings"].id or 0, away_team_id=teams["Tilt Warriors"].id or 0,
            venue_id=venue.id,
        )  # fmt: skip
        session.add(match)
        await session.flush()
        machines = (await session.exec(select(Machine.id).where(Machine.league_id == league.id))).all()
    clock.set(datetime.combine(MATCH_DAY, datetime.min.time().replace(hour=19, minute=50), tzinfo=NEW_YORK))
    return Seeded(league_name, match.id or 0, "Flipper Kings", "Ace Arcade", sorted(m or 0 for m in machines))


async def row_counts(running: RunningBot) -> tuple[int, ...]:
    """Rows in every table, in one query (a refusal must leave every count as it was)."""
    counts = ", ".join(f'(SELECT count(*) FROM "{t.name}")' for t in SQLModel.metadata.sorted_tables)
    async with running.db.engine.connect() as connection:
        return tuple((await connection.execute(text(f"SELECT {counts}"))).one())
