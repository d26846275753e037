"""Commissioner notices (COMMON-NOTIFY-1): the audit trail is the outbox.

Every tick reads the recent notable audit entries (`bot.rules.notices`) of the leagues that named a
commissioners channel, and returns the deliveries nobody has claimed yet: the notice to the commissioners
channel, and for an override a message mentioning the affected captains and players in the scores channel
(issue 7 item 4). The scheduler claims each under (league, "notice", period) in `post_claim` before sending, so
a restart or a second process never repeats one.

A league without a commissioners channel gets nothing and nothing is claimed: naming the channel later still
delivers the notices of the last grace period (the league's posting grace, at least `MIN_GRACE`), never older
ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import notices as rules
from bot.services.team import match_facts
from bot.services.team.match_access import captains
from storage import audit_rows
from storage.db import Database
from storage.matches import Match
from storage.models import AuditEntry, League, Machine, Player, Team
from storage.posts import LeaguePosting, PostClaim

KIND = "notice"
AFFECTED = "-affected"  # the period suffix of an override's mention of the affected members
MIN_GRACE = timedelta(minutes=15)  # a league's posting grace may be 0; a notice still survives a short restart


@dataclass(frozen=True)
class Delivery:
    league_id: int
    period: str
    channel_id: int
    text: str
    mentions: tuple[int, ...] = ()  # Discord users pinged: the affected members of an override


class NoticeService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    @staticmethod
    def written() -> int:
        """A version of this process's notable audit entries: it changes when a commit writes one."""
        return audit_rows.commits_writing(rules.NOTABLE)

    async def pending(self, *, serves: Callable[[int], bool]) -> list[Delivery]:
        """The notices (and override mentions) due now that nobody has claimed, oldest first, in the guilds this
        process `serves` (its shards')."""
        now = self.clock.now()
        async with self.db.reading() as session:
            rows = await session.exec(
                select(LeaguePosting, League.guild_id)
                .join(League, col(League.id) == LeaguePosting.league_id)
                .where(col(LeaguePosting.commissioners_channel_id).is_not(None))
            )
            postings = {row.league_id: row for row, guild_id in rows.all() if serves(guild_id)}
            if not postings:
                return []
            grace = {league: max(MIN_GRACE, timedelta(minutes=row.grace_minutes)) for league, row in postings.items()}
            entries = (
                await session.exec(
                    select(AuditEntry)
                    .where(col(AuditEntry.action).in_(list(rules.NOTABLE)), AuditEntry.at >= now - max(grace.values()))
                    .order_by(col(AuditEntry.id))
                )
            ).all()
            claimed = await _claimed(session, set(postings))  # entry ids are unique: the period names the entry
            unsent = [e for e in entries if not _periods(e.id or 0, e.action) <= claimed]
            facts = [fact for entry in unsent if (fact := await _fact(session, entry)) is not None]
            deliveries: list[Delivery] = []
            for notice in rules.notices(facts, now=now, grace=grace):
                posting = postings[notice.league_id]
                names = await _names(session, notice)
                if notice.period not in claimed:
                    channel = int(posting.commissioners_channel_id or 0)
                    text = rules.notice_text(notice, names)
                    deliveries.append(Delivery(notice.league_id, notice.period, channel, text))
                affected = rules.affected_text(notice, names)
                mention = f"{notice.period}{AFFECTED}"
                if affected and posting.scores_channel_id and mention not in claimed:
                    channel = int(posting.scores_channel_id)
                    deliveries.append(Delivery(notice.league_id, mention, channel, affected, names.affected))
            return deliveries


async def _fact(session: AsyncSession, entry: AuditEntry) -> rules.AuditFact | None:
    """The entry as plain data, with its league: match rows (scores, lineups, challenges…) carry only their
    match, whose league must be in the entry's guild."""
    league_id = entry.league_id
    if league_id is None:
        match_id = _match_id(entry.entity, entry.entity_id, entry.after or entry.before or {})
        match = await session.get(Match, match_id) if match_id is not None else None
        league = await session.get(League, match.league_id) if match is not None else None
        if league is None or league.guild_id != entry.guild_id:
            return None
        league_id = league.id
    return rules.AuditFact(
        id=entry.id or 0, league_id=league_id or 0, actor_id=entry.actor_id, command=entry.command,
        action=entry.action, entity=entry.entity, entity_id=entry.entity_id, at=entry.at, before=entry.before,
        after=entry.after, reason=entry.reason,
    )  # fmt: skip


async def _claimed(session: AsyncSession, leagues: set[int]) -> set[str]:
    rows = await session.exec(
        select(PostClaim.period).where(PostClaim.kind == KIND, col(PostClaim.league_id).in_(leagues))
    )
    return set(rows.all())


def _periods(entry_id: int, action: str) -> set[str]:
    """The claims an entry makes when it is told: the notice, and for an override the affected members' mention."""
    told = rules.Notice.period_of(entry_id)
    return {told, f"{told}{AFFECTED}"} if action == "override" else {told}


async def _names(session: AsyncSession, notice: rules.Notice) -> rules.Names:
    """What the entry is about, and for an override of a match's facts the Discord ids of the captains of the
    match on its date and of the player whose row changed."""
    entry = notice.entry
    snapshot = entry.after or entry.before or {}
    match_id = _match_id(entry.entity, entry.entity_id, snapshot)
    match = await session.get(Match, match_id) if match_id is not None else None
    league = await session.get(League, notice.league_id)
    if match is None or league is None:
        return rules.Names(await _subject(session, entry.entity, snapshot, entry.entity_id))
    context = await match_facts.context_for(session, league, match)
    subject = f"{context.label} (match #{match_id}, {match.play_on:%a %-d %b})"
    if entry.action != "override":
        return rules.Names(subject)
    players = {p for ids in (await captains(session, context)).values() for p in ids}
    if isinstance(snapshot.get("player_id"), int):
        players.add(snapshot["player_id"])
    return rules.Names(subject, tuple(await _discord_ids(session, players)))


async def _subject(session: AsyncSession, entity: str, snapshot: Mapping[str, Any], row_id: int | None) -> str | None:
    player_id = row_id if entity == "player" else snapshot.get("player_id")
    if isinstance(player_id, int) and (player := await session.get(Player, player_id)) is not None:
        return player.display_name
    team_id = row_id if entity == "team" else snapshot.get("team_id")
    if isinstance(team_id, int) and (team := await session.get(Team, team_id)) is not None:
        return team.name
    machine_id = row_id if entity == "machine" else snapshot.get("machine_id")
    if isinstance(machine_id, int) and (machine := await session.get(Machine, machine_id)) is not None:
        return machine.title
    if entity in ("ladder_night", "field_night") and "week" in snapshot:
        return f"week {snapshot['week']}"
    return None


def _match_id(entity: str, row_id: int | None, snapshot: Mapping[str, Any]) -> int | None:
    value = row_id if entity == "match" else snapshot.get("match_id")
    return value if isinstance(value, int) else None


async def _discord_ids(session: AsyncSession, player_ids: set[int]) -> list[int]:
    if not player_ids:
        return []
    rows = await session.exec(select(Player.discord_user_id).where(col(Player.id).in_(player_ids)))
    return sorted(int(user) for user in rows.all() if user is not None)
