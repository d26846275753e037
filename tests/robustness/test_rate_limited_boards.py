"""A league night under Discord's rate limits: twelve matches' living scoreboards share one channel, and every
home captain enters three games' scores in quick succession. discord.py reads the bucket headers and waits out
the 429s, so every board ends up showing every score entered in its match, one board per match."""

from __future__ import annotations

import asyncio
import json

from bench.team import TeamLeagueSize
from bot.local.emulator import Output
from bot.local.emulator.ratelimits import RateLimits
from bot.rules.scores import format_score
from storage.db import Database
from tests.robustness.conftest import match_night_of
from tests.robustness.test_concurrent_submissions import score_line

TWELVE_MATCHES = TeamLeagueSize(teams=24, players=6, weeks_played=0, past_seasons=0, venues=2)
GAMES = [(1, 1), (1, 2), (2, 1)]  # (round, game) entered in each match, one after the other


async def test_twelve_boards_in_one_channel_lose_no_edit_under_rate_limits(sqlite_db: Database) -> None:
    async with match_night_of(sqlite_db, TWELVE_MATCHES) as night:
        emulator = night.emulator
        # Discord's counts (5 sends/edits per channel per window, 50 requests per window overall) with
        # windows a tenth as long: the limits bind, without a 5 s wait per burst.
        emulator.rate_limits = RateLimits.like_discord(time_scale=0.1)
        tonight = night.league.tonight
        assert len(tonight) == 12
        entered: dict[int, list[int]] = {match.match_id: [] for match in tonight}  # home scores, oldest first
        for attempt in range(len(GAMES)):
            entries = []
            for number, match in enumerate(tonight):
                # Unique to the match and the attempt, and all as wide: none is part of another.
                home = 10_000_000 + 10_000 * number + 100 * attempt
                entered[match.match_id].append(home)
                round_index, game = GAMES[attempt]
                line = score_line(match, round_index, game, (home, 500_000, home + 1, 500_001))
                entries.append(emulator.run(line, as_member=match.home_captain, channel="scores", timeout=30))
            answers = await asyncio.gather(*entries)
            assert all(answer.content.startswith("📝") for answer in answers), [a.content for a in answers]
        await night.bot.scoreboards_published()

        assert emulator.rate_limits.exhausted > 0, "no bucket ran out: the limits never bound"
        boards = [_text(m) for m in emulator.messages_in("scores") if m.embeds]
        assert len(boards) == 12, "one living scoreboard per match"
        for match_id, scores in entered.items():
            shown = [board for board in boards if format_score(scores[0]) in board]
            assert len(shown) == 1, f"match {match_id} has {len(shown)} boards"
            assert all(format_score(score) in shown[0] for score in scores), f"match {match_id} lost an edit"


def _text(message: Output) -> str:
    return json.dumps(message.embeds, ensure_ascii=False)
