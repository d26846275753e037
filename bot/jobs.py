"""The scheduler: APScheduler jobs that send the posts `bot.rules.posts` says are due, each exactly once.

Thin on purpose. Jobs are rebuilt from our own tables at every start (`replace_existing=True`): one cron job per
league and kind at the kind's local time, in the league's IANA zone, plus a catch-up tick every minute and one
at start. Every job only asks the service what is due now (by the injected clock) and sends it; the claim table
decides who sends what, so a restart or a second process never posts twice (DESIGN.md §4). With shards over
several processes, each process's jobs cover only the guilds on its shards.
`claim_and_send` is the same path for one-off notices from any service; the commissioner notices read from the
audit trail (`bot.services.notices`) go out on the same tick.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from bot.interactions import quiet
from bot.render.posts import Outgoing, render_post
from bot.rules import posts as rules
from bot.services.notices import KIND as NOTICE
from bot.services.notices import NoticeService
from bot.services.posts import DuePost, Posting, PostService

if TYPE_CHECKING:
    from bot.client import LeagueBot

log = logging.getLogger(__name__)

CATCH_UP_EVERY = 60  # seconds
MISFIRE_GRACE = 15 * 60  # seconds the catch-up job may start late (a busy loop, a suspended laptop)
PINGS = discord.AllowedMentions(everyone=False, roles=False, users=True)
REFUSED = "post_refused"  # the notice telling the commissioners, once per post, that Discord refused it
NOTICES_WAIT_FOR_REPLIES = 0.25  # seconds a look for notices lets the replies being worked on go first


class PostScheduler:
    def __init__(self, bot: LeagueBot, service: PostService) -> None:
        self.bot = bot
        self.service = service
        self.notices = NoticeService(service.db, service.clock)
        self.scheduler = AsyncIOScheduler(
            timezone="UTC", job_defaults={"coalesce": True, "misfire_grace_time": MISFIRE_GRACE, "max_instances": 1}
        )
        self._ticking = asyncio.Lock()
        self._notices_seen_at = -1  # `notices.written()` when notices were last looked for after a command
        # Sharded over processes, each sends the posts of the guilds on its own shards (the ones it answers
        # commands in); the claim still keeps a post single while a restarting process overlaps its successor.
        self.serves = bot.settings.serves_guild

    async def start(self) -> None:
        """Called from `setup_hook` (APScheduler needs the running loop)."""
        self.scheduler.add_job(
            self.catch_up, IntervalTrigger(seconds=CATCH_UP_EVERY), id="posts:catch-up", replace_existing=True
        )
        await self.rebuild()
        self.scheduler.start()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    async def rebuild(self, league_id: int | None = None) -> None:
        """(Re)create the cron jobs of every league (or one) of this process's guilds from `league_posting`."""
        for posting in await self.service.postings():
            if (league_id is None or posting.league.id == league_id) and self.serves(posting.league.guild_id):
                self._schedule(posting)

    def _schedule(self, posting: Posting) -> None:
        settings = posting.settings()
        for kind in posting.kinds():
            job_id = f"posts:{posting.league.id}:{kind.name}"
            timing = settings.timing(kind)
            if not timing.enabled or timing.at is None or settings.paused:
                if self.scheduler.get_job(job_id):
                    self.scheduler.remove_job(job_id)
                continue
            trigger = CronTrigger(hour=timing.at.hour, minute=timing.at.minute, timezone=posting.zone)
            self.scheduler.add_job(
                self.catch_up,
                trigger,
                args=[posting.league.id],
                id=job_id,
                replace_existing=True,
                misfire_grace_time=max(60, posting.row.grace_minutes * 60),  # the league's own grace
            )

    async def catch_up(self, league_id: int | None = None) -> int:
        """Send every post due now (within the grace) that nobody has claimed; update living posts. Returns how
        many this process sent."""
        async with self._ticking:
            sent = 0
            try:
                for due in await self.service.due(league_id, serves=self.serves):
                    sent += await self._claim_and_send_due(due)
                await self._refresh_living()
            except Exception:
                log.exception("scheduled posts: the tick failed; the next one tries again")
            try:
                sent += await self._send_notices()
            except Exception:
                log.exception("commissioner notices: the tick failed; the next one tries again")
            return sent

    async def send_notices(self) -> int:
        """Right after a command: the notices it caused, without waiting for the next tick. Only a commit that
        wrote a notable audit entry can have caused one: after the others (every read and most writes) there is
        nothing to look for. Other processes' notices come with the tick. The members waiting for replies go
        first; one look then covers every command that committed meanwhile."""
        if self.notices.written() == self._notices_seen_at:
            return 0
        await quiet(NOTICES_WAIT_FOR_REPLIES)
        written = self.notices.written()
        if written == self._notices_seen_at:  # another command's look, after this one's commit, found them
            return 0
        self._notices_seen_at = written  # read before looking: an entry written meanwhile is looked for next time
        async with self._ticking:
            try:
                return await self._send_notices()
            except Exception:
                log.exception("commissioner notices: sending failed; the next tick tries again")
                return 0

    async def _send_notices(self) -> int:
        sent = 0
        for delivery in await self.notices.pending(serves=self.serves):
            claim_id = await self.service.claim(delivery.league_id, NOTICE, delivery.period, delivery.channel_id)
            if claim_id is not None:
                outgoing = Outgoing(delivery.text, mentions=list(delivery.mentions))
                label = f"notice {delivery.period}"
                sent += await self._send(claim_id, delivery.league_id, delivery.channel_id, outgoing, label=label)
        return sent

    async def _claim_and_send_due(self, due: DuePost) -> int:
        claim_id = await self.service.claim(due.league_id, due.post.kind, due.post.period, due.channel_id)
        if claim_id is None:
            return 0  # another process (or an earlier tick) has it
        try:
            outgoing = render_post(await self.service.content(due.league_id, due.post))
        except Exception:
            await self.service.release(claim_id)
            raise
        label = f"{due.post.kind} {due.post.period}"
        return await self._send(claim_id, due.league_id, due.channel_id, outgoing, label=label)

    async def resend(self, due: DuePost) -> discord.Message | None:
        """Send a post again for `/posts resend`; the claim (made by the service) gets the new message id."""
        assert due.claim_id is not None
        outgoing = render_post(await self.service.content(due.league_id, due.post))
        message = await self._deliver(due.channel_id, outgoing)
        await self.service.sent(due.claim_id, message.id, digest=outgoing.digest())
        return message

    async def claim_and_send(
        self, league_id: int, kind: str, period: str, channel: rules.Channel, outgoing: Outgoing
    ) -> bool:
        """A one-off notice through the same exactly-once path: claimed under (league, kind, period), sent to the
        league's `channel`, its message id stored. False when it was sent already or the channel is not named."""
        posting = next((p for p in await self.service.postings() if p.league.id == league_id), None)
        channel_id = posting.channel_id(channel) if posting else None
        if channel_id is None:
            log.info("notice %s %s of league %s: no %s channel named", kind, period, league_id, channel.value)
            return False
        claim_id = await self.service.claim(league_id, kind, period, channel_id)
        if claim_id is None:
            return False
        return await self._send(claim_id, league_id, channel_id, outgoing, label=f"{kind} {period}") == 1

    async def _send(self, claim_id: int, league_id: int, channel_id: int, outgoing: Outgoing, *, label: str) -> int:
        try:
            message = await self._deliver(channel_id, outgoing)
        except discord.HTTPException as error:
            log.warning("could not send %s to channel %s; it will be retried", label, channel_id, exc_info=True)
            self.bot.metrics.post(sent=False)
            await self.service.release(claim_id)
            if isinstance(error, discord.Forbidden) and not label.startswith(REFUSED):
                why = (
                    f"⚠️ Discord refused the {label} post in <#{channel_id}>: the bot may not send there. Give its role "
                    "View Channel, Send Messages and Attach Files in that channel; it tries again within the grace "
                    "period, and `/posts resend` sends it later."
                )
                await self.claim_and_send(
                    league_id, REFUSED, f"{channel_id} {label}"[:80], rules.Channel.COMMISSIONERS, Outgoing(why)
                )
            return 0
        self.bot.metrics.post(sent=True)
        await self.service.sent(claim_id, message.id, digest=outgoing.digest())
        return 1

    async def _deliver(self, channel_id: int, outgoing: Outgoing) -> discord.Message:
        channel = self.bot.get_partial_messageable(channel_id)
        view = outgoing.view()
        message = await channel.send(
            outgoing.content or None,
            embeds=outgoing.embeds,
            files=outgoing.files(),
            view=view or discord.utils.MISSING,
            allowed_mentions=PINGS if outgoing.mentions else discord.AllowedMentions.none(),
        )
        if view is not None:
            view.stop()  # the buttons are answered by the persistent DynamicItems in cogs/posts.py
        return message

    async def _refresh_living(self) -> None:
        """The bracket post is edited in place as playoff results arrive."""
        for claim in await self.service.living(rules.BRACKET.name, serves=self.serves):
            content = await self.service.content_for(claim.league_id, claim.kind, claim.period)
            if content is None or claim.message_id is None:
                continue
            outgoing = render_post(content)
            digest = outgoing.digest()
            if digest == claim.digest:
                continue
            message = self.bot.get_partial_messageable(claim.channel_id).get_partial_message(claim.message_id)
            try:
                await message.edit(embeds=outgoing.embeds, attachments=outgoing.files())
            except discord.HTTPException:
                log.warning("could not update the bracket post %s", claim.message_id, exc_info=True)
                continue
            await self.service.sent(claim.id or 0, claim.message_id, digest=digest)
