"""The REST half of the emulator: Discord's HTTP API under /api/v10, plus uploaded files."""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .errors import ApiError
from .guild import APPLICATION_ID, Channel, Guild, Permission
from .interactions import CallbackType, InteractionRecord
from .limits import validate_choices, validate_modal
from .messages import MessageFlag, RequestBody, StoredMessage
from .payloads import (
    ATTACHMENT_SIZE_LIMIT,
    JSON,
    application_payload,
    channel_payload,
    current_user_payload,
    guild_payload,
    member_payload,
)
from .ratelimits import RateLimiter
from .records import Output, OutputKind

if TYPE_CHECKING:
    from .emulator import Emulator

log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
GUILDS_PER_RECOMMENDED_SHARD = 1000
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only if Content-Type is exactly application/json;
    # web.json_response would append "; charset=utf-8".
    return web.Response(status=status, body=json.dumps(data).encode(), content_type="application/json")


def no_content() -> web.Response:
    return web.Response(status=204)


def build_app(emu: Emulator) -> web.Application:
    api = RestApi(emu)
    # Room past Discord's limit, so a body of files over it is read and gets Discord's 413 (RequestBody.read)
    # rather than aiohttp's plain-text one.
    app = web.Application(middlewares=[api.errors_and_auth], client_max_size=2 * ATTACHMENT_SIZE_LIMIT)
    routes = [
        ("GET", "/users/@me", api.get_current_user),
        ("GET", "/oauth2/applications/@me", api.get_application),
        ("GET", "/gateway", api.get_gateway),
        ("GET", "/gateway/bot", api.get_gateway_bot),
        ("GET", "/applications/{app}/commands", api.get_commands),
        ("PUT", "/applications/{app}/commands", api.put_commands),
        ("GET", "/applications/{app}/guilds/{guild}/commands", api.get_commands),
        ("PUT", "/applications/{app}/guilds/{guild}/commands", api.put_commands),
        ("POST", "/interactions/{interaction}/{token}/callback", api.post_callback),
        ("POST", "/webhooks/{app}/{token}", api.post_followup),
        ("GET", "/webhooks/{app}/{token}/messages/{message}", api.get_webhook_message),
        ("PATCH", "/webhooks/{app}/{token}/messages/{message}", api.edit_webhook_message),
        ("DELETE", "/webhooks/{app}/{token}/messages/{message}", api.delete_webhook_message),
        ("GET", "/channels/{channel}", api.get_channel),
        ("POST", "/channels/{channel}/messages", api.post_channel_message),
        ("GET", "/channels/{channel}/messages/{message}", api.get_channel_message),
        ("PATCH", "/channels/{channel}/messages/{message}", api.edit_channel_message),
        ("DELETE", "/channels/{channel}/messages/{message}", api.delete_channel_message),
        ("GET", "/guilds/{guild}", api.get_guild),
        ("GET", "/guilds/{guild}/members/{user}", api.get_member),
    ]
    for method, path, handler in routes:
        app.router.add_route(method, API_PREFIX + path, handler)
    app.router.add_route("*", API_PREFIX + "/{tail:.*}", api.unsupported)
    app.router.add_get("/attachments/{attachment}/{filename}", api.get_file)
    app.router.add_get("/gateway", emu.gateway.handle)
    return app


