"""Write examples/team-season.script by playing the season through the real bot in the local chat.

Six teams, five weeks: every line is run as it is written, so the script is exactly what worked, and the
match ids it names are the ones the schedule really gave. The season includes a short-handed match, a
forfeit, and a late roster change the 4 p.m. cutoff refuses; it ends with the standings and the playoff
bracket. Regenerate after changing a command's options:

    .venv/bin/python examples/make_team_season.py
"""

from __future__ import annotations

import asyncio
import sys
from datetime import date, timedelta
from pathlib import Path

from sqlmodel import col, select

from bot.local.chat import LocalChat
from bot.settings import load_settings
from storage.db import Database
from storage.matches import Match
from storage.models import Machine, Team

OUTPUT = Path(__file__).with_name("team-season.script")
ZONE = "America/New_York"
FIRST_WEEK = date(2027, 3, 1)  # a Monday; every team plays on Wednesday
TEAMS = {
    "Flipper Kings": "Ace Arcade",
    "Tilt Warriors": "Ace Arcade",
    "Drain Masters": "Tilt Tavern",
    "Multiball Mob": "Tilt Tavern",
    "Spinner Sharks": "Bumper Bar",
    "Jackpot Jets": "Bumper Bar",
}
MACHINES = {
    "Ace Arcade": ["Godzilla", "Medieval Madness", "Attack from Mars"],
    "Tilt Tavern": ["Twilight Zone", "Foo Fighters", "Monster Bash"],
    "Bumper Bar": ["Deadpool", "Jaws", "Elvira"],
}
SHORT_HANDED = (2, "away")  # week 2: the away team brings only three players
FORFEIT = (4, "away")  # week 4: the away team brings only two


def slug(team: str) -> str:
    return "".join(word[0] for word in team.split()).lower()


def players(team: str) -> list[str]:
    return [f"{slug(team)}{n}" for n in range(1, 7)]


class ScriptWriter:
    def __init__(self, chat: LocalChat, db: Database) -> None:
        self.chat = chat
        self.db = db
        self.lines: list[str] = []

    async def say(self, line: str, *, refused_by: str | None = None) -> str:
        """Run a line and keep it. Any refusal but the one expected stops the generator."""
        self.lines.append(line)
        outputs, note = await self.chat.execute(line)
        text = "\n".join(output.text() for output in outputs) + (note or "")
        refused = "⛔" in text or "⚠️ Something went wrong" in text
        if refused != (refused_by is not None) or (refused_by and refused_by not in text):
            raise RuntimeError(f"{line!r} answered unexpectedly:\n{text}")
        return text

    def comment(self, text: str) -> None:
        self.lines.append(f"# {text}")


async def set_up(w: ScriptWriter) -> None:
    w.comment("A six-team Pinball NYC-style season, five weeks, played from Discord through the local chat.")
    w.comment("Made by examples/make_team_season.py; run: pinleague local --script examples/team-season.script")
    await w.say(f":clock 2027-02-22 12:00 {ZONE}")
    league = ["/league create", 'name:"Wednesday Team League"', "format:team", f"timezone:{ZONE}"]
    await w.say(" ".join([*league, "commissioner_role:@Commissioner"]))
    await w.say(":as alice")
    for venue, models in MACHINES.items():
        await w.say(f'/venue add name:"{venue}"')
        for model in models:
            await w.say(f'/machine add venue:"{venue}" model:"{model}"')
    for team, venue in TEAMS.items():
        await w.say(f'/team create name:"{team}" evening:Wednesday home_venue:"{venue}"')
        for name in players(team):
            await w.say(f":member add {name}")
        captain, *starters = players(team)
        await w.say(f'/roster add team:"{team}" member:@{captain} role:captain adult:true')
        for name in starters:
            await w.say(f'@{captain} /roster add team:"{team}" member:@{name} role:starter adult:true')
        await w.say(f'@{captain} /roster submit team:"{team}" effective:2027-02-22')
    await w.say(f"/schedule generate weeks:5 start:{FIRST_WEEK:%Y-%m-%d}")


async def play_week(w: ScriptWriter, db: Database, week: int) -> None:
    match_day = FIRST_WEEK + timedelta(weeks=week - 1, days=2)
    async with db.reading() as session:
        matches = (await session.exec(select(Match).where(Match.week == week).order_by(col(Match.id)))).all()
        teams = {t.id: t.name for t in (await session.exec(select(Team))).all()}
    w.comment(f"Week {week}: {match_day:%a %Y-%m-%d}")
    if week == 3:
        w.comment("A captain tries to add a player for tonight after the 4 p.m. cutoff: refused (TEAM-ROSTER-7).")
        await w.say(f":clock {match_day:%Y-%m-%d} 16:05 {ZONE}")
        home = teams[matches[0].home_team_id]
        await w.say(":member add latecomer")
        await w.say(
            f'@{players(home)[0]} /roster add team:"{home}" member:@latecomer role:reserve adult:true',
            refused_by="TEAM-ROSTER-7",
        )
    await w.say(f":clock {match_day:%Y-%m-%d} 19:40 {ZONE}")
    for number, match in enumerate(matches):
        home, away = teams[match.home_team_id], teams[match.away_team_id]
        present = {"home": players(home)[:4], "away": players(away)[:4]}
        if (week, "away") == SHORT_HANDED and number == 0:
            w.comment(f"{away} bring only three players: short-handed (TEAM-SHORT-*).")
            present["away"] = present["away"][:3]
        if (week, "away") == FORFEIT and number == 0:
            w.comment(f"{away} bring only two players: they forfeit at 20:15 (TEAM-FORF-1).")
            present["away"] = present["away"][:2]
        for side in ("home", "away"):
            for name in present[side]:
                await w.say(f"@{name} /checkin match:{match.id}")
    await w.say(f":clock {match_day:%Y-%m-%d} 20:16 {ZONE}")
    for number, match in enumerate(matches):
        home, away = teams[match.home_team_id], teams[match.away_team_id]
        if (week, "away") == FORFEIT and number == 0:
            await w.say(f"/match extension match:{match.id} agreed:false")
            await w.say(f"@{players(home)[0]} /match played-out match:{match.id}")
            await w.say(f'@{players(home)[0]} :click "Sign scoresheet"')
            continue
        short = (week, "away") == SHORT_HANDED and number == 0
        await play_match(w, match.id or 0, home, away, home_wins=(week + number) % 3 != 0, short_away=short)


