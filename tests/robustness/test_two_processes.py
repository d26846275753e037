"""Two bot processes on one PostgreSQL database, connected to the same guild: as on Discord, both receive every
interaction. Every command works, and each is answered and posted exactly once (the interaction claim)."""

from __future__ import annotations

import pytest

from bench.bot_process import BotProcess
from bench.team import seed_team_league
from bot.local.emulator import Emulator
from bot.rules.team.model import Side
from storage.db import Database
from tests.robustness.conftest import SMALL


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
            lines = [
                ("/league show", "carol"),
                ('/venue add name:"Venue Nine"', "alice"),
                ('/machine add venue:"Venue Nine" model:"Jaws"', "alice"),
                ('/team create name:"Late Team" evening:Tuesday home_venue:"Venue Nine" conference:East', "alice"),
                ("/player register member:@erin", "alice"),
                ('/roster show team:"Team 01"', "carol"),
                ("/schedule show week:3", "carol"),
                ("/standings", "carol"),
                ("/highscores", "carol"),
                ("/playoffs show", "carol"),
                (f"/checkin match:{match.match_id} member:@{match.roster[Side.HOME][4]}", home),
                (
                    f"/lineup match:{match.match_id} p1:{away_players[0]} p2:{away_players[1]} "
                    f"p3:{away_players[2]} p4:{away_players[3]} "
                    f"m1:{match.machines[0]} m2:{match.machines[1]}",
                    away,
                ),
                (f"/match show match:{match.match_id}", "carol"),
            ]
            for line, member in lines:
                result = await emulator.run(line, as_member=member)
                record = emulator.interactions[result.interaction_id]
                replies = [o for o in record.outputs if o.kind in ("response", "followup")]
                assert len(replies) == 1, f"{line}: {[o.kind for o in record.outputs]}"
                assert "Something went wrong" not in replies[0].text(), replies[0].text()
                assert not replies[0].content.startswith("⛔"), f"{line}: {replies[0].content}"
                assert sum(o.kind == "message" for o in record.outputs) <= 1, f"{line} posted twice"
                assert record.rejections == [], f"{line}: {record.rejections}"
        finally:
            for bot in bots:
                await bot.kill()
