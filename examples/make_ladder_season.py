"""Write examples/ladder-season.script by playing a ladder season through the real bot in the local chat.

Thirteen players, ten Wednesdays at one venue: premakeups recorded before the season, notified absences
on premakeups (LADDER-PMU-*) and without (LADDER-GHOST-1), a player dropped at his third No-Show when his
group starts game 3 (LADDER-ATT-5), a late join refused (LADDER-REG-1), the A/B split after week 5
(LADDER-DIV-1), then the final standings and payouts. Every line is run as it is written, so the script is
exactly what worked. Regenerate after changing a command's options:

    .venv/bin/python examples/make_ladder_season.py
"""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import date, timedelta
from pathlib import Path

from sqlmodel import col, select

from bot.local.chat import LocalChat
from bot.settings import load_settings
from storage.db import Database
from storage.ladder import LadderGroup, LadderNight, LadderPlayer
from storage.models import Player

OUTPUT = Path(__file__).with_name("ladder-season.script")
ZONE = "America/New_York"
FIRST_NIGHT = date(2027, 3, 3)  # a Wednesday
MACHINES = {  # model → normalizer (LADDER-NORM-1)
    "Attack from Mars": 1_000_000_000,
    "Medieval Madness": 30_000_000,
    "Monster Bash": 100_000_000,
    "The Addams Family": 50_000_000,
    "Twilight Zone": 300_000_000,
}
PLAYERS = {  # username → self-estimated skill (LADDER-REG-2)
    "ava": 9, "ben": 8, "cal": 8, "dee": 7, "eli": 7, "fay": 6, "gus": 6,
    "hal": 5, "ivy": 5, "jon": 4, "kim": 3, "lou": 2, "max": 2,
}  # fmt: skip
PREMAKEUPS = {"dee": list(MACHINES), "hal": ["Attack from Mars", "The Addams Family"]}
ABSENT = {3: ["dee"], 6: ["hal"], 8: ["kim"]}  # notified absences (LADDER-ATT-4)
NO_SHOW = "max"  # no notice in weeks 2, 3 and 4: dropped when his group starts game 3 of week 4
NO_SHOW_WEEKS = (2, 3, 4)
WEEKS = 10


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


def night_of(week: int) -> date:
    return FIRST_NIGHT + timedelta(weeks=week - 1)


async def set_up(w: ScriptWriter, rng: random.Random) -> None:
    w.comment("A 13-player Jersey PA-style ladder season, ten weeks, played from Discord through the local chat.")
    w.comment("Made by examples/make_ladder_season.py; run: pinleague local --script examples/ladder-season.script")
    await w.say(f":clock 2027-02-24 12:00 {ZONE}")
    await w.say(f'/league create name:"Jersey Ladder" format:ladder timezone:{ZONE} commissioner_role:@Commissioner')
    await w.say(":as alice")
    await w.say('/venue add name:"The Break"')
    for model, normalizer in MACHINES.items():
        await w.say(f'/machine add venue:"The Break" model:"{model}"')
        await w.say(f'/ladder normalizer machine:"{model}" value:{normalizer:,}')
    for name, skill in PLAYERS.items():
        await w.say(f":member add {name}")
        await w.say(f"@{name} /ladder join skill:{skill}")
    w.comment("Premakeups before the season: declared, then played with someone else (LADDER-PMU-1).")
    for name, models in PREMAKEUPS.items():
        for model in models:
            for _ in range(2):
                await w.say(f'@{name} /ladder premakeup declare machine:"{model}" with:"a friend"')
                await w.say(f'@{name} /ladder premakeup record machine:"{model}" score:{score(model, name, rng):,}')
    await w.say('@hal /ladder premakeup order machine:"The Addams Family" order:S1,AVG,S2')


def score(model: str, name: str, rng: random.Random) -> int:
    """A plausible score: stronger players (higher skill) score more, with plenty of luck; ends in 0."""
    strength = 0.4 + PLAYERS[name] / 8
    return int(MACHINES[model] * strength * rng.uniform(0.2, 1.8)) // 10 * 10


