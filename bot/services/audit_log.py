"""Reading the audit trail: every accepted change of a league, filtered by player, team, match or dates."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlmodel import col, or_, select

from bot.clock import Clock
from bot.rules.refusals import InvalidInput
from bot.rules.setup import parse_date
from bot.services.actor import Actor
from bot.services.lookup import find_league, find_team
from bot.services.permissions import require_commissioner
from bot.services.team.match_access import player_id_of
from storage.db import Database
from storage.matches import Match
from storage.models import AuditEntry, League

SHOWN = 20  # lines in a reply; the CSV export has them all


@dataclass(frozen=True)
class AuditFilter:
    member_id: int | None = None
    team_name: str | None = None
    match_id: int | None = None
    since: str | None = None  # YYYY-MM-DD, league time
    until: str | None = None  # inclusive


@dataclass(frozen=True)
class AuditTrail:
    league: League
    entries: list[AuditEntry]  # newest first

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.league.timezone)


class AuditLogService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def trail(self, actor: Actor, league_name: str | None, wanted: AuditFilter) -> AuditTrail:
        since = parse_date(wanted.since, option="since") if wanted.since else None
        until = parse_date(wanted.until, option="until") if wanted.until else None
        if since and until and until < since:
            raise InvalidInput("`until` comes before `since`; swap them.")
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "read the audit trail")
            zone = ZoneInfo(league.timezone)
            # Match-night rows carry no league id of their own; their entries are the league's through the match.
            league_matches = set((await session.exec(select(Match.id).where(Match.league_id == league.id))).all())
            query = select(AuditEntry).where(
                AuditEntry.guild_id == actor.guild_id,
                or_(AuditEntry.league_id == league.id, col(AuditEntry.league_id).is_(None)),
            )
            if since:
                query = query.where(AuditEntry.at >= _start(since, zone))
            if until:
                query = query.where(AuditEntry.at < _start(until + timedelta(days=1), zone))
            entries = [
                entry
                for entry in (await session.exec(query.order_by(col(AuditEntry.id).desc()))).all()
                if entry.league_id is not None or _about_any_match(entry, league_matches)
            ]
            if wanted.member_id is not None:
                player = await player_id_of(session, league, wanted.member_id)
                entries = [e for e in entries if player is not None and _about_player(e, player)]
            if wanted.team_name:
                team = await find_team(session, league, wanted.team_name)
                matches = set(
                    (
                        await session.exec(
                            select(Match.id).where(or_(Match.home_team_id == team.id, Match.away_team_id == team.id))
                        )
                    ).all()
                )
                entries = [e for e in entries if _about_team(e, team.id or 0, matches)]
            if wanted.match_id is not None:
                entries = [e for e in entries if _about_match(e, wanted.match_id)]
            return AuditTrail(league, entries)


def _start(day: date, zone: ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone).astimezone(UTC)


def _snapshots(entry: AuditEntry) -> Iterable[dict[str, Any]]:
    return [snap for snap in (entry.before, entry.after) if snap]


def _about_player(entry: AuditEntry, player_id: int) -> bool:
    if entry.entity == "player" and entry.entity_id == player_id:
        return True
    for snap in _snapshots(entry):
        if snap.get("player_id") == player_id or player_id in (snap.get("players") or []):
            return True
        if any(player_id in game.get("players", []) for game in snap.get("games") or [] if isinstance(game, dict)):
            return True
    return False


def _about_team(entry: AuditEntry, team_id: int, matches: set[int | None]) -> bool:
    if entry.entity == "team" and entry.entity_id == team_id:
        return True
    if entry.entity == "match" and entry.entity_id in matches:
        return True
    keys = ("team_id", "home_team_id", "away_team_id")
    return any(
        any(snap.get(key) == team_id for key in keys) or snap.get("match_id") in matches - {None}
        for snap in _snapshots(entry)
    )


def _about_any_match(entry: AuditEntry, matches: set[int | None]) -> bool:
    return any(snap.get("match_id") in matches - {None} for snap in _snapshots(entry))


def _about_match(entry: AuditEntry, match_id: int) -> bool:
    if entry.entity == "match" and entry.entity_id == match_id:
        return True
    return any(snap.get("match_id") == match_id for snap in _snapshots(entry))
