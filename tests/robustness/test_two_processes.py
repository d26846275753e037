"""Two bot processes on one PostgreSQL database, connected to the same guild: as on Discord, both receive every
interaction. Every command works, and each is answered and posted exactly once (the interaction claim), and done
once: the database holds exactly the rows one process would have written (one venue, one lineup, one audit entry
per change), never a second copy from the other process."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select
from sqlmodel import SQLModel

from bench.bot_process import BotProcess
from bench.team import seed_team_league
from bot.local.emulator import Emulator
from bot.local.emulator.records import REPLY_KINDS
from bot.rules.team.model import Side
from storage.db import Database
from tests.robustness.conftest import SMALL


async def rows_written(db: Database) -> dict[str, int]:
    """Rows per league table, in one round trip (`bot_state` holds the claims both processes race for)."""
    tables = [table for table in SQLModel.metadata.sorted_tables if table.name != "bot_state"]
    query = select(*(select(func.count()).select_from(table).scalar_subquery() for table in tables))
    async with db.reading() as session:
        counts = (await session.exec(query)).one()  # type: ignore[call-overload]
    return {table.name: count for table, count in zip(tables, counts, strict=True)}


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
async def test_two_processes_answer_every_command_once(db: Database) -> None:
    async with Emulator() as emulator:
        league = await seed_team_league(db, emulator, SMALL)
        await league.reset_tonight(rounds_declared=0)
        emulator.quiet_window = 0.2  # collect a deferred reply or a second process's duplicate, if any
        match = league.tonight[0]
        home, away = match.home_captain, match.away_captain
        away_players = [str(player) for player in match.players[Side.AWAY]]
        url = db.url.render_as_string(hide_password=False)
        bots = [BotProcess(emulator, url, league.now), BotProcess(emulator, url, league.now)]
        try:
            for bot in bots:
                await bot.start()
            assert len(emulator.gateway.live_sessions) == 2
            created = {"audit_entry": 1}  # one change, audited once
            lines: list[tuple[str, str, dict[str, int]]] = [
                ("/league show", "carol", {}),
                ('/venue add name:"Venue Nine"', "alice", created | {"venue": 1}),
                ('/machine add venue:"Venue Nine" model:"Jaws"', "alice", created | {"machine": 1}),
                (
                    '/team create name:"Late Team" evening:Tuesday home_venue:"Venue Nine" conference:East',
                    "alice",
                    created | {"team": 1},
                ),
                ("/player register member:@erin", "alice", created | {"player": 1}),
                ('/roster show team:"Team 01"', "carol", {}),
                ("/schedule show week:3", "carol", {}),
                (
                    "/standings",
                    "carol",
                    {"match_final_result": league.final_matches},
                ),  # each final result stored once, cached
                ("/highscores", "carol", {}),
                ("/playoffs show", "carol", {}),
                (
                    f"/checkin match:{match.match_id} member:@{match.roster[Side.HOME][4]}",
                    home,
                    created | {"match_visit": 1},
                ),
                (
                    f"/lineup match:{match.match_id} p1:{away_players[0]} p2:{away_players[1]} "
                    f"p3:{away_players[2]} p4:{away_players[3]} "
                    f"m1:{match.machines[0]} m2:{match.machines[1]}",
                    away,
                    created | {"match_lineup": 1},
                ),
                (f"/match show match:{match.match_id}", "carol", {}),
            ]
            expected = await rows_written(db)
            for line, member, writes in lines:
                result = await emulator.run(line, as_member=member)
                # Checked against the running total, so a second process's late copy shows by the next command.
                expected = {table: count + writes.get(table, 0) for table, count in expected.items()}
                written = await rows_written(db)
                extra = {table: written[table] - count for table, count in expected.items() if written[table] != count}
                assert not extra, f"after {line}: rows beyond what one process writes: {extra}"
                record = emulator.interactions[result.interaction_id]
                replies = [o for o in record.outputs if o.kind in REPLY_KINDS]  # a deferral's edit too
                assert len(replies) == 1, f"{line}: {[o.kind for o in record.outputs]}"
                assert "Something went wrong" not in replies[0].text(), replies[0].text()
                assert not replies[0].content.startswith("⛔"), f"{line}: {replies[0].content}"
                assert sum(o.kind == "message" for o in record.outputs) <= 1, f"{line} posted twice"
                assert record.rejections == [], f"{line}: {record.rejections}"
            await asyncio.sleep(emulator.quiet_window)
            assert await rows_written(db) == expected, "a late second copy of the last command"
        finally:
            for bot in bots:
                await bot.kill()