class RestApi:
    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.rate_limiter = RateLimiter()

    @web.middleware
    async def errors_and_auth(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        # Interaction callbacks and webhooks authenticate by their token in the path, like Discord's.
        needs_bot_token = request.path.startswith(API_PREFIX) and not request.path.startswith(
            (API_PREFIX + "/interactions/", API_PREFIX + "/webhooks/")
        )
        if needs_bot_token and request.headers.get("Authorization") != f"Bot {self.emu.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        resource = request.match_info.route.resource
        route = (resource.canonical if resource else request.path).removeprefix(API_PREFIX)
        allowed = self.rate_limiter.check(self.emu.rate_limits, request, route)
        if isinstance(allowed, web.Response):
            log.info("%s %s → 429", request.method, request.path)
            return allowed
        response = await self._answer(request, handler)
        response.headers.update(allowed)
        return response

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except ApiError as error:
            log.info("%s %s → %s", request.method, request.path, error)
            return json_response(error.body(), status=error.status)
        except web.HTTPException:
            raise
        except Exception as error:
            # Never a 500: discord.py retries those for ~25 s, hiding the problem behind slowness.
            log.exception("emulator could not handle %s %s", request.method, request.path)
            return json_response(
                {"message": f"emulator: cannot handle this request ({error!r})", "code": 0}, status=400
            )

    # --- identity and gateway discovery ---

    async def get_current_user(self, request: web.Request) -> web.Response:
        return json_response(current_user_payload(self.emu.guild.bot_member.user))

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(application_payload(self.emu.guild.owner.user))

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.emu.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        # Discord recommends a shard per 1,000 guilds (a shard may hold at most 2,500).
        shards = max(1, math.ceil(len(self.emu.guilds) / GUILDS_PER_RECOMMENDED_SHARD))
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return json_response({"url": self.emu.gateway_url, "shards": shards, "session_start_limit": limit})

    # --- application commands ---

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.emu.registry.in_scope(self._command_scope(request)))

    async def put_commands(self, request: web.Request) -> web.Response:
        stored = self.emu.registry.replace(self._command_scope(request), await request.json())
        self.emu.command_syncs += 1
        self.emu.notify_change()
        return json_response(stored)

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app"]) != APPLICATION_ID:
            raise ApiError(403, 50001, "Missing Access")
        guild = request.match_info.get("guild")
        if guild is not None and self.emu.guild_by_id(int(guild)) is None:
            raise ApiError(403, 50001, "Missing Access")
        return None if guild is None else int(guild)

    # --- interaction callbacks ---

    async def post_callback(self, request: web.Request) -> web.Response:
        record = self.emu.interactions.get(int(request.match_info["interaction"]))
        if record is None or record.token != request.match_info["token"]:
            raise ApiError.unknown_interaction()
        body = await RequestBody.read(request)
        now = asyncio.get_running_loop().time()
        callback = record.check_callback(body.fields.get("type"), now, self.emu.ack_deadline)
        # Effects first: a body Discord refuses (400) leaves the interaction unacknowledged.
        message_body = RequestBody(body.fields.get("data") or {}, body.files)
        message, output = self._callback_effect(record, callback, message_body)
        record.acknowledge(callback, now)
        self.emu.emit(output, record)
        if message is not None:
            self.emu.announce_message(message)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return no_content()
        interaction: JSON = {"id": str(record.id), "type": record.type.value}
        resource: JSON = {"type": callback.value}
        if message is not None:
            interaction |= {
                "response_message_id": str(message.id),
                "response_message_loading": message.loading,
                "response_message_ephemeral": message.ephemeral,
            }
            resource["message"] = self.emu.message_payload(message)
        return json_response({"interaction": interaction, "resource": resource})

    def _callback_effect(
        self, record: InteractionRecord, callback: CallbackType, body: RequestBody
    ) -> tuple[StoredMessage | None, Output]:
        """What a callback does to the channel: the message it creates or edits, and its Output."""
        bot = self.emu.guild.bot_member.user
        channel = record.channel
        if callback is CallbackType.CHANNEL_MESSAGE:
            message = self._create(record, channel, body)
            record.original_message_id = message.id
            return message, message.to_output("response", channel.name, bot, record.id)
        if callback is CallbackType.DEFERRED_CHANNEL_MESSAGE:
            ephemeral = int(body.fields.get("flags") or 0) & MessageFlag.EPHEMERAL
            message = self._create(record, channel, RequestBody(), forced_flags=MessageFlag.LOADING | ephemeral)
            record.original_message_id = message.id
            return message, message.to_output("deferred", channel.name, bot, record.id)
        if (
            callback in (CallbackType.DEFERRED_UPDATE_MESSAGE, CallbackType.UPDATE_MESSAGE)
            and record.message_id is None
        ):
            # A modal submitted from a slash command has no message to update.
            raise ApiError.invalid_form("type", "This interaction has no message to update")
        if callback is CallbackType.DEFERRED_UPDATE_MESSAGE:
            # @original now names the message whose component was used.
            record.original_message_id = record.message_id
            used = self.emu.messages.get(record.message_id or 0)
            return None, Output("deferred", record.id, channel.name, channel.id, used.id, used.ephemeral, bot)
        if callback is CallbackType.UPDATE_MESSAGE:
            message = self.emu.messages.edit(self.emu.messages.get(record.message_id or 0), body)
            record.original_message_id = message.id
            return message, message.to_output("edit", channel.name, bot, record.id)
        if callback is CallbackType.AUTOCOMPLETE_RESULT:
            choices = body.fields.get("choices") or []
            validate_choices(choices)
            return None, Output("autocomplete", record.id, channel.name, channel.id, None, True, bot, choices=choices)
        for key in ("custom_id", "title", "components"):
            if not body.fields.get(key):
                raise ApiError.invalid_form(f"data.{key}", "This field is required", "BASE_TYPE_REQUIRED")
        validate_modal(body.fields)
        return None, Output("modal", record.id, channel.name, channel.id, None, True, bot, modal=body.fields)

    # --- followups and @original (the interaction's webhook) ---

    async def post_followup(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        body = await RequestBody.read(request)
        original = self._original(record)
        if original is not None and original.loading:
            # The first followup after a "thinking…" deferral resolves it, keeping its ephemerality.
            message = self.emu.messages.edit(original, body)
        else:
            message = self._create(record, record.channel, body)
        self.emu.announce_message(message)
        self.emu.emit(self._output(message, "followup", record), record)
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(self.emu.message_payload(message))
        return no_content()

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        message = self._webhook_message(request, self._webhook_record(request))
        return json_response(self.emu.message_payload(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        message = self._webhook_message(request, record)
        message = self.emu.messages.edit(message, await RequestBody.read(request))
        self.emu.emit(self._output(message, "edit", record), record)
        self.emu.announce_message(message)
        return json_response(self.emu.message_payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        message = self._webhook_message(request, record)
        self.emu.messages.delete(message)
        self.emu.emit(self._output(message, "message_delete", record), record)
        self.emu.announce_deletion(message)
        return no_content()

    def _webhook_record(self, request: web.Request) -> InteractionRecord:
        record = self.emu.interactions_by_token.get(request.match_info["token"])
        if record is None or int(request.match_info["app"]) != APPLICATION_ID:
            raise ApiError.unknown_webhook()
        record.check_token_alive(asyncio.get_running_loop().time(), self.emu.token_lifetime)
        return record

    def _webhook_message(self, request: web.Request, record: InteractionRecord) -> StoredMessage:
        wanted = request.match_info["message"]
        if wanted == "@original":
            original = self._original(record)
            if original is None:
                raise ApiError.unknown_message()
            return original
        message = self.emu.messages.get(int(wanted))
        # A webhook token reaches the messages of its own interaction (and the one it was used on).
        if message.interaction_id != record.id and message.id != record.message_id:
            raise ApiError.unknown_message()
        return message

    def _original(self, record: InteractionRecord) -> StoredMessage | None:
        """The interaction's first message, unless it was never sent or has been deleted."""
        return None if record.original_message_id is None else self.emu.messages.find(record.original_message_id)

    # --- channels, messages and the guild (bot token) ---

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        return json_response(channel_payload(self._guild_of(channel), channel))

    async def post_channel_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = await RequestBody.read(request)
        self._check_bot_may(channel, Permission.SEND_MESSAGES | (Permission.ATTACH_FILES if body.files else 0))
        if int(body.fields.get("flags") or 0) & MessageFlag.EPHEMERAL:
            # Only interaction responses and followups can be ephemeral.
            raise ApiError.invalid_form("flags", "Invalid flags: EPHEMERAL is only for interaction messages")
        message = self.emu.messages.create(channel.id, body)
        record = self.emu.awaited_interaction(channel.id)
        self.emu.emit(self._output(message, "message", record), record)
        self.emu.announce_message(message)
        return json_response(self.emu.message_payload(message))

    async def get_channel_message(self, request: web.Request) -> web.Response:
        return json_response(self.emu.message_payload(self._channel_message(request)))

    async def edit_channel_message(self, request: web.Request) -> web.Response:
        message = self.emu.messages.edit(self._channel_message(request), await RequestBody.read(request))
        record = self.emu.awaited_interaction(message.channel_id)
        self.emu.emit(self._output(message, "message_edit", record), record)
        self.emu.announce_message(message)
        return json_response(self.emu.message_payload(message))

    async def delete_channel_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        self.emu.messages.delete(message)
        record = self.emu.awaited_interaction(message.channel_id)
        self.emu.emit(self._output(message, "message_delete", record), record)
        self.emu.announce_deletion(message)
        return no_content()

    async def get_guild(self, request: web.Request) -> web.Response:
        return json_response(guild_payload(self._guild(request)))

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        member = guild.member_by_id(int(request.match_info["user"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(member_payload(guild, member))

    async def get_file(self, request: web.Request) -> web.Response:
        attachment = self.emu.messages.files.get(int(request.match_info["attachment"]))
        if attachment is None or attachment.filename != request.match_info["filename"]:
            raise web.HTTPNotFound()
        return web.Response(body=attachment.data, content_type=attachment.content_type)

    async def unsupported(self, request: web.Request) -> web.Response:
        log.warning("emulator: unsupported %s %s", request.method, request.path)
        message = f"emulator: unsupported {request.method} {request.path.removeprefix(API_PREFIX)}"
        return json_response({"code": 0, "message": message}, status=404)

    def _channel(self, request: web.Request) -> Channel:
        found = self.emu.channel_by_id(int(request.match_info["channel"]))
        if found is None:
            raise ApiError.unknown_channel()
        return found[1]

    def _guild_of(self, channel: Channel) -> Guild:
        found = self.emu.channel_by_id(channel.id)
        assert found is not None
        return found[0]

    def _channel_message(self, request: web.Request) -> StoredMessage:
        channel = self._channel(request)
        self._check_bot_may(channel, Permission.READ_MESSAGE_HISTORY)
        message = self.emu.messages.get(int(request.match_info["message"]), channel.id)
        if message.ephemeral:
            raise ApiError.unknown_message()  # ephemeral messages live only behind the interaction token
        return message

    def _check_bot_may(self, channel: Channel, needed: int) -> None:
        """Discord's 403s: 50001 for a channel the bot cannot see, 50013 for a permission it lacks there."""
        guild = self._guild_of(channel)
        granted = guild.permissions_in(guild.bot_member, channel)
        if not granted & Permission.VIEW_CHANNEL:
            raise ApiError.missing_access()
        if granted & needed != needed:
            raise ApiError.missing_permissions()

    def _guild(self, request: web.Request) -> Guild:
        guild = self.emu.guild_by_id(int(request.match_info["guild"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    def _create(
        self, record: InteractionRecord, channel: Channel, body: RequestBody, forced_flags: int = 0
    ) -> StoredMessage:
        return self.emu.messages.create(
            channel.id,
            body,
            forced_flags=forced_flags,
            interaction_id=record.id,
            interaction_metadata=record.metadata(),
        )

    def _output(self, message: StoredMessage, kind: OutputKind, record: InteractionRecord | None) -> Output:
        found = self.emu.channel_by_id(message.channel_id)
        name = found[1].name if found else str(message.channel_id)
        return message.to_output(kind, name, self.emu.guild.bot_member.user, record.id if record else None)
