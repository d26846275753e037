"""TEAM-DISC-3 counts a player's slam tilts in this season only: last season's do not bring the flag closer."""

from __future__ import annotations

from datetime import UTC, date, datetime

from sqlmodel import select

from bot.rules.team.scoring import Offence
from storage.matches import GamePenalty, Match
from storage.models import Player, Season
from tests.e2e.team_night import Night, four_each_checked_in


async def a_slam_tilt_last_season(night: Night, member: str) -> None:
    """Written straight into storage: a finished season's match in which the member slam-tilted."""
    async with night.league.db.writing() as session:
        tonight = await session.get(Match, night.match_id)
        assert tonight is not None
        player = (await session.exec(select(Player).where(Player.display_name == member))).one()
        last = Season(league_id=tonight.league_id, number=0, name="Last season")
        session.add(last)
        await session.flush()
        earlier = Match(
            league_id=tonight.league_id, season_id=last.id or 0, week=1, play_on=date(2026, 3, 4),
            home_team_id=tonight.home_team_id, away_team_id=tonight.away_team_id, venue_id=tonight.venue_id,
        )  # fmt: skip
        session.add(earlier)
        await session.flush()
        session.add(
            GamePenalty(
                match_id=earlier.id or 0, round_index=1, game_number=1, offence=Offence.SLAM_TILT,
                player_id=player.id or 0, recorded_by=0, recorded_at=datetime(2026, 3, 4, 23, tzinfo=UTC),
            )
        )  # fmt: skip


async def test_last_seasons_slam_tilts_do_not_count_team_disc_3(night: Night) -> None:
    """TEAM-DISC-3: H1 slam-tilted last season; the first slam tilt this season is 1 of `slam_tilt_flag` (2),
    so no discipline flag, and the history counts 1."""
    await a_slam_tilt_last_season(night, "H1")
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    recorded = await night.run("/match penalty match:MATCH round:1 game:1 offence:slam_tilt member:@h1", "a1")
    assert "slam tilt recorded" in recorded, recorded
    assert [e for e in await night.league.audit() if e.action == "discipline_flag"] == []
    history = await night.run("/admin history member:@h1", "alice")
    assert "Slam tilts this season: 1" in history and "TEAM-DISC-3" not in history, history
