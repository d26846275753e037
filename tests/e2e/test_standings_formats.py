"""/standings for ladder and field leagues through the local Discord emulator: the format's own table, the
standings CSV and, once the format has final results, the IFPA results CSV (LADDER-STAND-1/2, FIELD-STAND-1,
FIELD-IFPA-1/2); `conference` is refused for these formats, and `/schedule ics` before the nights are planned,
with what to do instead."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator

import pytest

from bot.services.actor import Actor
from storage.db import Database
from tests.e2e.harness import RunningBot, running_bot
from tests.e2e.season import refused
from tests.exchange.format_history import FIELD_GUEST, FIELD_MEMBERS, build_field_history, build_ladder_history, ok


@pytest.fixture
async def ladder(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        await build_ladder_history(league)
        yield league


@pytest.fixture
async def field(sqlite_db: Database) -> AsyncIterator[RunningBot]:
    async with running_bot(sqlite_db) as league:
        await build_field_history(league)
        yield league


def reader(league: RunningBot) -> Actor:
    return Actor(league.emulator.guild.id, 0, "test", frozenset(), False, "/standings")


def attachments(reply: object) -> dict[str, list[dict[str, str]]]:
    answer = getattr(reply, "answer", None)
    assert answer is not None
    return {a.filename: list(csv.DictReader(io.StringIO(a.data.decode()))) for a in answer.attachments}


async def test_ladder_standings_and_their_export(ladder: RunningBot) -> None:
    """LADDER-STAND-1: /standings shows the ladder table (TLP, ties by ANS); the export's CSV has every row; the
    IFPA results wait for the final standings (LADDER-STAND-2), then list every player by final position."""
    shown = await ladder.run("/standings", as_member="p5")
    assert not shown.ephemeral and "Jersey Ladder ladder standings" in shown.text(), shown.text()
    view = await ladder.bot.services.ladder_standings.standings(reader(ladder), None)
    assert view.weeks_closed == 1 and view.rows[0].name == "P1" and view.rows[0].tlp > 0

    await refused(ladder, "/standings conference:East", as_member="p5", rule=None,
                  message="conferences are only for team leagues")  # fmt: skip
    planned = await ladder.run("/schedule ics", as_member="p5")  # the history's ten planned nights
    assert planned.ephemeral and "10 event(s) in `jersey-ladder-nights.ics`" in planned.content, planned.content

    exported = await ladder.run("/standings export:true", as_member="p5")
    assert exported.ephemeral and "once all 10 regular weeks are closed (1 so far)" in exported.content
    files = attachments(exported)
    assert set(files) == {"jersey-ladder-standings.csv"}
    table = files["jersey-ladder-standings.csv"]
    assert [(int(r["position"]), r["name"], int(r["tlp"])) for r in table] == [
        (row.position, row.name, row.tlp) for row in view.rows
    ]

    # A two-week season: week 2 (open, only P1 there) closes and the standings are final.
    await ok(ladder, "/ladder option name:split_after_week value:1", "alice")
    await ok(ladder, "/ladder option name:regular_weeks value:2", "alice")
    five = "Attack from Mars, Black Knight, Cirqus Voltaire, Demolition Man, Funhouse"
    for group in (1, 2, 3):
        await ok(ladder, f'/ladder games set group:{group} games:"{five}"', "alice")
    await ok(ladder, '/ladder score game:1 score:"1,000,000 1,000,000 1,000,000 1,000,000 1,000,000"', "p1")
    await ok(ladder, "/ladder night close", "alice")
    final = await ladder.bot.services.ladder_standings.standings(reader(ladder), None)
    files = attachments(await ladder.run("/standings export:true", as_member="p5"))
    results = files["jersey-ladder-ifpa.csv"]
    assert len(results) == len(final.rows) == 10
    best = min(final.rows, key=lambda row: (row.dropped, row.division or "", row.position))
    assert (results[0]["position"], results[0]["name"]) == ("1", best.name)
    positions = [int(row["position"]) for row in results]
    for index, position in enumerate(positions):  # a place counts everyone above it
        assert position == 1 + positions.index(position) and position <= index + 1


async def test_field_standings_and_the_ifpa_results_after_the_finals(field: RunningBot) -> None:
    """FIELD-STAND-1: /standings shows the season table; the export waits for the finals' champion, then gives
    FIELD-IFPA-1's list: the finalists by finishing position (FIELD-IFPA-2), then the other members by league
    rank, guests left out (FIELD-AMB-11)."""
    shown = await field.run("/standings", as_member="f05")
    assert not shown.ephemeral and "LPL standings" in shown.text() and "F01" in shown.text(), shown.text()
    view = await field.bot.services.field_standings.table(reader(field), None)

    exported = await field.run("/standings export:true", as_member="f05")
    assert "IFPA results come with the finals" in exported.content
    files = attachments(exported)
    assert set(files) == {"lpl-standings.csv"}
    assert [(int(r["rank"]), r["name"]) for r in files["lpl-standings.csv"]] == [
        (row.rank, view.names[int(row.player)]) for row in view.rows
    ]
    await refused(field, "/schedule ics", as_member="f05", rule=None, message="dates them with `/schedule nights`")

    await play_out_the_finals(field)
    results = attachments(await field.run("/standings export:true", as_member="f05"))["lpl-ifpa.csv"]
    # F01..F04 seeded 1-4 and the better seed won every game: 1, 2, 3, 4 (FIELD-IFPA-2); then F05..F08 by rank
    assert [(row["position"], row["name"], row["ifpa_number"]) for row in results] == [
        (str(position), f"F{position:02d}", "10101" if position == 1 else "") for position in range(1, 9)
    ]
    assert FIELD_GUEST.title() not in {row["name"] for row in results} and len(FIELD_MEMBERS) == 8


async def play_out_the_finals(league: RunningBot) -> None:
    """Every pairing best of three, the better seed winning every game: whoever may pick the machine picks, the
    other picks the order, and the loser reports the result."""
    for _ in range(12):
        finals = await league.bot.services.field_finals.show(reader(league), None)
        ready = [(bracket, state) for bracket in finals.brackets for state in bracket.state.ready()]
        if not ready:
            break
        bracket, state = ready[0]
        assert isinstance(state.top, int) and isinstance(state.bottom, int)
        better, worse = (finals.names[bracket.players[seed]].lower() for seed in sorted((state.top, state.bottom)))
        played = len(bracket.games.get(state.match.id, []))  # the better seed won them all
        for game in range(played + 1, 3):  # machine `game` has not been played in this match-up
            chooser, other = better, worse
            picked = await league.run(f"/field finals pick pairing:{state.match.id} machine:{game}", as_member=better)
            if picked.content.startswith("⛔"):
                chooser, other = worse, better
                await ok(league, f"/field finals pick pairing:{state.match.id} machine:{game}", chooser)
            await ok(league, f"/field finals pick pairing:{state.match.id} first:true", other)
            await ok(league, f"/field finals result pairing:{state.match.id} winner:@{better}", worse)
    finals = await league.bot.services.field_finals.show(reader(league), None)
    assert finals.ifpa, "the finals have a champion"
