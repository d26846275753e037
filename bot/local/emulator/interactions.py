"""One dispatched interaction: its payload, Discord's timing rules, and when it counts as answered."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, NoReturn

from .errors import ApiError, EmulatorError
from .guild import APPLICATION_ID, Channel, Guild, Member
from .payloads import ATTACHMENT_SIZE_LIMIT, JSON, channel_payload_for, member_payload, user_payload
from .records import InteractionResult, Output

ACK_DEADLINE = 3.0  # seconds Discord waits for the first callback
TOKEN_LIFETIME = 15 * 60.0  # seconds followups and edits keep working


class InteractionType(IntEnum):
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


DEFERRALS = (CallbackType.DEFERRED_CHANNEL_MESSAGE, CallbackType.DEFERRED_UPDATE_MESSAGE)
# Which callbacks Discord accepts for each interaction type.
ALLOWED_CALLBACKS = {
    InteractionType.APPLICATION_COMMAND: {4, 5, 9},
    InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
    InteractionType.AUTOCOMPLETE: {8},
    InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
}


@dataclass
class InteractionRecord:
    id: int
    type: InteractionType
    label: str  # how error messages name it: "/league create", "click 'confirm'"
    guild_id: int
    member: Member
    channel: Channel
    dispatched_at: float  # event-loop time
    message_id: int | None = None  # the message whose component was used
    token: str = field(default_factory=lambda: secrets.token_urlsafe(96))
    callback_type: CallbackType | None = None
    acked_at: float | None = None
    original_message_id: int | None = None
    outputs: list[Output] = field(default_factory=list)
    payload: JSON = field(default_factory=dict)  # INTERACTION_CREATE as dispatched, for redelivery
    delivered_to: list[str] = field(default_factory=list)  # the connected gateway sessions it was dispatched to
    rejections: list[str] = field(default_factory=list)  # refused requests, reported if nothing answers
    reports_due: int | None = None  # "done" reports that complete the result (None: wait for a quiet moment)
    reports: int = 0
    _acked: asyncio.Event = field(default_factory=asyncio.Event)
    _answered: asyncio.Event = field(default_factory=asyncio.Event)
    _activity: asyncio.Event = field(default_factory=asyncio.Event)
    _done: asyncio.Event = field(default_factory=asyncio.Event)

    def check_callback(self, callback_type: Any, now: float, ack_deadline: float) -> CallbackType:
        """Discord's rules for a callback: within 3 s, only once, with a type valid for the interaction."""
        if self.callback_type is not None:
            self.rejections.append("a second callback was refused (40060 already acknowledged)")
            raise ApiError.already_acknowledged()
        if now - self.dispatched_at > ack_deadline:
            late = now - self.dispatched_at
            self.rejections.append(f"a callback arrived {late:.2f}s after dispatch and got 404 Unknown interaction")
            raise ApiError.unknown_interaction()
        if callback_type not in ALLOWED_CALLBACKS[self.type]:
            self.rejections.append(f"callback type {callback_type} is not valid for interaction type {self.type}")
            raise ApiError(400, 40043, f"Interaction callback type {callback_type} is not allowed here")
        return CallbackType(callback_type)

    def acknowledge(self, callback_type: CallbackType, now: float) -> None:
        self.callback_type = callback_type
        self.acked_at = now
        self._acked.set()

    def check_token_alive(self, now: float, token_lifetime: float) -> None:
        """Followups and edits need an acknowledged interaction younger than 15 minutes."""
        if self.callback_type is None or now - self.dispatched_at > token_lifetime:
            self.rejections.append("a followup or edit came before any callback (or after the token expired)")
            raise ApiError.unknown_webhook()

    def add_output(self, output: Output) -> None:
        self.outputs.append(output)
        self._activity.set()
        # A deferral only promises an answer: the answer is whatever else the bot sends (a channel
        # message edited just before deferring counts too).
        if self.callback_type is not None and (
            self.callback_type not in DEFERRALS or any(o.kind != "deferred" for o in self.outputs)
        ):
            self._answered.set()

    def report_done(self) -> None:
        """A bot that got this interaction has finished with it."""
        self.reports += 1
        if self.reports_due is not None and self.reports >= self.reports_due:
            self._done.set()

    async def settle(self, *, answer_within: float, ack_deadline: float, quiet_window: float) -> InteractionResult:
        """Wait for the answer, then for the bots' "done" reports, or without them for `quiet_window` seconds
        without output, to collect followups and the messages the interaction caused."""
        loop = asyncio.get_running_loop()
        deadline = self.dispatched_at + answer_within
        acked_in_time = await _wait(self._acked, min(self.dispatched_at + ack_deadline, deadline) - loop.time())
        if not acked_in_time or not await _wait(self._answered, deadline - loop.time()):
            self._raise_no_response(loop.time() - self.dispatched_at)
        if self.reports_due is not None:
            await _wait(self._done, deadline - loop.time())
        else:
            self._activity.clear()
            while loop.time() < deadline and await _wait(self._activity, quiet_window):
                self._activity.clear()
        return InteractionResult(
            interaction_id=self.id,
            outputs=list(self.outputs),
            ack_latency=None if self.acked_at is None else self.acked_at - self.dispatched_at,
            deferred=self.callback_type in DEFERRALS,
        )

    def _raise_no_response(self, waited: float) -> NoReturn:
        if self.callback_type is None:
            what = "no callback"
        else:
            what = f"only a deferral (callback {self.callback_type.value}) and no followup or edit"
        details = "; ".join(self.rejections)
        raise EmulatorError(
            f"no response within {waited:.1f}s to {self.label} as {self.member.name}: {what}"
            + (f" ({details})" if details else "")
        )

    def metadata(self) -> JSON:
        """`interaction_metadata` of the messages this interaction creates."""
        metadata: JSON = {
            "id": str(self.id),
            "type": self.type.value,
            "user": user_payload(self.member.user),
            "authorizing_integration_owners": {"0": str(self.guild_id)},
        }
        if self.original_message_id is not None:
            metadata["original_response_message_id"] = str(self.original_message_id)
        if self.message_id is not None:
            metadata["interacted_message_id"] = str(self.message_id)
        return metadata


def interaction_payload(record: InteractionRecord, guild: Guild, data: JSON, message: JSON | None = None) -> JSON:
    """INTERACTION_CREATE as Discord sends it for a guild-installed app used in a guild channel."""
    payload: JSON = {
        "id": str(record.id),
        "application_id": str(APPLICATION_ID),
        "type": record.type.value,
        "data": data,
        "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
        "guild_id": str(guild.id),
        "guild_locale": "en-US",
        "channel": channel_payload_for(guild, record.channel, record.member),
        "channel_id": str(record.channel.id),
        "member": member_payload(guild, record.member, with_permissions=True),
        "token": record.token,
        "version": 1,
        "app_permissions": str(guild.permissions_of(guild.bot_member)),
        "locale": "en-US",
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if message is not None:
        payload["message"] = message
    return payload


async def _wait(event: asyncio.Event, seconds: float) -> bool:
    if event.is_set():
        return True
    try:
        await asyncio.wait_for(event.wait(), timeout=max(seconds, 0))
    except TimeoutError:
        return False
    return True
