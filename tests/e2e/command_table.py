"""Every registered slash command, with a line that exercises it and who may use it (COMMON-ROLE-1).

Shared by the permission matrix and the two-guild isolation test. A new command needs a row in COMMANDS:
the permission matrix fails, naming it, until it has one.

Outcome codes, one per role in ROLES order:
  Y  accepted (no refusal)
  D  denied: refused because of who is asking (COMMON-ROLE-1, TEAM-LINEUP-11 or TEAM-ROSTER-6)
  R  refused for another reason (the rules, or the other guild's data is not there); nothing changes

A guild holds three leagues: a team league (its match tonight), a ladder and a field league (each with tonight's
night open). `/ladder …` and `/field …` lines go to those; every other line to the team league. The formats have
no teams, so their columns map to the format's own roles (ACTING_AT_NIGHT):
  captain of the team concerned  →  the player the command is about (or a player of the group concerned)
  captain of another team        →  a player of another group tonight
  player                         →  another player of the group concerned
and the commissioner, the member not in the league and the other guild's commissioner are the same members.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import text
from sqlmodel import select

from bot.clock import ManualClock
from bot.local.emulator import InteractionResult
from storage.matches import Match
from storage.models import League, Machine, Season, Team, Venue
from tests.e2e.format_nights import FIVE_GAMES, OpenNight, open_field_night, open_ladder_night
from tests.e2e.harness import RunningBot, league_tables

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
ACTING_AT_NIGHT = {"captain": "concerned", "other_captain": "other_group", "player": "groupmate"}
NIGHT_FORMATS = ("ladder", "field")
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
    "field checkin": ("/field checkin member:@{fc}", "RRDDDR"),
    "field config": ("/field config option:require_commas value:true", "YDDDDR"),
    "field confirm": ("/field confirm correction:{correction} agree:true", "RYRYRR"),
    "field correct": ('/field correct machine:{fm1} member:@{fc} score:15,000 reason:"Misread"', "YRDRRR"),
    "field finals entry": ("/field finals entry member:@{fc} paid:true", "RDDDDR"),
    "field finals pick": ("/field finals pick pairing:W1-2 machine:{fm1}", "RRRRRR"),
    "field finals result": ("/field finals result pairing:W1-2 winner:@{fc}", "RRRRRR"),
    "field finals seed": ("/field finals seed", "RDDDDR"),
    "field finals show": ("/field finals show", "YYYYYR"),
    "field finals tiebreak": ("/field finals tiebreak first:@{fc} second:@{fg}", "RDDDDR"),
    "field game": ("/field game machine:{field_machine} p1:@{fg} s1:{n},000", "YYDYRR"),
    "field groups": ("/field groups", "RDDDDR"),
    "field guest": ("/field guest member:@{newcomer}", "YDDDDR"),
    "field maintenance": ("/field maintenance", "YYYYYR"),
    "field malfunction": ("/field malfunction machine:{fm2} incident:ball_launched_early", "YYYYRR"),
    "field night close": ("/field night close", "RDDDDR"),
    "field night machines": ("/field night machines {field_machines}", "YDDDDR"),
    "field night open": ("/field night open {field_machines}", "RDDDDR"),
    "field night show": ("/field night show", "YYYYYR"),
    "field penalty": ('/field penalty member:@{fc} offence:slow_play note:"Slow"', "YDDDDR"),
    "field ruling": ('/field ruling situation:"A drink spilled on the glass" machine:{fm2}', "YDDDDR"),
    "field score": ("/field score machine:{field_machine} score:{n},000 member:@{fc}", "YYDYRR"),
    "field standings": ("/field standings", "YYYYYR"),
    "field tiebreak": ("/field tiebreak machine:{fm1} first:@{fc} second:@{ft}", "YRRRRR"),
    "highscores": ("/highscores", "YYYYYR"),
    "ladder absent": ("/ladder absent late:true member:@{lc}", "YYDDDR"),
    "ladder checkin": ("/ladder checkin member:@{lc}", "RRDDDR"),
    "ladder games pick": ('/ladder games pick game:"Funhouse"', "RRRRRR"),
    "ladder games set": ('/ladder games set group:2 games:"{five_games}"', "YDDDDR"),
    "ladder groups": ("/ladder groups", "YYYYYR"),
    "ladder join": ("/ladder join skill:5 member:@{newcomer}", "YDDDDR"),
    "ladder night close": ("/ladder night close", "RDDDDR"),
    "ladder night open": ("/ladder night open", "RDDDDR"),
    "ladder night show": ("/ladder night show", "YYYYYR"),
    "ladder normalizer": ('/ladder normalizer machine:"Black Knight" value:25,000,000', "YDDDDR"),
    "ladder option": ("/ladder option name:pmu_4th_point value:to_third", "YDDDDR"),
    "ladder payouts": ("/ladder payouts", "YYYYYR"),
    "ladder penalty": ("/ladder penalty game:1 offence:death_save player:@{lc}", "YRDRDR"),
    "ladder playoffs": ("/ladder playoffs", "YYYYYR"),
    "ladder premakeup declare": ('/ladder premakeup declare machine:"Black Knight" with:"bob"', "RYYYRR"),
    "ladder premakeup order": ('/ladder premakeup order machine:"Black Knight" order:S2,AVG,S1', "RYYYRR"),
    "ladder premakeup record": ('/ladder premakeup record machine:"Black Knight" score:8,000,000', "RYYYRR"),
    "ladder premakeup show": ("/ladder premakeup show player:@{lc}", "YYYYYR"),
    "ladder score": ("/ladder score game:1 score:{n},000,000 player:@{lc}", "YYDYDR"),
    "ladder standings": ("/ladder standings", "YYYYYR"),
    "ladder swap": ("/ladder swap first:@{lc} second:@{lo}", "RDDDDR"),
    "ladder tiebreak": ("/ladder tiebreak game:2 winner:@{lc}", "YYDYDR"),
    "league config": ("/league config remove_official_role:@Captain", "YDDDDR"),
    "league create": ('/league create name:"League {n}" format:team', "DDDDDD"),
    "league import": ("/league import kind:machines file:{machines_csv}", "YDDDDR"),
    "help": ("/help", "YYYYYR"),
    "league show": ("/league show", "YYYYYR"),
    "lineup": ("/lineup match:{match} p1:AC p2:AP2 p3:AP3 p4:AP4", "RRDDDR"),
    "machine add": ('/machine add venue:"{venue}" model:"Model {n}"', "YDDDDR"),
    # A removal dated after today is refused: the seeded machines stay for the other cells.
    "machine remove": ("/machine remove machine:{machine3} on:2099-01-01", "RDDDDR"),
    "machine stats": ("/machine stats machine:{machine}", "RRRRRR"),  # no game is final yet
    "machine status": ("/machine status machine:{machine3} status:working", "YDDDDR"),
    "match adjustment": ('/match adjustment match:{match} machine:{machine} what:"Tilt tightened"', "YYDDDR"),
    "match agreement": ('/match agreement match:{match} terms:"Replay on a stuck ball"', "RYDDDR"),
    "match both-ways": ("/match both-ways match:{match} round:1 game:1 home1:1 home2:1 away1:1 away2:1", "RRDDDR"),
    "match dispute": ('/match dispute match:{match} reason:"Score misread"', "YYDDDR"),
    "match evening-game": (
        "/match evening-game match:{match} machine:{machine} p1:@{home_player} s1:{n},000", "RRDDDR"),
    "match extension": ("/match extension match:{match} agreed:false", "YDDDDR"),
    # The commissioner records both captains' agreement; the captain's then is already in.
    "match extraballs": ("/match extraballs match:{match}", "YRDDDR"),
    "match failure": (
        '/match failure match:{match} round:1 game:1 member:@hp2 choice:continue what:"Flipper died"', "RRDDDR"),
    "match forfeit": ("/match forfeit match:{match} side:away", "YDDDDR"),
    "match machine": (
        '/match machine match:{match} machine:{machine} kind:removed agreed:false reason:"Sticky flipper"', "RRDDDR"),
    "match penalty": ("/match penalty match:{match} round:1 game:1 offence:slam_tilt member:@hp2", "RRDDDR"),
    "match played-out": ("/match played-out match:{match}", "RRDDDR"),
    "match replace": ("/match replace match:{match} round:1 game:1", "RRDDDR"),
    "match replay": ("/match replay match:{match} round:1 game:1 member:@hp2 score:1", "RRDDDR"),
    "match ruling": ('/match ruling match:{match} ruling:"Score stands"', "YDDDDR"),
    "match scout": ("/match scout match:{match}", "YYYYYR"),
    "match show": ("/match show match:{match}", "YYYYYR"),
    "match start": ("/match start match:{match} round:1 game:1", "RRDDDR"),  # round 1 is not declared
    "match walkout": ("/match walkout match:{match} side:away kind:left", "YDDDDR"),
    "player profile": ("/player profile", "RRRRRR"),  # nobody has a final game yet
    "player register": ("/player register member:@{newcomer}", "YDDDDR"),
    "playoffs next": ("/playoffs next", "RDDDDR"),
    "playoffs seed": ("/playoffs seed", "YDDDDR"),
    "playoffs show": ("/playoffs show", "YYYYYR"),
    "posts channels": ("/posts channels announcements:#general", "YDDDDR"),
    "posts pause": ("/posts pause", "YDDDDR"),
    "posts preview": ("/posts preview kind:roll_call", "YDDDDR"),
    "posts resend": ("/posts resend kind:roster_cutoff period:2027-03-01", "RDDDDR"),
    "posts resume": ("/posts resume", "YDDDDR"),
    "posts set": ("/posts set kind:roster_cutoff at:15:30", "YDDDDR"),
    "posts show": ("/posts show", "YDDDDR"),
    "posts upcoming": ("/posts upcoming", "YDDDDR"),
    "roster add": ('/roster add team:"{team}" member:@{newcomer} role:reserve', "RRDDDR"),
    "roster drop": ('/roster drop team:"{team}" member:@hp6', "RRDDDR"),
    "roster edit": ('/roster edit team:"{team}" member:@hp5 adult:true', "RRDDDR"),  # already recorded comes first
    "roster role": ('/roster role team:"{team}" member:@hp5 role:reserve', "RRDDDR"),
    "roster show": ('/roster show team:"{team}"', "YYYYYR"),
    "roster submit": ('/roster submit team:"{team}"', "RRRRRR"),  # "already submitted" comes first
    "season new": ("/season new", "RDDDDR"),  # tonight's match: the season is not complete
    "season postseason": ("/season postseason date:2027-04-01", "YDDDDR"),
    "schedule generate": ("/schedule generate weeks:1 start:2027-03-08", "RDDDDR"),  # the seeded match exists
    "schedule ics": ('/schedule ics team:"{team}"', "YYYYYR"),
    "schedule move": ('/schedule move match:{match} venue:"{venue}" reason:"Machines down"', "RDDDDR"),
    "schedule nights": ("/schedule nights first:2027-03-10 nights:2", "RDDDDR"),  # the team league: refused
    "schedule reschedule": (
        '/schedule reschedule match:{match} date:2027-03-10 agreed:true reason:"Storm"', "RDDDDR"),
    "schedule show": ("/schedule show", "YYYYYR"),
    # tonight's match is not final yet, so the regular season is not over
    "schedule tiebreaker": (
        '/schedule tiebreaker team_a:"Flipper Kings" team_b:"Tilt Warriors" venue:"{venue}"', "RDDDDR"),
    "score": ("/score match:{match} round:1 game:1 home1:1 home2:1 away1:1 away2:1", "RRDDDR"),
    "ratings": ("/ratings", "RRRRRR"),  # no game is final yet
    "standings": ("/standings", "YYYYYR"),
    "team create": ('/team create name:"Team {n}" evening:Friday', "YDDDDR"),
    "tiebreak choose": ("/tiebreak choose match:{match} format:shared_game", "RRDDDR"),
    "tiebreak declare": ("/tiebreak declare match:{match} p1:HC p2:HP2 p3:HP3", "RRDDDR"),
    "tiebreak defer": ("/tiebreak defer match:{match}", "RRDDDR"),
    "tiebreak score": ("/tiebreak score match:{match} home:1 away:2", "RRDDDR"),
    "venue add": ('/venue add name:"Venue {n}"', "YDDDDR"),
    "venue regular": ('/venue regular venue:"{venue}" regular:true', "YDDDDR"),
    "venue show": ('/venue show venue:"{venue}"', "YYYYYR"),
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


def format_of(path: str) -> str:
    """The kind of league a command is aimed at: "ladder", "field" or "team" (every other command)."""
    first = path.split()[0]
    return first if first in NIGHT_FORMATS else "team"


@dataclass
class Seeded:
    """One guild's leagues, seeded through their commands, and the values command lines refer to."""

    league: str
    match: int
    team: str
    venue: str
    machines: list[int]
    ladder: OpenNight
    field_league: OpenNight
    files: Path
    newcomers: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    home_players: itertools.cycle[str] = field(default_factory=lambda: itertools.cycle(["hp3", "hp4", "hp5"]))
    names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    field_machines: itertools.cycle[int] = field(init=False)

    def __post_init__(self) -> None:
        # Scores entered by the cells go round tonight's machines 2..5 (machine 1's are written at seeding).
        self.field_machines = itertools.cycle(self.field_league.machine_ids[1:])

    def values(self, running: RunningBot, template: str) -> dict[str, Any]:
        """The values `template` may name; a newcomer joins the guild, and a CSV file is written, only for a
        line that names them (each would otherwise grow the guild, and the work, at every cell)."""
        n = next(self.names)
        newcomer = f"new{next(self.newcomers)}"
        if "{newcomer}" in template:
            running.emulator.add_member(newcomer)
        machines_csv = self.files / f"machines-{n}.csv"
        if "{machines_csv}" in template:
            machines_csv.write_text(f"venue,model\nImported Arcade,Model {n}\n")
        night = self.field_league
        return {
            "league": self.league, "match": self.match, "team": self.team, "venue": self.venue,
            "machine": self.machines[0], "machine3": self.machines[2], "n": n,
            "newcomer": newcomer, "home_player": next(self.home_players), "machines_csv": machines_csv,
            "lc": self.ladder.concerned, "lo": self.ladder.other_group, "five_games": FIVE_GAMES,
            "fc": night.concerned, "fg": night.groupmate, "ft": night.tied, "correction": night.correction,
            "field_machines": night.machines, "fm1": night.machine_ids[0], "fm2": night.machine_ids[1],
            "field_machine": next(self.field_machines),
        }  # fmt: skip

    def league_of(self, path: str) -> str:
        return {"ladder": self.ladder.league, "field": self.field_league.league}.get(format_of(path), self.league)

    def acting(self, path: str, role: str) -> str:
        """Who plays `role` for this command (the night formats' own roles: see the module's docstring)."""
        night = {"ladder": self.ladder, "field": self.field_league}.get(format_of(path))
        if night is None or role not in ACTING_AT_NIGHT:
            return ACTING[role]
        return str(getattr(night, ACTING_AT_NIGHT[role]))

    def line(self, path: str, running: RunningBot, options: set[str], *, values: dict[str, Any] | None = None) -> str:
        template = COMMANDS[path][0]
        line = template.format(**(values or self.values(running, template)))
        return f'{line} league:"{self.league_of(path)}"' if "league" in options else line


