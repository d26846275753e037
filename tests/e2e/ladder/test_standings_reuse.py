"""/ladder standings reuses the computed table while nothing changed, and never shows a stale one: a player who
joins through this process is in the next table (LADDER-STAND-1)."""

from __future__ import annotations

from sqlalchemy import event

from tests.e2e.harness import RunningBot
from tests.e2e.ladder.conftest import ten_players  # noqa: F401 (the fixture)
from tests.e2e.ladder.test_night import ok


async def test_unchanged_standings_are_not_recomputed(ten_players: RunningBot) -> None:  # noqa: F811
    """The second /ladder standings with nothing changed in between reads no results and no entries."""
    league = ten_players
    first = (await league.run("/ladder standings", as_member="p5")).text()
    statements: list[str] = []
    event.listen(league.db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    second = (await league.run("/ladder standings", as_member="p5")).text()
    assert second == first
    assert not [s for s in statements if "ladder_result" in s or "ladder_player" in s], statements


async def test_a_player_who_joins_shows_at_once(ten_players: RunningBot) -> None:  # noqa: F811
    league = ten_players
    before = (await league.run("/ladder standings", as_member="p5")).text()
    assert "newcomer" not in before.lower()
    league.emulator.add_member("newcomer")
    await ok(league, "/ladder join skill:1", "newcomer")
    after = (await league.run("/ladder standings", as_member="p5")).text()
    assert "newcomer" in after.lower(), after
