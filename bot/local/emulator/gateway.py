"""The gateway websocket: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME, and dispatches.

Frames are plain JSON text even when the client asks for zlib-stream: discord.py only inflates
binary frames. Every client that identifies gets its own session and all events its intents
and shard cover, so two unsharded bot processes both see every interaction, as on Discord. A session
identified with `shard: [shard_id, num_shards]` gets only the guilds with (guild_id >> 22) % num_shards ==
shard_id, and events without a guild only on shard 0; a session that would hold more than 2,500 guilds is
closed with 4011 (Discord's "Sharding" rules).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .guild import APPLICATION_ID, Guild
from .payloads import (
    APPLICATION_FLAGS,
    JSON,
    current_user_payload,
    guild_create_payload,
    member_payload,
)

log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
MAX_GUILDS_PER_SHARD = 2_500  # a session that would hold more is closed with 4011 Sharding required
RESUMABLE_EVENTS = 1_000  # events kept per session for RESUME


class Op:
    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class Intent:
    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MESSAGES = 1 << 9


class Close:
    UNKNOWN_OPCODE = 4001
    DECODE_ERROR = 4002
    NOT_AUTHENTICATED = 4003
    AUTHENTICATION_FAILED = 4004
    ALREADY_AUTHENTICATED = 4005
    INVALID_SHARD = 4010
    SHARDING_REQUIRED = 4011


class Connection:
    """One websocket; a single writer task keeps frames in the order they were queued."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self._outbox: asyncio.Queue[str | int] = asyncio.Queue()  # frames, or a close code to end with
        self._writer = asyncio.create_task(self._write())

    def send(self, op: int, data: Any) -> None:
        self.send_frame(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    def send_frame(self, frame: str) -> None:
        self._outbox.put_nowait(frame)

    async def close(self, code: int) -> None:
        """Close after the frames already queued have been sent."""
        self._outbox.put_nowait(code)
        await asyncio.wait([self._writer], timeout=5)

    def abandon(self) -> None:
        self._writer.cancel()

    async def _write(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            while True:
                item = await self._outbox.get()
                if isinstance(item, int):
                    await self.socket.close(code=item)
                    return
                await self.socket.send_str(item)


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int] | None
    connection: Connection | None
    sequence: int = 0
    history: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=RESUMABLE_EVENTS))

    def covers(self, guild_id: int | None, intent: int | None) -> bool:
        if intent is not None and not self.intents & intent:
            return False
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0  # DMs and other events without a guild
        return (guild_id >> 22) % shard_count == shard_id

    def dispatch(self, event: str, data: JSON) -> None:
        self.sequence += 1
        frame = json.dumps({"op": Op.DISPATCH, "t": event, "s": self.sequence, "d": data})
        self.history.append((self.sequence, frame))
        if self.connection is not None:
            self.connection.send_frame(frame)


