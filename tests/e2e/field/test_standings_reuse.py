"""/field standings reuses the computed season table while nothing changed, and never shows a stale one: a
score entered through this process, or an audited change made by another process, is in the next table
(FIELD-STAND-1)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import event
from sqlmodel import select

from storage.db import Database
from storage.field import FieldNight, FieldScore
from storage.models import AuditEntry, Player
from tests.e2e.field.test_night import field_league  # noqa: F401 (the fixture)
from tests.e2e.harness import RunningBot


def row_of(table: str, name: str) -> list[str]:
    """A player's name and raw total (in week 1 the two dropped weeks leave every total, and so rank, at 0)."""
    row = next((line.split() for line in table.splitlines() if name in line.split()), [])
    return [row[1], row[3]] if row else []


async def night_with_one_score(league: RunningBot) -> str:
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name in ("p01", "p02", "p03", "p04"):
        await league.run("/field checkin", as_member=name)
    await league.run("/field groups", as_member="alice")
    entered = await league.run("/field score machine:1 score:50,000", as_member="p01")
    assert "✅" in entered.content, entered.content
    return (await league.run("/field standings", as_member="p05")).text()


async def test_unchanged_standings_are_not_recomputed(field_league: RunningBot) -> None:  # noqa: F811
    """The second /field standings with nothing changed in between reads no scores."""
    league = field_league
    first = await night_with_one_score(league)
    assert row_of(first, "P01") == ["P01", "30"]  # alone on the machine: 25 + 5 for the top score
    statements: list[str] = []
    event.listen(league.db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    second = (await league.run("/field standings", as_member="p05")).text()
    assert second == first
    assert not [s for s in statements if "field_score" in s], statements


async def test_a_score_entered_in_this_process_shows_at_once(field_league: RunningBot) -> None:  # noqa: F811
    league = field_league
    assert row_of(await night_with_one_score(league), "P02") == []
    entered = await league.run("/field score machine:1 score:60,000", as_member="p02")
    assert "✅" in entered.content, entered.content
    table = (await league.run("/field standings", as_member="p05")).text()
    assert row_of(table, "P02") == ["P02", "30"] and row_of(table, "P01") == ["P01", "24"]


async def test_an_audited_change_by_another_process_shows_at_once(field_league: RunningBot) -> None:  # noqa: F811
    """Another process (its own Database) enters P03's score with its audit entry, as the services do."""
    league = field_league
    assert row_of(await night_with_one_score(league), "P03") == []
    other = Database(league.db.url.render_as_string(hide_password=False))
    try:
        async with other.writing() as session:
            night = (await session.exec(select(FieldNight))).one()
            p03 = (await session.exec(select(Player).where(Player.display_name == "P03"))).one()
            row = FieldScore(
                night_id=night.id or 0, player_id=p03.id or 0, machine_id=night.machine_ids[0], score=70_000,
                entered_by=1, entered_at=datetime.now(UTC),
            )  # fmt: skip
            session.add(row)
            await session.flush()
            session.add(
                AuditEntry(guild_id=1, actor_id=1, command="/field score", action="create", entity="field_score",
                           entity_id=row.id, at=datetime.now(UTC))
            )  # fmt: skip
    finally:
        await other.dispose()
    table = (await league.run("/field standings", as_member="p05")).text()
    assert row_of(table, "P03") == ["P03", "30"] and row_of(table, "P01") == ["P01", "24"]
