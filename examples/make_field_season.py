"""Write examples/field-season.script by playing a field season through the real bot in the local chat.

Twelve members, eight weekly nights on five of the venue's eight machines, then the finals: a one-bracket
double elimination, best two of three with machine and order picks. Along the way: a guest (week 2), an
opponent's ball played twice in one night (week 3), an exact tie settled by a one-ball playoff after the
close is refused (week 4), and a member who plays too few weeks to enter the finals. Every line is run as
written, so the script is exactly what worked. Regenerate after changing a command's options:

    .venv/bin/python examples/make_field_season.py
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
from datetime import date, timedelta
from pathlib import Path

from bot.local.chat import LocalChat
from bot.settings import load_settings

OUTPUT = Path(__file__).with_name("field-season.script")
ZONE = "America/Indiana/Indianapolis"
FIRST_NIGHT = date(2027, 6, 1)  # a Tuesday
MACHINES = [
    "Godzilla",
    "Medieval Madness",
    "Attack from Mars",
    "Twilight Zone",
    "Deadpool",
    "Jaws",
    "Elvira",
    "Foo Fighters",
]
MEMBERS = [f"lp{n:02d}" for n in range(1, 13)]
SELDOM = "lp12"  # plays three weeks: not eligible for the finals (FIELD-FIN-1)
GUEST = "visitor"
PAIRING = re.compile(r"`(?P<code>(?:B-)?[WLG][^`]*)` \((?P<s1>\d+)\) (?P<p1>\S+) v \((?P<s2>\d+)\) (?P<p2>\S+)")


class ScriptWriter:
    def __init__(self, chat: LocalChat) -> None:
        self.chat = chat
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

    async def say_or_tie(self, line: str) -> str | None:
        """Seed the finals; if two entrants are level (FIELD-STAND-2), play their tie-breaker first."""
        self.lines.append(line)
        outputs, _ = await self.chat.execute(line)
        text = "\n".join(output.text() for output in outputs)
        if "⛔" not in text:
            return text
        level = re.search(r"(\S+) and (\S+) are level on points", text)
        if level is None:
            raise RuntimeError(f"{line!r} answered unexpectedly:\n{text}")
        self.comment("Two finalists are level: the tie-breaker game on the drawn machine decides their seeds.")
        await self.say(f"/field finals tiebreak first:@{user(level[1])} second:@{user(level[2])}")
        return None


def user(display_name: str) -> str:
    """The emulator shows member `lp03` as `Lp03`."""
    return display_name.lower()


async def set_up(w: ScriptWriter) -> None:
    w.comment("A Lafayette-style field season: twelve members, eight nights, then the finals.")
    w.comment("Made by examples/make_field_season.py; run: pinleague local --script examples/field-season.script")
    await w.say(f":clock 2027-05-28 12:00 {ZONE}")
    await w.say(f'/league create name:"Lafayette League" format:field timezone:{ZONE} commissioner_role:@Commissioner')
    await w.say(":as alice")
    await w.say('/venue add name:"MSA"')
    for model in MACHINES:
        await w.say(f'/machine add venue:"MSA" model:"{model}"')
    for name in [*MEMBERS, GUEST]:
        await w.say(f":member add {name}")
    for name in MEMBERS:
        await w.say(f"/player register member:@{name}")


def attendance(week: int) -> list[str]:
    """Most members come most weeks; each misses one or two; lp12 comes in weeks 1-3 only."""
    present = [m for n, m in enumerate(MEMBERS[:-1], start=1) if (n + week) % 6 != 0 and (n * week) % 11 != 5]
    return present + ([SELDOM] if week <= 3 else [])


async def play_night(w: ScriptWriter, week: int) -> None:
    night = FIRST_NIGHT + timedelta(weeks=week - 1)
    machines = [(week + k) % len(MACHINES) + 1 for k in range(5)]  # machine ids, five a night, rotating
    w.comment(f"Week {week}: {night:%a %Y-%m-%d}")
    await w.say(f":clock {night:%Y-%m-%d} 18:30 {ZONE}")
    await w.say("/field night open " + " ".join(f"m{k}:{m}" for k, m in enumerate(machines, start=1)))
    present = attendance(week)
    for name in present:
        await w.say(f"@{name} /field checkin")
    if week == 2:
        w.comment("A visitor plays as a guest, approved by an official (FIELD-ATT-3); not in the season table.")
        await w.say(f"/field guest member:@{GUEST}")
    await w.say(":clock +30m")
    listed = [re.search(r"\b\d+\. (.+)$", line) for line in (await w.say("/field groups")).splitlines()]
    groups = [[user(name.removesuffix(" (guest)")) for name in m[1].split(", ")] for m in listed if m]
    rng = random.Random(week)
    skill = {name: 100 - 5 * n for n, name in enumerate(MEMBERS)} | {GUEST: 72}
    tied = present[2:4] if week == 4 else []
    for group in groups:
        scorekeeper = next(name for name in group if name != GUEST)
        for machine in machines:
            entries = []
            for n, name in enumerate(group, start=1):
                # the last digits are the player's own, so only the planned tie is exact
                value = (skill[name] + rng.randint(0, 60)) * 100_000 + rng.randint(0, 99) * 1000 + skill[name]
                if name in tied and machine == machines[0]:
                    value = 12_345_670  # an exact tie: provisional until the playoff (FIELD-SCORE-3)
                entries.append(f"p{n}:@{name} s{n}:{value:,}")
            await w.say(f"@{scorekeeper} /field game machine:{machine} " + " ".join(entries))
    if week == 3:
        w.comment("lp05 plays an opponent's ball twice tonight: the second zeroes that game (FIELD-PEN-2).")
        await w.say(f"/field penalty member:@lp05 offence:opponent_ball machine:{machines[0]}")
        await w.say(f"/field penalty member:@lp05 offence:opponent_ball machine:{machines[1]}")
    if tied:
        first, second = tied
        w.comment("The night cannot close while a tie waits for its one-ball playoff (FIELD-SCORE-3).")
        await w.say("/field night close", refused_by="FIELD-SCORE-3")
        await w.say(f"@{second} /field tiebreak machine:{machines[0]} first:@{second} second:@{first}")
    await w.say("/field night close")


async def play_finals(w: ScriptWriter) -> None:
    w.comment("Finals: check-in with the fee paid, seeding from the totals after the two lowest weeks are dropped.")
    await w.say(f":clock 2027-07-27 19:00 {ZONE}")
    await w.say("/field standings")
    await w.say(f"/field finals entry member:@{SELDOM} paid:true", refused_by="FIELD-FIN-1")
    for name in MEMBERS[:-1]:
        await w.say(f"/field finals entry member:@{name} paid:true")
    while await w.say_or_tie("/field finals seed") is None:
        pass
    used: dict[str, set[int]] = {}
    while True:
        shown = await w.say("/field finals show")
        ready = [m.groupdict() for m in PAIRING.finditer(shown)]
        if not ready:
            break
        for pairing in ready:
            await play_pairing(w, pairing, used.setdefault(pairing["code"], set()))


async def play_pairing(w: ScriptWriter, pairing: dict[str, str], used: set[int]) -> None:
    """Best two of three (FIELD-FIN-4): game 1 and 3 the higher seed picks the machine, the other the order;
    game 2 the lower seed picks first (FIELD-AMB-9). The higher seed wins, but every fifth pairing is an upset."""
    code = pairing["code"]
    seeds = {int(pairing["s1"]): user(pairing["p1"]), int(pairing["s2"]): user(pairing["p2"])}
    higher, lower = seeds[min(seeds)], seeds[max(seeds)]
    upset = (min(seeds) + max(seeds)) % 5 == 0
    winners = [lower, higher, lower] if upset else [higher, higher]
    for game, winner in enumerate(winners, start=1):
        chooser, other = (lower, higher) if game == 2 else (higher, lower)
        machine = next(m for m in range(1, len(MACHINES) + 1) if m not in used)
        used.add(machine)
        await w.say(f"@{chooser} /field finals pick pairing:{code} machine:{machine}")
        await w.say(f"@{other} /field finals pick pairing:{code} first:{'true' if game % 2 else 'false'}")
        await w.say(f"@{winner} /field finals result pairing:{code} winner:@{winner}")


async def main() -> int:
    chat = LocalChat(load_settings(), db_url=None)
    await chat.start()
    writer = ScriptWriter(chat)
    try:
        await set_up(writer)
        for week in range(1, 9):
            await play_night(writer, week)
        await play_finals(writer)
        writer.comment("The champion, the payouts after plaques, and the IFPA results.")
        await writer.say("/field finals show")
    finally:
        await chat.close()
    OUTPUT.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    print(f"wrote {OUTPUT} ({len(writer.lines)} lines)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
