"""Ratings on the benchmark's team league: how long the ratings take to catch up after one confirmed game.

Through the services, as the bot does it: the home captain enters one of tonight's games, the away captain
confirms it, and the next read of the ratings (`/ratings`, `/player profile`) rates it. Timed is that read,
from the ratings computed before the game (`RatingService` rates on from what the audit says changed) and,
for comparison, the first computation of a new service (every game read and rated).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from datetime import timedelta

from bench.team import ROUND_GAMES, TeamLeague, TonightMatch, actor
from bot.clock import ManualClock
from bot.rules.team.model import Side
from bot.services import Services
from bot.services.team.match_access import GameRef


@dataclass(frozen=True)
class RatingUpdate:
    full_ms: float  # a new service's first computation: every game read and rated
    after_game_ms: list[float]  # each read after one more game confirmed
    after_game_cpu_ms: list[float]  # the same in this process's CPU time: what other processes' load leaves out
    games: int  # games rated at the end

    def summary(self) -> str:
        wall, cpu = sorted(self.after_game_ms), sorted(self.after_game_cpu_ms)
        return (
            f"ratings after one confirmed game: median **{statistics.median(wall):.1f} ms**, "
            f"max {wall[-1]:.1f} ms over {len(wall)} games (target ≤ 5 ms; CPU time median "
            f"{statistics.median(cpu):.1f} ms, max {cpu[-1]:.1f} ms); the first computation of all "
            f"{self.games:,} games {self.full_ms:.0f} ms"
        )


async def time_rating_update(league: TeamLeague, games: int) -> RatingUpdate:
    await league.reset_tonight(rounds_declared=4)
    clock = ManualClock(league.now)
    services = Services.build(league.db, clock, default_timezone="America/New_York")
    reader = actor(league.emulator, league.members[0])
    began = time.perf_counter()
    await services.ratings.table(reader)
    full_ms = (time.perf_counter() - began) * 1000
    timings, cpu = [], []
    for match, round_index, game, players in _tonight_games(league)[:games]:
        home, away = actor(league.emulator, match.home_captain), actor(league.emulator, match.away_captain)
        ref = GameRef(match.match_id, round_index, game)
        scores = {side: [f"{(n + 1) * 1_000_000 + round_index * 1_000:,}" for n in range(players)] for side in Side}
        clock.advance(timedelta(seconds=40))  # a game confirmed every 40 s or so, as on a busy night
        await services.match_night.enter_scores(home, None, ref, scores)
        await services.match_night.confirm_game(away, ref)
        began, began_cpu = time.perf_counter(), time.process_time()
        table = await services.ratings.table(reader)
        timings.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    await league.reset_tonight(rounds_declared=0)
    return RatingUpdate(full_ms, timings, cpu, table.games)


def _tonight_games(league: TeamLeague) -> list[tuple[TonightMatch, int, int, int]]:
    return [
        (match, round_index, game, len(players))
        for round_index, games in enumerate(ROUND_GAMES, start=1)
        for match in league.tonight
        for game, players in enumerate(games, start=1)
    ]