async def play_match(
    w: ScriptWriter, match_id: int, home: str, away: str, *, home_wins: bool, short_away: bool
) -> None:
    """Four rounds, D,D,S,S; the first declarer alternates AWAY, HOME, AWAY, HOME and picks the machines."""
    w.comment(f"{away} at {home}")
    h, a = [p.upper() for p in players(home)[:4]], [p.upper() for p in players(away)[:4]]
    if short_away:
        a = [a[0], a[1], a[2], ""]  # three players: one plays alone in Doubles, one Singles game is forfeited
    machines = await machine_ids(w.db, match_id)
    # New Doubles pairs in round 2 (TEAM-LINEUP-6); a short team's solo player changes too (TEAM-SHORT-3).
    away_doubles_2 = [a[1], a[3], a[2], a[0]] if short_away else [a[0], a[2], a[1], a[3]]
    away_singles_4 = [a[2], a[1], a[0], ""] if short_away else list(reversed(a))
    first, second, third = machines[:3]
    rounds = [
        ("away", h, a, [first, second]),
        ("home", [h[0], h[2], h[1], h[3]], away_doubles_2, [second, third]),
        ("away", h, a, [first, first, second, second]),
        ("home", list(reversed(h)), away_singles_4, [third, third, second, second]),
    ]
    captain = {"home": players(home)[0], "away": players(away)[0]}
    for round_index, (first, home_line, away_line, picks) in enumerate(rounds, start=1):
        lines = {"home": home_line, "away": away_line}
        for side in (first, "away" if first == "home" else "home"):
            slots = " ".join(f"p{n}:{p}" for n, p in enumerate(lines[side], start=1) if p)
            chosen = " ".join(f"m{n}:{m}" for n, m in enumerate(picks, start=1)) if side == first else ""
            await w.say(f"@{captain[side]} /lineup match:{match_id} {slots} {chosen}".rstrip())
        doubles = round_index <= 2
        for game in (1, 2) if doubles else (1, 2, 3, 4):
            await score_game(w, match_id, round_index, game, lines, captain, doubles=doubles, home_wins=home_wins)
    for side in ("home", "away"):
        await w.say(f'@{captain[side]} :click "Sign scoresheet"')


async def score_game(
    w: ScriptWriter, match_id: int, round_index: int, game: int, lines: dict[str, list[str]],
    captain: dict[str, str], *, doubles: bool, home_wins: bool,
) -> None:  # fmt: skip
    per_game = 2 if doubles else 1
    seats = {side: [p for p in lines[side][(game - 1) * per_game : game * per_game] if p] for side in lines}
    if not all(seats.values()):
        return  # a Singles game the short team forfeits: nothing is played (TEAM-SHORT-5)
    win, lose = "2,000,000", "1,000,000"
    home_score, away_score = (win, lose) if home_wins == (game % 2 == 1 or doubles) else (lose, win)
    options = [f"home{n}:{home_score}" for n in range(1, len(seats["home"]) + 1)]
    options += [f"away{n}:{away_score}" for n in range(1, len(seats["away"]) + 1)]
    await w.say(f"@{captain['home']} /score match:{match_id} round:{round_index} game:{game} {' '.join(options)}")
    await w.say(f"@{captain['away']} :click Confirm")


async def machine_ids(db: Database, match_id: int) -> list[int]:
    """The match venue's machines, in the order they were added."""
    async with db.reading() as session:
        match = await session.get(Match, match_id)
        assert match is not None
        query = select(Machine).where(Machine.venue_id == match.venue_id).order_by(col(Machine.id))
        return [machine.id or 0 for machine in (await session.exec(query)).all()]


async def main() -> int:
    chat = LocalChat(load_settings(), db_url=None)
    await chat.start()
    db = Database(chat.db_url)
    writer = ScriptWriter(chat, db)
    try:
        await set_up(writer)
        for week in range(1, 6):
            await play_week(writer, db, week)
        writer.comment("The table after five weeks, and the playoff bracket it seeds.")
        await writer.say(":clock 2027-04-05 12:00 America/New_York")
        await writer.say("/standings")
        await writer.say("/playoffs seed start:2027-04-07")
        await writer.say("/playoffs show")
    finally:
        await db.dispose()
        await chat.close()
    OUTPUT.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(writer.lines)} lines)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
