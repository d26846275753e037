"""A ladder league and a field league with tonight's night open, set up through Discord in a guild that may
already hold other leagues (so every line names its league). Shared by the permission matrix and the two-guild
isolation test; the night tests keep their own fixtures."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col, select

from storage.field import FieldCheckin, FieldCorrection, FieldNight
from storage.models import League, Machine, Player
from tests.e2e.harness import RunningBot

MACHINES = ["Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Elvira", "Funhouse"]
FIVE_GAMES = ", ".join(MACHINES[:5])


@dataclass(frozen=True)
class OpenNight:
    """Tonight's night in one league, and three of its players: the one a command is about, one who plays in
    the same group, and one who plays in another group."""

    league: str
    concerned: str
    groupmate: str
    other_group: str
    machines: str = ""  # field: tonight's machines as `/field night open` takes them
    machine_ids: tuple[int, ...] = ()  # field: tonight's machines, the first one's scores written
    correction: int = 0  # field: a correction of the groupmate's score, asked by the concerned player
    tied: str = ""  # field: a player of the group concerned tied with the concerned one on machine 1


async def ok(running: RunningBot, line: str, member: str = "alice") -> str:
    result = await running.run(line, as_member=member)
    assert not result.content.startswith("⛔") and "Something went wrong" not in result.text(), (line, result.text())
    return result.text()


async def _league_with_machines(running: RunningBot, name: str, league_format: str, venue: str) -> str:
    """Creates the league (commissioners: the Commissioner role) with one venue and MACHINES; returns the
    `league:` option every further line needs."""
    created = f'/league create name:"{name}" format:{league_format} timezone:America/New_York'
    await ok(running, f"{created} commissioner_role:@Commissioner", "owner")
    league = f'league:"{name}"'
    await ok(running, f'/venue add name:"{venue}" {league}')
    for model in MACHINES:
        await ok(running, f'/machine add venue:"{venue}" model:"{model}" {league}')
    return league


async def open_ladder_night(running: RunningBot, name: str, prefix: str) -> OpenNight:
    """Nine players (`{prefix}1` best … `{prefix}9`) join, tonight's night opens in three groups of three
    (LADDER-GROUP-1/2), everyone checks in and the commissioner sets each group's five games; group 1 enters game 2
    with its first two players level, a one-ball playoff to enter (LADDER-AMB-5)."""
    league = await _league_with_machines(running, name, "ladder", "The Break")
    for machine in MACHINES:
        await ok(running, f'/ladder normalizer machine:"{machine}" value:20,000,000 {league}')
    players = [f"{prefix}{n}" for n in range(1, 10)]
    for number, player in enumerate(players):
        running.emulator.add_member(player)
        await ok(running, f"/ladder join skill:{10 - number} {league}", player)
    await ok(running, f"/ladder night open {league}")
    for player in players:
        await ok(running, f"/ladder checkin {league}", player)
    for group in (1, 2, 3):
        await ok(running, f'/ladder games set group:{group} games:"{FIVE_GAMES}" {league}')
    for player, score in zip(players[:3], ("20,000,000", "20,000,000", "10,000,000"), strict=True):
        await ok(running, f"/ladder score game:2 score:{score} {league}", player)
    return OpenNight(name, concerned=players[0], groupmate=players[1], other_group=players[3])


async def open_field_night(running: RunningBot, name: str, prefix: str) -> OpenNight:
    """Ten registered members check in to tonight's night on five machines and are put in groups of four and
        three (FIELD-GROUP-1); the group of the first member writes its scores on machine 1, the first and third of
    them tied (FIELD-SCORE-3), and the first asks to correct the second's score (FIELD-SCORE-6)."""
    league = await _league_with_machines(running, name, "field", "MSA")
    async with running.db.reading() as session:
        league_id = (await session.exec(select(League.id).where(League.name == name))).one()
        machines = (await session.exec(select(Machine.id).where(Machine.league_id == league_id))).all()
    tonight = tuple(sorted(m or 0 for m in machines)[:5])
    picked = " ".join(f"m{n}:{machine}" for n, machine in enumerate(tonight, start=1))
    await ok(running, f"/field night open {picked} {league}")
    members = [f"{prefix}{n:02d}" for n in range(1, 11)]
    for member in members:
        running.emulator.add_member(member)
        await ok(running, f"/player register member:@{member} {league}")
        await ok(running, f"/field checkin {league}", member)
    await ok(running, f"/field groups {league}")
    async with running.db.reading() as session:
        rows = (
            await session.exec(
                select(Player.display_name, FieldCheckin.group_number)
                .join(FieldCheckin, col(FieldCheckin.player_id) == Player.id)
                .where(Player.league_id == league_id)
            )
        ).all()
    group_of = {display.lower(): group for display, group in rows}
    first = [m for m in members if group_of[m] == group_of[members[0]]]
    other = next(m for m in members if group_of[m] != group_of[members[0]])
    for place, member in enumerate(first):  # the first and third tie, so the night cannot close (FIELD-SCORE-3)
        await ok(
            running, f"/field score machine:{tonight[0]} score:{(place % 2 + 1) * 10_000 + place // 3} {league}", member
        )
    await ok(
        running,
        f'/field correct machine:{tonight[0]} member:@{first[1]} score:25,000 reason:"Misread" {league}',
        first[0],
    )
    async with running.db.reading() as session:
        correction = (
            await session.exec(select(FieldCorrection.id).join(FieldNight).where(FieldNight.league_id == league_id))
        ).one()
    return OpenNight(
        name, first[0], first[1], other, machines=picked, machine_ids=tonight, correction=correction or 0,
        tied=first[2],
    )  # fmt: skip
