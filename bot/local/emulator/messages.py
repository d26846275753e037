"""Messages the bot created: request bodies (JSON or multipart), Discord's limits, storage and payloads."""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from aiohttp import BodyPartReader, web

from .errors import ApiError
from .guild import User
from .ids import iso, snowflake_time
from .limits import pinged_users, validate_message_components
from .payloads import JSON, user_payload
from .records import Attachment, Output, OutputKind


class MessageFlag:
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7  # the "Bot is thinking…" placeholder of a deferred interaction
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15
    SETTABLE_ON_CREATE = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
    SETTABLE_ON_EDIT = SUPPRESS_EMBEDS | IS_COMPONENTS_V2


@dataclass
class RequestBody:
    """A REST body: the JSON fields (`payload_json` when multipart) and the uploaded `files[n]`."""

    fields: JSON = field(default_factory=dict)
    files: dict[int, Attachment] = field(default_factory=dict)

    @classmethod
    async def read(cls, request: web.Request) -> RequestBody:
        if not request.content_type.startswith("multipart/"):
            return cls(await request.json() if request.can_read_body else {})
        body = cls()
        async for part in await request.multipart():
            if not isinstance(part, BodyPartReader):
                continue
            if part.name == "payload_json":
                body.fields = json.loads(await part.text())
            elif part.name and part.name.startswith("files[") and part.filename:
                # discord.py labels every file application/octet-stream; Discord sniffs the type.
                content_type = mimetypes.guess_type(part.filename)[0] or "application/octet-stream"
                body.files[int(part.name[6:-1])] = Attachment(part.filename, content_type, bytes(await part.read()))
        return body


@dataclass
class StoredMessage:
    id: int
    channel_id: int
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None
    interaction_metadata: JSON | None = None
    edited_at: datetime | None = None
    pinged: tuple[int, ...] = ()  # users notified when it was posted (an edit notifies no one)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    def to_output(self, kind: OutputKind, channel: str, author: User, interaction_id: int | None) -> Output:
        return Output(
            kind=kind,
            interaction_id=interaction_id,
            channel=channel,
            channel_id=self.channel_id,
            message_id=self.id,
            ephemeral=self.ephemeral,
            author=author,
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            pinged=list(self.pinged),
        )


class MessageStore:
    """Every message by id (ephemeral ones too, so their buttons can be clicked) and every file served."""

    def __init__(self, new_id: Callable[[], int]) -> None:
        self._new_id = new_id
        self._messages: dict[int, StoredMessage] = {}
        self.files: dict[int, Attachment] = {}

    def create(
        self,
        channel_id: int,
        body: RequestBody,
        *,
        forced_flags: int = 0,
        interaction_id: int | None = None,
        interaction_metadata: JSON | None = None,
    ) -> StoredMessage:
        """A new message; `forced_flags` come from the interaction (an ephemeral defer, loading)."""
        requested = int(body.fields.get("flags") or 0) & MessageFlag.SETTABLE_ON_CREATE
        message = StoredMessage(
            self._new_id(),
            channel_id,
            flags=requested | forced_flags,
            interaction_id=interaction_id,
            interaction_metadata=interaction_metadata,
        )
        message = replace(self._applied(message, body), pinged=pinged_users(body.fields))
        self._messages[message.id] = message
        return message

    def edit(self, message: StoredMessage, body: RequestBody) -> StoredMessage:
        flags = message.flags & ~MessageFlag.LOADING
        if body.fields.get("flags") is not None:
            settable = MessageFlag.SETTABLE_ON_EDIT
            flags = (flags & ~settable) | (int(body.fields["flags"]) & settable)
        edited = self._applied(replace(message, flags=flags, edited_at=datetime.now(UTC)), body)
        if message.loading:  # a deferred reply's content arrives now: that is when it notifies
            edited = replace(edited, pinged=pinged_users(body.fields))
        self._messages[message.id] = edited
        return edited

    def find(self, message_id: int) -> StoredMessage | None:
        return self._messages.get(message_id)

    def get(self, message_id: int, channel_id: int | None = None) -> StoredMessage:
        message = self._messages.get(message_id)
        if message is None or (channel_id is not None and message.channel_id != channel_id):
            raise ApiError.unknown_message()
        return message

    def delete(self, message: StoredMessage) -> None:
        del self._messages[message.id]

    def in_channel(self, channel_id: int) -> list[StoredMessage]:
        """What everyone sees in the channel: no ephemeral messages, no "thinking…" placeholders."""
        return [m for m in self._messages.values() if m.channel_id == channel_id and not (m.ephemeral or m.loading)]

    def add_file(self, attachment: Attachment) -> Attachment:
        attachment.id = self._new_id()
        self.files[attachment.id] = attachment
        return attachment

    def _applied(self, message: StoredMessage, body: RequestBody) -> StoredMessage:
        """The message with the body's fields applied; a body breaking Discord's limits changes nothing."""
        fields = body.fields
        updated = replace(
            message,
            content=(fields["content"] or "") if "content" in fields else message.content,
            embeds=(fields["embeds"] or []) if "embeds" in fields else message.embeds,
            components=(fields["components"] or []) if "components" in fields else message.components,
            attachments=self._attachments_after(message, fields, body.files),
        )
        validate_message(updated)
        return updated

    def _attachments_after(
        self, message: StoredMessage, fields: JSON, files: dict[int, Attachment]
    ) -> list[Attachment]:
        """`attachments` lists the existing ones to keep (by id) and the new uploads (by files[n] index)."""
        if "attachments" not in fields:
            return message.attachments + [self.add_file(file) for _, file in sorted(files.items())]
        kept = {attachment.id: attachment for attachment in message.attachments}
        result = []
        for entry in fields["attachments"] or []:
            entry_id = int(entry["id"])
            if entry_id in files:
                result.append(self.add_file(files[entry_id]))
            elif entry_id in kept:
                result.append(kept[entry_id])
        return result


