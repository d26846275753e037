"""The planned nights of a ladder or field season: the dates a commissioner scheduled (COMMON-SEASON-1), so the
league has a calendar, night-day reminders and an `.ics` before any night is opened.

A planned night is week `week` of the season on `play_on`, starting at `starts` (local "HH:MM"); a skipped date
has no week and says why (`skipped_because`). Opening a night stores the format's own night row as before; the
plan stays as it was, so the reminders keep their keys.
"""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
from sqlmodel import Field, SQLModel


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
