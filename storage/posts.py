"""Scheduled posts: each league's posting settings, the claims that make every post go out once, roll-call answers.

The in-memory scheduler is rebuilt from `league_posting` at every start (DESIGN.md §4). A post is claimed by
inserting its (league, kind, period) row before it is sent: the unique key lets exactly one process win
(`INSERT … ON CONFLICT DO NOTHING RETURNING`, on SQLite and PostgreSQL), and the message id is stored after.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.rules.posts import RollCallAnswer
from storage.models import enum_column, json_column, snowflake, utc_column


class LeaguePosting(SQLModel, table=True):
    """Where and when a league's scheduled posts go. `timings` maps a post kind to its `bot.rules.posts.Timing`
    overrides (JSON); kinds not named use their defaults. Times are local to the league's zone."""

    __tablename__ = "league_posting"

    league_id: int = Field(foreign_key="league.id", primary_key=True, ondelete="CASCADE")
    announcements_channel_id: int | None = snowflake(default=None)
    scores_channel_id: int | None = snowflake(default=None)
    commissioners_channel_id: int | None = snowflake(default=None)
    timings: dict[str, Any] = json_column(default_factory=dict)
    grace_minutes: int = 120
    paused: bool = False
    resumed_at: datetime | None = utc_column(default=None)


class PostClaim(SQLModel, table=True):
    """One post, claimed before it was sent. `message_id` is empty until the send succeeded; `digest` is what
    the message showed last, so a living post (the bracket) is edited only when its content changed."""

    __tablename__ = "post_claim"
    __table_args__ = (sa.UniqueConstraint("league_id", "kind", "period"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True, ondelete="CASCADE")
    kind: str = Field(max_length=40)
    period: str = Field(max_length=80)
    claimed_at: datetime = utc_column()
    claimed_by: str = Field(max_length=80)  # which process: host and pid
    channel_id: int = snowflake()
    message_id: int | None = snowflake(default=None)
    sent_at: datetime | None = utc_column(default=None)
    digest: str | None = Field(default=None, max_length=64)
    resent: int = 0


class RollCallReply(SQLModel, table=True):
    """A player's answer to a match's roll call; the latest answer replaces the earlier one."""

    __tablename__ = "roll_call_reply"
    __table_args__ = (sa.UniqueConstraint("match_id", "player_id"),)

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True, ondelete="CASCADE")
    player_id: int = Field(foreign_key="player.id", ondelete="CASCADE")
    answer: RollCallAnswer = enum_column(RollCallAnswer, 8)
    answered_at: datetime = utc_column()
