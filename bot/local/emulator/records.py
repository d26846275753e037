"""What the bot did, as recorded by the emulator: Outputs, grouped per interaction in InteractionResults."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .guild import User

OutputKind = Literal[
    "response",  # callback 4: a message answering the interaction
    "deferred",  # callback 5 (thinking…) or 6 (deferred component update)
    "followup",  # POST /webhooks/{app}/{token}
    "edit",  # callback 7, or PATCH of @original / a followup
    "message",  # POST /channels/{id}/messages
    "message_edit",  # PATCH /channels/{id}/messages/{id}
    "message_delete",  # DELETE of a channel message, @original or a followup
    "autocomplete",  # callback 8
    "modal",  # callback 9
]
# Outputs a person sees as a message in the channel (or as an ephemeral message).
MESSAGE_KINDS = frozenset({"response", "followup", "edit", "message", "message_edit"})
REPLY_KINDS = frozenset({"response", "followup", "edit"})  # through the interaction's token


@dataclass
class Attachment:
    filename: str
    content_type: str
    data: bytes
    id: int = 0

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class Output:
    """One thing the bot sent. Message kinds carry the message as it looks after the request."""

    kind: OutputKind
    interaction_id: int | None
    channel: str
    channel_id: int
    message_id: int | None
    ephemeral: bool
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # autocomplete
    modal: dict[str, Any] | None = None  # modal: custom_id, title, components
    pinged: list[int] = field(default_factory=list)  # users the message notified when posted

    def text(self) -> str:
        """Content and embed text, one block per embed, as a terminal would show them."""
        parts = [self.content] if self.content else []
        parts.extend(embed_text(embed) for embed in self.embeds)
        return "\n".join(part for part in parts if part)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "channel": self.channel,
            "ephemeral": self.ephemeral,
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [attachment.filename for attachment in self.attachments],
        }


@dataclass
class InteractionResult:
    interaction_id: int
    outputs: list[Output]
    ack_latency: float | None  # seconds from dispatch to the first callback
    deferred: bool

    @property
    def answer(self) -> Output | None:
        """What the person ends up reading: the interaction's last reply (response, followup or edit), else
        the last channel message attributed to it. A channel message sent meanwhile (a scoreboard edited
        in the background) is not the reply."""
        replies = [o for o in self.outputs if o.kind in REPLY_KINDS]
        return next(reversed(replies), None) or next(
            (o for o in reversed(self.outputs) if o.kind in MESSAGE_KINDS), None
        )

    @property
    def content(self) -> str:
        return self.answer.content if self.answer else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.answer.embeds if self.answer else []

    @property
    def ephemeral(self) -> bool:
        return self.answer.ephemeral if self.answer else False

    @property
    def message_id(self) -> int | None:
        return self.answer.message_id if self.answer else None

    @property
    def modal(self) -> dict[str, Any] | None:
        return next((o.modal for o in self.outputs if o.kind == "modal"), None)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return next((o.choices for o in self.outputs if o.kind == "autocomplete"), None)

    def text(self) -> str:
        return "\n".join(text for o in self.outputs if o.kind in MESSAGE_KINDS and (text := o.text()))


def embed_text(embed: dict[str, Any]) -> str:
    lines = [
        embed.get("author", {}).get("name"),
        embed.get("title"),
        embed.get("description"),
        *(f"{f.get('name', '')}: {f.get('value', '')}" for f in embed.get("fields", [])),
        embed.get("footer", {}).get("text"),
    ]
    return "\n".join(line for line in lines if line)