class Gateway:
    def __init__(self, guilds: list[Guild], token: str, on_change: Callable[[], None]) -> None:
        self.guilds = guilds  # the emulator's own list: a guild added later is here too
        self.token = token
        self._on_change = on_change
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()

    @property
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.connection is not None]

    def dispatch(
        self, event: str, data: JSON, *, guild_id: int | None = None, intent: int | None = None
    ) -> list[Session]:
        """Send an event to every session that would get it; returns the connected ones that did."""
        delivered = []
        for session in self.sessions.values():
            if session.covers(guild_id, intent):
                session.dispatch(event, data)
                if session.connection is not None:
                    delivered.append(session)
        return delivered

    def join(self, guild: Guild) -> None:
        """The bot joins `guild`: GUILD_CREATE to the sessions whose shard it falls on."""
        for session in self.sessions.values():
            if session.covers(guild.id, None):
                session.dispatch("GUILD_CREATE", self._guild_create(session, guild))

    def request_reconnect(self) -> None:
        """Op 7: Discord asks clients to reconnect and RESUME (as before a gateway restart)."""
        for connection in self.connections:
            connection.send(Op.RECONNECT, None)

    async def close(self) -> None:
        for connection in list(self.connections):
            await connection.close(code=1001)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        connection = Connection(socket)
        self.connections.add(connection)
        connection.send(Op.HELLO, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        session: Session | None = None
        try:
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    await connection.close(Close.DECODE_ERROR)
                    break
                payload = json.loads(message.data)
                session = await self._receive(connection, session, payload, request)
        finally:
            connection.abandon()
            self.connections.discard(connection)
            if session is not None and session.connection is connection:
                session.connection = None
                self._on_change()
        return socket

    async def _receive(
        self, connection: Connection, session: Session | None, payload: JSON, request: web.Request
    ) -> Session | None:
        op = payload.get("op")
        data: Any = payload.get("d")
        if op == Op.HEARTBEAT:
            connection.send(Op.HEARTBEAT_ACK, None)
        elif session is None and op not in (Op.IDENTIFY, Op.RESUME):
            await connection.close(Close.NOT_AUTHENTICATED)
        elif op == Op.IDENTIFY:
            if session is not None:
                await connection.close(Close.ALREADY_AUTHENTICATED)
            elif not self._token_ok(data.get("token")):
                await connection.close(Close.AUTHENTICATION_FAILED)
            elif not _valid_shard(data.get("shard")):
                log.warning("gateway: IDENTIFY with an invalid shard %r", data.get("shard"))
                await connection.close(Close.INVALID_SHARD)
            elif self._guild_count(data.get("shard")) > MAX_GUILDS_PER_SHARD:
                await connection.close(Close.SHARDING_REQUIRED)
            else:
                return self._identify(connection, data, request)
        elif op == Op.RESUME:
            return self._resume(connection, data)
        elif op == Op.REQUEST_GUILD_MEMBERS and session is not None:
            self._send_member_chunk(session, data)
        elif op in (Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE):
            pass  # accepted and ignored: nobody watches the bot's presence here
        else:
            log.warning("gateway: unknown opcode %s", op)
            await connection.close(Close.UNKNOWN_OPCODE)
        return session

    def _guild_count(self, shard: list[int] | None) -> int:
        if shard is None:
            return len(self.guilds)
        return sum((guild.id >> 22) % shard[1] == shard[0] for guild in self.guilds)

    def _token_ok(self, token: str | None) -> bool:
        return token is not None and token.removeprefix("Bot ") == self.token

    def _identify(self, connection: Connection, data: JSON, request: web.Request) -> Session:
        shard = (data["shard"][0], data["shard"][1]) if data.get("shard") is not None else None
        session = Session(secrets.token_hex(16), int(data.get("intents", 0)), shard, connection)
        self.sessions[session.id] = session
        guilds = [guild for guild in self.guilds if session.covers(guild.id, None)]
        ready: JSON = {
            "v": 10,
            "user": current_user_payload(self.guilds[0].bot_member.user),
            "guilds": [{"id": str(guild.id), "unavailable": True} for guild in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": f"ws://{request.host}{request.path}",
            "application": {"id": str(APPLICATION_ID), "flags": APPLICATION_FLAGS},
            "private_channels": [],
            "presences": [],
            "relationships": [],
            "guild_join_requests": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "_trace": ['["pinleague-emulator",{}]'],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        session.dispatch("READY", ready)
        for guild in guilds:
            session.dispatch("GUILD_CREATE", self._guild_create(session, guild))
        self._on_change()
        return session

    def _guild_create(self, session: Session, guild: Guild) -> JSON:
        return guild_create_payload(guild, all_members=bool(session.intents & Intent.GUILD_MEMBERS))

    def _resume(self, connection: Connection, data: JSON) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or not self._token_ok(data.get("token")):
            connection.send(Op.INVALID_SESSION, False)
            return None
        seq = data.get("seq") or 0
        if session.history and session.history[0][0] > seq + 1:
            # The events since `seq` are no longer kept: the client must IDENTIFY again.
            connection.send(Op.INVALID_SESSION, False)
            return None
        if session.connection is not None:
            self.connections.discard(session.connection)
        session.connection = connection
        for number, frame in session.history:
            if number > seq:
                connection.send_frame(frame)
        session.dispatch("RESUMED", {"_trace": ['["pinleague-emulator",{}]']})
        self._on_change()
        return session

    def _send_member_chunk(self, session: Session, data: JSON) -> None:
        guild = next((g for g in self.guilds if str(g.id) == str(data.get("guild_id"))), None)
        if guild is None or not session.covers(guild.id, None):
            return  # Discord answers nothing for a guild the session does not have
        query = (data.get("query") or "").casefold()
        user_ids = {int(u) for u in data.get("user_ids") or []}
        members = [m for m in guild.members if (m.id in user_ids if user_ids else m.name.casefold().startswith(query))][
            : data.get("limit") or None
        ]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [member_payload(guild, m) for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def _valid_shard(value: Any) -> bool:
    """IDENTIFY's optional `shard`, [shard_id, num_shards]: Discord closes with 4010 Invalid shard unless it is two
    integers with 0 <= shard_id < num_shards."""
    if value is None:
        return True
    if not isinstance(value, list) or len(value) != 2 or not all(type(part) is int for part in value):
        return False
    return 0 <= value[0] < value[1]