async def seed(running: RunningBot, league_name: str, files: Path) -> Seeded:
    """A team league: a venue with three machines, three six-player teams, four discipline targets (v1..v4), and
    a match between the first two teams on MATCH_DAY, with the clock at 19:50 that evening; then "{league_name}
    Ladder" and "{league_name} Field" with that evening's night open. CSV files to import are written to `files`."""
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
        league = (
            await session.exec(
                select(League).where(League.guild_id == running.emulator.guild.id, League.name == league_name)
            )
        ).one()
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
    quiet, running.emulator.quiet_window = running.emulator.quiet_window, 0.001
    try:
        ladder = await open_ladder_night(running, f"{league_name} Ladder", "ld")
        field_night = await open_field_night(running, f"{league_name} Field", "fd")
    finally:
        running.emulator.quiet_window = quiet
    return Seeded(
        league_name, match.id or 0, "Flipper Kings", "Ace Arcade", sorted(m or 0 for m in machines),
        ladder, field_night, files,
    )  # fmt: skip


async def row_counts(running: RunningBot) -> tuple[int, ...]:
    """Rows in every table of league data, in one query (a refusal must leave every count as it was);
    `bot_state` is the bot's own bookkeeping (interaction claims on PostgreSQL)."""
    counts = ", ".join(f'(SELECT count(*) FROM "{t.name}")' for t in league_tables())
    async with running.db.engine.connect() as connection:
        return tuple((await connection.execute(text(f"SELECT {counts}"))).one())
