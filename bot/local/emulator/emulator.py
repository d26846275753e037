"""The Emulator: one loopback server (REST + gateway), the emulated guild, and a person's actions."""

from __future__ import annotations

import asyncio
import base64
import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any

from aiohttp import web

from .commands import CommandRegistry, build_invocation, parse_line
from .components import click_data, find_component, modal_submit_data
from .errors import ApiError, EmulatorError
from .gateway import Gateway, Intent
from .guild import APPLICATION_ID, GUILD_CREATED_AT, Channel, Guild, Member, Role, build_guild
from .ids import SnowflakeFactory
from .interactions import ACK_DEADLINE, TOKEN_LIFETIME, InteractionRecord, InteractionType, interaction_payload
from .messages import MessageStore, StoredMessage, attachment_payload, message_payload
from .payloads import JSON, channel_payload, member_payload, role_payload
from .ratelimits import RateLimits
from .records import Attachment, InteractionResult, Output
from .resolve import Resolver
from .server import build_app


class Emulator:
    """A local stand-in for Discord that the real discord.py client connects to.

    Start it, point discord.py at `api_url` / `gateway_url`, start the bot with `token`, then act
    as members: `run('/cmd opt:value', as_member='alice')`, `click(...)`, `submit_modal(...)`.
    Everything the bot sends is recorded in `outputs`. Members act in `guild` unless an action names
    another guild the bot is in (`add_guild`).
    """

    def __init__(self, guild_name: str = "Pinball Club", *, token: str | None = None, guild_seed: int = 2) -> None:
        self.guild = build_guild(guild_name, guild_seed)
        self.guilds = [self.guild]
        self.token = token or _bot_token()
        self.outputs: list[Output] = []
        self.ack_deadline = ACK_DEADLINE
        self.token_lifetime = TOKEN_LIFETIME
        # Seconds without output after the answer before a result is complete, unless every bot that got the
        # interaction reports when it is done with it (`reports_done_from`): a bot in another process.
        self.quiet_window = 0.03
        self._reporting_sessions: set[str] = set()
        self.respect_default_permissions = True
        # Off unless set (at any time): e.g. RateLimits.like_discord(time_scale=0.05).
        self.rate_limits = RateLimits()
        self.command_syncs = 0  # PUTs of commands: a bot that hashes its schema skips unchanged ones
        self._new_id = SnowflakeFactory(worker=1)
        self.messages = MessageStore(self._new_id)
        self.registry = CommandRegistry(self._new_id)
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self._awaited: list[InteractionRecord] = []
        self._announced: set[int] = set()  # message ids sent over the gateway as MESSAGE_CREATE
        self._changed = asyncio.Event()
        self.gateway = Gateway(self.guilds, self.token, self.notify_change)
        self._runner: web.AppRunner | None = None
        self.host = "127.0.0.1"
        self.port = 0

    # --- lifecycle ---

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        """Listen on `host` (loopback by default) and `port` (0: any free port)."""
        self._runner = web.AppRunner(build_app(self), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        self.host, self.port = host, self._runner.addresses[0][1]

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Emulator:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    @property
    def started(self) -> bool:
        return self._runner is not None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def files_url(self) -> str:
        return f"{self.base_url}/attachments"

    async def wait_until_ready(
        self,
        timeout: float = 15.0,  # noqa: ASYNC109 - part of the public API
        *,
        sessions: int = 1,
        commands: bool = True,
    ) -> None:
        """Until `sessions` bots have identified (READY and GUILD_CREATE sent) and, unless
        `commands=False`, commands have been synced at least once (they survive bot restarts)."""

        def ready() -> bool:
            return len(self.gateway.live_sessions) >= sessions and (self.registry.synced or not commands)

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not ready():
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), deadline - loop.time())
            except TimeoutError:
                state = f"{len(self.gateway.live_sessions)} of {sessions} bots connected"
                synced = "synced" if self.registry.synced else "not synced"
                raise EmulatorError(f"bot not ready after {timeout}s ({state}, commands {synced})") from None

    def notify_change(self) -> None:
        self._changed.set()

    def reports_done_from(self, session_id: str) -> None:
        """The bot of gateway session `session_id` runs in this process and calls `interaction_done` once it has
        finished with an interaction (reply, followups and the messages it caused sent). Discord has no such
        signal: it is how a test knows that a result is complete without waiting for a quiet moment. Interactions
        that reach a session not reporting fall back to `quiet_window`."""
        self._reporting_sessions.add(session_id)

    def interaction_done(self, interaction_id: int) -> None:
        if (record := self.interactions.get(interaction_id)) is not None:
            record.report_done()

    def request_reconnect(self) -> None:
        """Ask connected bots to reconnect and RESUME, as Discord does before a gateway restart."""
        self.gateway.request_reconnect()

    # --- the guilds ---

    def add_guild(self, name: str, *, seed: int, created_at: datetime = GUILD_CREATED_AT) -> Guild:
        """Another guild with the bot in it (GUILD_CREATE to the connected sessions of its shard); `seed` and
        `created_at` make its ids (see `build_guild`)."""
        guild = build_guild(name, seed, created_at)
        if any(g.id == guild.id for g in self.guilds):
            raise EmulatorError(f"a guild with id {guild.id} exists already: pick another seed or created_at")
        self.guilds.append(guild)
        self.gateway.join(guild)
        return guild

    def guild_by_id(self, guild_id: int) -> Guild | None:
        return next((g for g in self.guilds if g.id == guild_id), None)

    def channel_by_id(self, channel_id: int) -> tuple[Guild, Channel] | None:
        """The channel with `channel_id` in any of the bot's guilds, with its guild."""
        for guild in self.guilds:
            if (channel := guild.channel_by_id(channel_id)) is not None:
                return guild, channel
        return None

    def _guild_of_channel(self, channel_id: int) -> Guild:
        found = self.channel_by_id(channel_id)
        return found[0] if found else self.guild

    def member(self, name: str) -> Member:
        return self.guild.member(name)

    def channel(self, name: str) -> Channel:
        return self.guild.channel(name)

    def role(self, name: str) -> Role:
        return self.guild.role(name)

    def add_member(
        self, username: str, roles: Iterable[str] = (), admin: bool = False, *, guild: Guild | None = None
    ) -> Member:
        guild = guild or self.guild
        member = guild.add_member(username, [*roles, *(["Admin"] if admin else [])])
        payload = member_payload(guild, member) | {"guild_id": str(guild.id)}
        self.gateway.dispatch("GUILD_MEMBER_ADD", payload, guild_id=guild.id, intent=Intent.GUILD_MEMBERS)
        return member

    def add_role(self, name: str, permissions: int = 0) -> Role:
        role = self.guild.add_role(name, permissions)
        self._dispatch_guild_event("GUILD_ROLE_CREATE", {"guild_id": str(self.guild.id), "role": role_payload(role)})
        return role

    def grant_role(self, member_name: str, role_name: str) -> None:
        member, role = self.member(member_name), self.role(role_name)
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)
            self._member_updated(member)

    def revoke_role(self, member_name: str, role_name: str) -> None:
        member, role = self.member(member_name), self.role(role_name)
        if role.id in member.role_ids:
            member.role_ids.remove(role.id)
            self._member_updated(member)

    def set_channel_permissions(self, channel: str, target: Role | Member, *, allow: int = 0, deny: int = 0) -> None:
        """The channel's overwrite for a role (`role('@everyone')` too) or a member; bots hear CHANNEL_UPDATE."""
        where = self.channel(channel)
        self.guild.set_overwrite(where, target, allow=allow, deny=deny)
        self._dispatch_guild_event("CHANNEL_UPDATE", channel_payload(self.guild, where))

    def _member_updated(self, member: Member) -> None:
        payload = member_payload(self.guild, member) | {"guild_id": str(self.guild.id)}
        self._dispatch_guild_event("GUILD_MEMBER_UPDATE", payload, Intent.GUILD_MEMBERS)

    def _dispatch_guild_event(self, event: str, data: JSON, intent: int = Intent.GUILDS) -> None:
        self.gateway.dispatch(event, data, guild_id=self.guild.id, intent=intent)

    # --- what the bot sent ---

    @property
    def commands(self) -> dict[str, Any]:
        """Synced commands as stored (with ids): {"global": [...], "guilds": {guild_id: [...]}}."""
        return self.registry.as_dict()

    def messages_in(self, channel: str, *, guild: Guild | None = None) -> list[Output]:
        """The channel's messages as everyone sees them now (after edits and deletes)."""
        where = (guild or self.guild).channel(channel)
        bot = self.guild.bot_member.user
        return [m.to_output("message", where.name, bot, m.interaction_id) for m in self.messages.in_channel(where.id)]

    # --- acting as a member ---

    async def run(
        self,
        line: str,
        *,
        as_member: str | Member = "owner",
        channel: str = "general",
        guild: Guild | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109 - seconds until "no response"; part of the public API
    ) -> InteractionResult:
        """Type a slash command, e.g. '/league create name:"Tuesday Night" format:team'."""
        guild = guild or self.guild
        member = self._member(as_member, guild)
        invocation = parse_line(
            line,
            self.registry,
            self._resolver(member, guild),
            respect_default_permissions=self.respect_default_permissions,
        )
        record = self._dispatch(
            InteractionType.APPLICATION_COMMAND, invocation.label, member, guild.channel(channel), invocation.data()
        )
        return await self._settle(record, timeout)

    async def invoke(
        self,
        name_path: Sequence[str],
        options: Mapping[str, Any] | None = None,
        *,
        as_member: str | Member = "owner",
        channel: str = "general",
        guild: Guild | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> InteractionResult:
        """`run` with structure: option values may be text or Member / Role / Channel / Attachment."""
        guild = guild or self.guild
        member = self._member(as_member, guild)
        command, scope = self.registry.find(name_path[0], guild.id)
        invocation = build_invocation(
            command,
            scope,
            list(name_path),
            options or {},
            self._resolver(member, guild),
            respect_default_permissions=self.respect_default_permissions,
        )
        record = self._dispatch(
            InteractionType.APPLICATION_COMMAND, invocation.label, member, guild.channel(channel), invocation.data()
        )
        return await self._settle(record, timeout)

    async def autocomplete(
        self,
        line: str,
        *,
        focused: str | None = None,
        as_member: str | Member = "owner",
        channel: str = "general",
        guild: Guild | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while `focused` (default: the last option typed) is being typed."""
        guild = guild or self.guild
        member = self._member(as_member, guild)
        invocation = parse_line(
            line,
            self.registry,
            self._resolver(member, guild),
            focused=focused,
            autocomplete=True,
            respect_default_permissions=self.respect_default_permissions,
        )
        label = f"autocomplete of {invocation.label}"
        record = self._dispatch(InteractionType.AUTOCOMPLETE, label, member, guild.channel(channel), invocation.data())
        return (await self._settle(record, timeout)).choices or []

    async def click(
        self,
        message: int | Output | InteractionResult,
        custom_id: str,
        *,
        as_member: str | Member | None = None,
        values: Sequence[Any] | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> InteractionResult:
        """Press a button or pick select-menu `values` (option labels/values, or member/role/channel names).

        `as_member` defaults to whoever triggered the interaction that posted the message."""
        stored = self._stored_message(message)
        found = self.channel_by_id(stored.channel_id)
        assert found is not None
        guild, channel = found
        member = self._member(as_member, guild) if as_member is not None else self._message_owner(stored)
        if stored.ephemeral and member is not self._message_owner(stored):
            raise EmulatorError(f"{member.name} cannot see that ephemeral message")
        resolver = self._resolver(member, guild)
        data = click_data(find_component(stored.components, custom_id), values, resolver)
        record = self._dispatch(
            InteractionType.MESSAGE_COMPONENT, f"click {custom_id!r}", member, channel, data, stored
        )
        return await self._settle(record, timeout)

    async def submit_modal(
        self,
        opened: InteractionResult | Output,
        values: Mapping[str, Any],
        *,
        as_member: str | Member | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> InteractionResult:
        """Fill the modal the bot opened (field custom_id → text, values for selects, or for a file upload a file's
        path, an `Attachment`, or a list of them) and submit it."""
        modal = opened.modal
        if modal is None or opened.interaction_id is None:
            raise EmulatorError("the bot did not answer with a modal")
        origin = self.interactions[opened.interaction_id]
        guild = self._guild_of_channel(origin.channel.id)
        member = self._member(as_member, guild) if as_member is not None else origin.member
        data = modal_submit_data(modal, values, self._resolver(member, guild))
        source = self.messages.get(origin.message_id) if origin.message_id is not None else None
        label = f"modal {modal['custom_id']!r}"
        record = self._dispatch(InteractionType.MODAL_SUBMIT, label, member, origin.channel, data, source)
        return await self._settle(record, timeout)

    def redeliver(self, interaction_id: int) -> None:
        """Send an interaction's INTERACTION_CREATE again, as Discord may (a RESUME replays events): the same
        id and token, so only one callback can succeed."""
        record = self.interactions[interaction_id]
        if not self.gateway.dispatch("INTERACTION_CREATE", record.payload, guild_id=record.guild_id):
            raise EmulatorError("no bot is connected to the emulator's gateway")

    def _dispatch(
        self,
        kind: InteractionType,
        label: str,
        member: Member,
        channel: Channel,
        data: JSON,
        message: StoredMessage | None = None,
    ) -> InteractionRecord:
        guild = self._guild_of_channel(channel.id)
        record = InteractionRecord(
            id=self._new_id(),
            type=kind,
            label=label,
            guild_id=guild.id,
            member=member,
            channel=channel,
            dispatched_at=asyncio.get_running_loop().time(),
            message_id=message.id if message else None,
        )
        message_json = self.message_payload(message) if message else None
        payload = record.payload = interaction_payload(record, guild, data, message_json)
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        delivered = self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=guild.id)
        record.delivered_to = [session.id for session in delivered]
        if not delivered:
            raise EmulatorError(f"no bot is connected to the emulator's gateway for {guild.name}'s shard")
        if all(session.id in self._reporting_sessions for session in delivered):
            record.reports_due = len(delivered)
        return record

    async def _settle(self, record: InteractionRecord, answer_within: float) -> InteractionResult:
        self._awaited.append(record)
        try:
            return await record.settle(
                answer_within=answer_within, ack_deadline=self.ack_deadline, quiet_window=self.quiet_window
            )
        finally:
            self._awaited.remove(record)

    def _member(self, who: str | Member, guild: Guild) -> Member:
        return who if isinstance(who, Member) else guild.member(who)

    def _resolver(self, member: Member, guild: Guild) -> Resolver:
        return Resolver(guild, member, self.messages.add_file, self.attachment_payload)

    def _stored_message(self, message: int | Output | InteractionResult) -> StoredMessage:
        message_id = message if isinstance(message, int) else message.message_id
        try:
            return self.messages.get(message_id or 0)
        except ApiError:
            raise EmulatorError(f"no message {message_id} (deleted, or never sent)") from None

    def _message_owner(self, message: StoredMessage) -> Member:
        """Who triggered the interaction that posted the message (the guild owner for plain posts)."""
        record = self.interactions.get(message.interaction_id or 0)
        return record.member if record else self._guild_of_channel(message.channel_id).owner

    # --- used by the REST handlers ---

    def emit(self, output: Output, record: InteractionRecord | None) -> None:
        self.outputs.append(output)
        if record is not None:
            record.add_output(output)

    def awaited_interaction(self, channel_id: int) -> InteractionRecord | None:
        """The interaction a bot-token channel message most likely belongs to.

        Such requests carry no interaction token, so the emulator guesses: the newest interaction
        someone is still awaiting in the same channel, else the newest awaited anywhere."""
        same_channel = [r for r in self._awaited if r.channel.id == channel_id]
        candidates = same_channel or self._awaited
        return candidates[-1] if candidates else None

    def message_payload(self, message: StoredMessage) -> JSON:
        guild = self._guild_of_channel(message.channel_id)
        return message_payload(message, guild_id=guild.id, author=guild.bot_member.user, files_url=self.files_url)

    def attachment_payload(self, attachment: Attachment) -> JSON:
        return attachment_payload(attachment, self.files_url, ephemeral=True)

    def announce_message(self, message: StoredMessage) -> None:
        """MESSAGE_CREATE, or MESSAGE_UPDATE once announced, for messages everyone can see."""
        if message.ephemeral or message.loading:
            return  # a "thinking…" placeholder is announced when it gets its content
        event = "MESSAGE_UPDATE" if message.id in self._announced else "MESSAGE_CREATE"
        self._announced.add(message.id)
        guild = self._guild_of_channel(message.channel_id)
        payload = self.message_payload(message) | {"member": member_payload(guild, guild.bot_member, with_user=False)}
        self.gateway.dispatch(event, payload, guild_id=guild.id, intent=Intent.GUILD_MESSAGES)

    def announce_deletion(self, message: StoredMessage) -> None:
        if message.ephemeral:
            return
        guild_id = self._guild_of_channel(message.channel_id).id
        payload = {"id": str(message.id), "channel_id": str(message.channel_id), "guild_id": str(guild_id)}
        self.gateway.dispatch("MESSAGE_DELETE", payload, guild_id=guild_id, intent=Intent.GUILD_MESSAGES)


def _bot_token() -> str:
    """Shaped like Discord's: base64 of the bot's id, a timestamp part and an HMAC-like part."""
    user_id = base64.urlsafe_b64encode(str(APPLICATION_ID).encode()).decode().rstrip("=")
    return f"{user_id}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"
