"""Turning what a person picks (members, roles, channels, files) into ids plus Discord's `resolved` data."""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import EmulatorError
from .guild import Channel, Guild, Member, Role, User
from .payloads import JSON, channel_payload_for, member_payload, role_payload, user_payload
from .records import Attachment


@dataclass
class Resolver:
    """Resolves picks in `guild` for `member` (whose permissions resolved channels carry).

    Values may be text as typed ('@alice', 'alice', '<@id>', an id, '#scores', a file path) or the
    emulator's own objects. Each pick adds its object to `resolved`, keyed as Discord keys it.
    """

    guild: Guild
    member: Member
    add_file: Callable[[Attachment], Attachment]
    attachment_payload: Callable[[Attachment], JSON]
    resolved: JSON = field(default_factory=dict)

    def user(self, raw: Any) -> str:
        member = raw if isinstance(raw, Member) else self.guild.member(str(raw.id if isinstance(raw, User) else raw))
        key = str(member.id)
        self._add("users", key, user_payload(member.user))
        self._add("members", key, member_payload(self.guild, member, with_user=False, with_permissions=True))
        return key

    def role(self, raw: Any) -> str:
        role = raw if isinstance(raw, Role) else self.guild.role(str(raw))
        return self._add("roles", str(role.id), role_payload(role))

    def mentionable(self, raw: Any) -> str:
        if isinstance(raw, Role):
            return self.role(raw)
        try:
            return self.user(raw)
        except EmulatorError:
            return self.role(raw)

    def channel(self, raw: Any, allowed_types: Collection[int] = ()) -> str:
        channel = raw if isinstance(raw, Channel) else self.guild.channel(str(raw))
        if allowed_types and channel.type not in allowed_types:
            raise EmulatorError(f"#{channel.name} (channel type {channel.type}) is not accepted here")
        return self._add("channels", str(channel.id), channel_payload_for(self.guild, channel, self.member))

    def attachment(self, raw: Any) -> str:
        """A local file path (or an Attachment) becomes an upload the emulator serves over HTTP."""
        if isinstance(raw, Attachment):
            attachment = raw
        else:
            path = Path(raw).expanduser()
            if not path.is_file():
                raise EmulatorError(f"attachment {str(raw)!r} is not a readable file")
            content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            attachment = Attachment(path.name, content_type, path.read_bytes())
        self.add_file(attachment)
        return self._add("attachments", str(attachment.id), self.attachment_payload(attachment))

    def _add(self, kind: str, key: str, payload: JSON) -> str:
        self.resolved.setdefault(kind, {})[key] = payload
        return key
