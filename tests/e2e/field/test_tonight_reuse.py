"""A field night's score commands reuse the facts of tonight the command before them left, on SQLite, and never
act on stale ones: a change by another process, audited or not, a refused command and the scores just entered
are all seen by the next command (FIELD-SCORE-1: one score per player and machine)."""

from __future__ import annotations

from sqlalchemy import delete, event
from sqlmodel import col, select

from storage.db import Database
from storage.field import FieldNight, FieldScore
from storage.models import Player
from tests.e2e.field.test_night import field_league  # noqa: F401 (the fixture)
from tests.e2e.harness import RunningBot


async def grouped_night(league: RunningBot) -> None:
    await league.run("/field night open m1:1 m2:2 m3:3 m4:4 m5:5", as_member="alice")
    for name in ("p01", "p02", "p03", "p04"):
        await league.run("/field checkin", as_member=name)
    await league.run("/field groups", as_member="alice")


def tables_read(league: RunningBot) -> list[str]:
    """The statements the bot sends from now on."""
    statements: list[str] = []
    event.listen(league.db.engine.sync_engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    return statements


async def test_a_score_after_a_score_reads_no_check_ins(field_league: RunningBot) -> None:  # noqa: F811
    league = field_league
    await grouped_night(league)
    first = await league.run("/field score machine:1 score:50,000", as_member="p01")
    assert "✅" in first.content, first.content
    statements = tables_read(league)
    second = await league.run("/field score machine:1 score:60,000", as_member="p02")
    assert "✅" in second.content, second.content
    assert not [s for s in statements if "FROM field_checkin" in s], statements
    again = await league.run("/field score machine:1 score:70,000", as_member="p02")  # the score just entered
    assert again.ephemeral and "already has a score" in again.content, again.content


async def test_a_refused_score_leaves_the_next_one_working(field_league: RunningBot) -> None:  # noqa: F811
    league = field_league
    await grouped_night(league)
    refused = await league.run("/field score machine:1 score:45.2.1", as_member="p02")  # the first read of tonight
    assert refused.ephemeral and "is not a score" in refused.content, refused.content
    entered = await league.run("/field score machine:2 score:60,000", as_member="p02")
    assert "✅" in entered.content, entered.content


async def test_a_score_removed_outside_the_bot_can_be_entered_again(field_league: RunningBot) -> None:  # noqa: F811
    """Another process (its own Database) deletes P01's score without an audit entry, as a maintenance script
    might: the bot's next command sees tonight's scores changed and reads them again."""
    league = field_league
    await grouped_night(league)
    assert "✅" in (await league.run("/field score machine:1 score:50,000", as_member="p01")).content
    other = Database(league.db.url.render_as_string(hide_password=False))
    try:
        async with other.writing() as session:
            night = (await session.exec(select(FieldNight))).one()
            p01 = (await session.exec(select(Player).where(Player.display_name == "P01"))).one()
            await session.exec(
                delete(FieldScore).where(col(FieldScore.night_id) == night.id, col(FieldScore.player_id) == p01.id)
            )
    finally:
        await other.dispose()
    entered = await league.run("/field score machine:1 score:55,000", as_member="p01")
    assert "✅" in entered.content, entered.content