def validate_message(message: StoredMessage) -> None:
    """Discord's limits: the 400s a bot meets in production, not only in the emulator."""
    if len(message.content) > 2000:
        raise ApiError.invalid_form("content", "Must be 2000 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    if len(message.embeds) > 10:
        raise ApiError.invalid_form("embeds", "Must be 10 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    total = 0
    for index, embed in enumerate(message.embeds):
        limits = {
            "title": (embed.get("title"), 256),
            "description": (embed.get("description"), 4096),
            "footer.text": ((embed.get("footer") or {}).get("text"), 2048),
            "author.name": ((embed.get("author") or {}).get("name"), 256),
        }
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise ApiError.invalid_form(f"embeds.{index}.fields", "Must be 25 or fewer in length.")
        for number, embed_field in enumerate(fields):
            limits[f"fields.{number}.name"] = (embed_field.get("name"), 256)
            limits[f"fields.{number}.value"] = (embed_field.get("value"), 1024)
            for key in ("name", "value"):
                if not embed_field.get(key):
                    raise ApiError.invalid_form(
                        f"embeds.{index}.fields.{number}.{key}", "This field is required", "BASE_TYPE_REQUIRED"
                    )
        for path, (text, limit) in limits.items():
            total += len(text or "")
            if text and len(text) > limit:
                raise ApiError.invalid_form(
                    f"embeds.{index}.{path}", f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
                )
    if total > 6000:
        raise ApiError.invalid_form("embeds", "Embed size exceeds maximum size of 6000", "MAX_EMBED_SIZE_EXCEEDED")
    validate_message_components(message.components, layout=bool(message.flags & MessageFlag.IS_COMPONENTS_V2))
    if not (message.content or message.embeds or message.attachments or message.components or message.loading):
        raise ApiError(400, 50006, "Cannot send an empty message")


def message_payload(message: StoredMessage, *, guild_id: int, author: User, files_url: str) -> JSON:
    from_command = bool(message.interaction_metadata and message.interaction_metadata["type"] == 2)
    return {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "guild_id": str(guild_id),
        "type": 20 if from_command else 0,  # CHAT_INPUT_COMMAND or DEFAULT
        "content": message.content,
        "author": user_payload(author),
        "timestamp": iso(snowflake_time(message.id)),
        "edited_timestamp": iso(message.edited_at) if message.edited_at else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment_payload(a, files_url) for a in message.attachments],
        "embeds": message.embeds,
        "components": message.components,
        "reactions": [],
        "pinned": False,
        "flags": message.flags,
        **(
            {
                "webhook_id": str(author.id),
                "application_id": str(author.id),
                "interaction_metadata": message.interaction_metadata,
            }
            if message.interaction_metadata
            else {}
        ),
    }


def attachment_payload(attachment: Attachment, files_url: str, *, ephemeral: bool = False) -> JSON:
    url = f"{files_url}/{attachment.id}/{attachment.filename}"
    return {
        "id": str(attachment.id),
        "filename": attachment.filename,
        "size": attachment.size,
        "url": url,
        "proxy_url": url,
        "content_type": attachment.content_type,
        "ephemeral": ephemeral,
    }
