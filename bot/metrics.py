"""What an operator watches: Prometheus metrics and a readiness check, served on PINLEAGUE_METRICS_PORT.

Each bot keeps its metrics in a registry of its own (a test process starts many bots). The places that decide an
outcome record it: `bot.interactions.answer` (answered, deferred, how fast), `bot.errors.report` (refused or
failed), the post scheduler (posts sent or failed, how late its jobs start).
"""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from aiohttp import web
from apscheduler.events import EVENT_JOB_SUBMITTED, JobSubmissionEvent
from apscheduler.schedulers.base import BaseScheduler
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.startup import StartupError
from storage.db import Database, DatabaseUnavailable

if TYPE_CHECKING:
    from bot.client import LeagueBot

log = logging.getLogger(__name__)

HEALTH_DB_TIMEOUT = 2.0  # seconds the database may take to answer a readiness check
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)  # around Discord's 3 s deadline
LAG_BUCKETS = (0.01, 0.1, 0.5, 1.0, 5.0, 15.0, 60.0, 300.0, 900.0)
_COMPONENT_NAME = re.compile(r"^[a-z][a-z_-]*(?::[a-z][a-z_-]*)*")  # "score:confirm" of "score:confirm:12:1:2"


class Metrics:
    def __init__(self, db: Database) -> None:
        self.registry = CollectorRegistry()
        self.interactions = Counter(
            "pinleague_interactions",
            "Interactions handled, by command (or button family) and outcome: ok, refused or error",
            ["command", "outcome"],
            registry=self.registry,
        )
        self.reply_latency = Histogram(
            "pinleague_reply_latency_seconds",
            "From Discord creating the interaction to the bot's reply being sent",
            ["deferred"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.deferrals = Counter(
            "pinleague_deferrals", "Answers deferred (slow work or a busy bot)", ["command"], registry=self.registry
        )
        self.scheduler_lag = Histogram(
            "pinleague_scheduler_lag_seconds",
            "How long after its scheduled time a job was started",
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        self.posts = Counter(
            "pinleague_posts",
            "Scheduled posts and notices, by result: sent or failed",
            ["result"],
            registry=self.registry,
        )
        pool = db.engine.pool
        in_use = Gauge("pinleague_db_connections_in_use", "Database connections checked out", registry=self.registry)
        in_use.set_function(lambda: getattr(pool, "checkedout", lambda: 0)())
        size = Gauge("pinleague_db_pool_size", "Connections the database pool keeps", registry=self.registry)
        size.set_function(lambda: getattr(pool, "size", lambda: 0)())

    def answered(self, interaction: discord.Interaction, *, deferred: bool) -> None:
        self.interactions.labels(command_name(interaction), "ok").inc()
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        self.reply_latency.labels(str(deferred).lower()).observe(max(age, 0.0))

    def failed(self, interaction: discord.Interaction, *, refused: bool) -> None:
        self.interactions.labels(command_name(interaction), "refused" if refused else "error").inc()

    def deferred(self, interaction: discord.Interaction) -> None:
        self.deferrals.labels(command_name(interaction)).inc()

    def post(self, *, sent: bool) -> None:
        self.posts.labels("sent" if sent else "failed").inc()

    def watch(self, scheduler: BaseScheduler) -> None:
        scheduler.add_listener(self._job_submitted, EVENT_JOB_SUBMITTED)

    def _job_submitted(self, event: JobSubmissionEvent) -> None:
        lag = (datetime.now(UTC) - max(event.scheduled_run_times)).total_seconds()
        self.scheduler_lag.observe(max(lag, 0.0))


def command_name(interaction: discord.Interaction) -> str:
    """A label with few values: the command's name, or a button's family without its ids."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    if interaction.type is discord.InteractionType.modal_submit:
        return "modal"
    custom_id = str(interaction.data.get("custom_id", "")) if interaction.data else ""
    named = _COMPONENT_NAME.match(custom_id) if ":" in custom_id else None  # discord.py's own ids are random hex
    return f"button {named[0]}" if named else "button"


async def readiness(bot: LeagueBot) -> str | None:
    """None when the bot can answer: its gateway is connected and the database answers; else what is wrong."""
    if bot.is_closed() or not bot.is_ready() or not bot.gateway_open():
        return "not connected to Discord's gateway"
    try:
        await asyncio.wait_for(bot.db.ping(), HEALTH_DB_TIMEOUT)
    except DatabaseUnavailable as exc:
        return f"database: {exc}"
    except TimeoutError:
        return f"database: no answer within {HEALTH_DB_TIMEOUT} s"
    return None


class MetricsServer:
    """GET /metrics (Prometheus text format) and GET /healthz (200 "ready" or 503 with the reason)."""

    def __init__(self, bot: LeagueBot) -> None:
        self._bot = bot
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._health)
        self._runner = web.AppRunner(app, access_log=None)
        self.port: int | None = None

    async def start(self, host: str, port: int) -> None:
        """Raises StartupError when the address cannot be listened on (taken, or not this machine's)."""
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            await self._runner.cleanup()
            raise StartupError(
                f"cannot serve metrics on {host}:{port} ({exc.strerror or exc}): choose a free PINLEAGUE_METRICS_PORT "
                "(or stop what uses it), and a PINLEAGUE_METRICS_HOST of this machine"
            ) from exc
        self.port = self._runner.addresses[0][1]  # the port bound, when asked for 0
        log.info("metrics on http://%s:%d/metrics, readiness on /healthz", host, self.port)

    async def close(self) -> None:
        await self._runner.cleanup()

    async def _metrics(self, _request: web.Request) -> web.Response:
        body = generate_latest(self._bot.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, _request: web.Request) -> web.Response:
        problem = await readiness(self._bot)
        if problem is None:
            return web.Response(text="ready")
        return web.Response(text=f"not ready: {problem}", status=503)