async def play_week(w: ScriptWriter, db: Database, week: int, rng: random.Random) -> None:
    day = night_of(week)
    w.comment(f"Week {week}: {day:%a %Y-%m-%d}")
    await w.say(f":clock {day:%Y-%m-%d} 12:00 {ZONE}")
    for name in ABSENT.get(week, []):
        await w.say(f"@{name} /ladder absent")
    await w.say(f":clock {day:%Y-%m-%d} 19:05 {ZONE}")
    await w.say(f"/ladder night open date:{day:%Y-%m-%d}")
    if week == 3:
        w.comment("Week 3 has started: a newcomer is refused (LADDER-REG-1).")
        await w.say(":member add newbie")
        await w.say("@newbie /ladder join skill:5", refused_by="LADDER-REG-1")
    groups = await tonight(db)
    away = set(ABSENT.get(week, [])) | ({NO_SHOW} if week in NO_SHOW_WEEKS else set())
    for members in groups:
        for name in members:
            if name not in away and name in await active(db):
                await w.say(f"@{name} /ladder checkin")
    await w.say(f":clock {day:%Y-%m-%d} 19:35 {ZONE}")
    models = await slots(db)
    for first, last in ((1, 2), (3, 5)):  # each player enters games 1-2, then 3-5 from the scoresheet
        for members, machines in zip(groups, models, strict=True):
            for name in members:
                if name not in away and name in await active(db):
                    scores = " ".join(f"{score(machines[g - 1], name, rng):,}" for g in range(first, last + 1))
                    await w.say(f'@{name} /ladder score game:{first} score:"{scores}"')
    await w.say(f":clock {day:%Y-%m-%d} 22:30 {ZONE}")
    await w.say("/ladder night close")


async def tonight(db: Database) -> list[list[str]]:
    """The open night's groups as usernames, top group first."""
    async with db.reading() as session:
        night = (await session.exec(select(LadderNight).order_by(col(LadderNight.week).desc()))).first()
        assert night is not None
        groups = (
            await session.exec(select(LadderGroup).where(LadderGroup.night_id == night.id).order_by(LadderGroup.number))
        ).all()
        names = await _names(db)
        return [[names[i] for i in g.members] for g in groups]


async def slots(db: Database) -> list[list[str]]:
    async with db.reading() as session:
        night = (await session.exec(select(LadderNight).order_by(col(LadderNight.week).desc()))).first()
        assert night is not None
        titles = {m["id"]: m["name"] for m in night.machines}
        groups = (
            await session.exec(select(LadderGroup).where(LadderGroup.night_id == night.id).order_by(LadderGroup.number))
        ).all()
        return [[titles[m] for m in g.slots or []] for g in groups]


async def active(db: Database) -> set[str]:
    names = await _names(db)
    async with db.reading() as session:
        rows = (await session.exec(select(LadderPlayer).where(LadderPlayer.status == "active"))).all()
    return {names[row.id or 0] for row in rows}


async def _names(db: Database) -> dict[int, str]:
    async with db.reading() as session:
        rows = (
            await session.exec(select(LadderPlayer.id, Player.display_name).where(LadderPlayer.player_id == Player.id))
        ).all()
    return {entry_id or 0: name.lower() for entry_id, name in rows}


async def main() -> int:
    chat = LocalChat(load_settings(), db_url=None)
    await chat.start()
    db = Database(chat.db_url)
    writer = ScriptWriter(chat, db)
    rng = random.Random(2001)  # the sheet's season; a fixed seed keeps the script stable
    try:
        await set_up(writer, rng)
        for week in range(1, WEEKS + 1):
            await play_week(writer, db, week, rng)
        writer.comment("The final standings per division (LADDER-STAND-2) and the season's money (LADDER-PAY-*).")
        await writer.say(f":clock {night_of(WEEKS) + timedelta(days=1):%Y-%m-%d} 12:00 {ZONE}")
        await writer.say("/ladder standings")
        await writer.say("/ladder playoffs")
        await writer.say("/ladder payouts")
    finally:
        await db.dispose()
        await chat.close()
    OUTPUT.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(writer.lines)} lines)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
