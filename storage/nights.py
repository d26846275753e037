"""The planned nights of a ladder or field season: the dates a commissioner scheduled (COMMON-SEASON-1), so the
league has a calendar, night-day reminders and an `.ics` before any night is opened.

A planned night is week `week` of the season on `play_on`, starting at `starts` (local "HH:MM"); a skipped date
has no week and says why (`skipped_because`). Opening a night stores the format's own night row as before; the
plan stays as it was, so the reminders keep their keys.
"""

from __future__ import annotations

from datetime import date, datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.rules.posts import RollCallAnswer
from storage.models import enum_column, utc_column


class PlannedNight(SQLModel, table=True):
    __tablename__ = "planned_night"
    __table_args__ = (sa.UniqueConstraint("season_id", "week"), sa.UniqueConstraint("season_id", "play_on"))

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    season_id: int = Field(foreign_key="season.id", index=True, ondelete="CASCADE")
    week: int | None  # None: a skipped date, which uses up no week number
    play_on: date
    starts: str = Field(max_length=5)  # local time of day, "19:15"
    skipped_because: str | None = Field(default=None, max_length=200)


class NightRollCallReply(SQLModel, table=True):
    """A player's answer to a planned night's roll call (the night-day post's In / Maybe / Out); the latest answer
    replaces the earlier one, like `storage.posts.RollCallReply` for a match."""

    __tablename__ = "night_roll_call_reply"
    __table_args__ = (sa.UniqueConstraint("planned_night_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    planned_night_id: int = Field(foreign_key="planned_night.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", ondelete="CASCADE")
    answer: RollCallAnswer = enum_column(RollCallAnswer, 8)
    answered_at: datetime = utc_column()
