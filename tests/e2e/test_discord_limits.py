"""The emulator refuses what Discord refuses, with Discord's answer: one case per limit, each sent straight to the
emulator's REST API and checked for the exact status, code and errors tree (issue 17 item 3)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from bot.local.emulator import Emulator
from bot.local.emulator.guild import APPLICATION_ID, Permission
from bot.local.emulator.interactions import CallbackType, InteractionRecord, InteractionType
from bot.local.emulator.ratelimits import Limit, RateLimits

JSON = dict[str, Any]
ROW, BUTTON, SELECT, TEXT_INPUT, LABEL, FILE_UPLOAD = 1, 2, 3, 4, 18, 19


@dataclass
class Rest:
    emulator: Emulator
    session: aiohttp.ClientSession

    async def request(self, method: str, path: str, body: JSON | None = None, **kwargs: Any) -> tuple[int, Any]:
        headers = {"Authorization": f"Bot {self.emulator.token}"}
        url = self.emulator.api_url + path
        async with self.session.request(method, url, json=body, headers=headers, **kwargs) as response:
            self.last_headers = response.headers
            return response.status, await response.json()

    async def send(self, body: JSON, channel: str = "general") -> tuple[int, Any]:
        return await self.request("POST", f"/channels/{self.emulator.channel(channel).id}/messages", body)

    async def callback(self, kind: InteractionType, callback: CallbackType, data: JSON) -> tuple[int, Any]:
        """Answer an interaction made here (no bot needed) with `callback` carrying `data`."""
        emulator = self.emulator
        record = InteractionRecord(
            id=emulator.guild.new_id(),
            type=kind,
            label="test",
            guild_id=emulator.guild.id,
            member=emulator.member("alice"),
            channel=emulator.channel("general"),
            dispatched_at=asyncio.get_running_loop().time(),
        )
        emulator.interactions[record.id] = record
        emulator.interactions_by_token[record.token] = record
        path = f"/interactions/{record.id}/{record.token}/callback"
        return await self.request("POST", path, {"type": callback.value, "data": data})


@pytest.fixture
async def rest() -> AsyncIterator[Rest]:
    async with Emulator() as emulator, aiohttp.ClientSession() as session:
        yield Rest(emulator, session)


def invalid_form(field: str, code: str, message: str) -> JSON:
    tree: JSON = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(field.split(".")):
        tree = {part: tree}
    return {"message": "Invalid Form Body", "code": 50035, "errors": tree}


def too_long(field: str, limit: int) -> JSON:
    return invalid_form(field, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def bad_length(field: str, low: int, high: int) -> JSON:
    return invalid_form(field, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def button(custom_id: str, label: str = "OK") -> JSON:
    return {"type": BUTTON, "style": 1, "custom_id": custom_id, "label": label}


def select(custom_id: str, options: int = 1, label: str = "Pick") -> JSON:
    choices = [{"label": label, "value": str(n)} for n in range(options)]
    return {"type": SELECT, "custom_id": custom_id, "options": choices}


def row(*components: JSON) -> JSON:
    return {"type": ROW, "components": list(components)}


def text_input(custom_id: str, label: str = "Score") -> JSON:
    return {"type": TEXT_INPUT, "custom_id": custom_id, "label": label, "style": 1}


def upload(custom_id: str = "photo", **fields: Any) -> JSON:
    return {"type": FILE_UPLOAD, "custom_id": custom_id, **fields}


def labelled(component: JSON, label: str = "Photo", **fields: Any) -> JSON:
    return {"type": LABEL, "label": label, "component": component, **fields}


def uploading(*components: JSON) -> JSON:
    return {"custom_id": "m", "title": "Scores", "components": list(components)}


def not_one_of(field: str, *kinds: int) -> JSON:
    choices = ", ".join(str(kind) for kind in kinds)
    return invalid_form(field, "BASE_TYPE_CHOICES", f"Value must be one of ({choices}).")


LABEL_CHILDREN = (4, 3, 5, 6, 7, 8, 19, 21, 22, 23)
AT_LEAST, AT_MOST = "int value should be greater than or equal to", "int value should be less than or equal to"


# --- rate limits and permissions ---


async def test_past_the_channel_message_limit_a_429_with_retry_after_and_the_bucket_headers(rest: Rest) -> None:
    rest.emulator.rate_limits = RateLimits(channel_messages=Limit(2, 60.0))
    for remaining in ("1", "0"):
        assert (await rest.send({"content": "hi"}))[0] == 200
        assert rest.last_headers["X-RateLimit-Remaining"] == remaining
        assert rest.last_headers["X-RateLimit-Limit"] == "2"
    status, body = await rest.send({"content": "one too many"})
    assert status == 429
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 59 < body["retry_after"] <= 60
    assert rest.last_headers["X-RateLimit-Scope"] == "user"
    assert {"X-RateLimit-Bucket", "X-RateLimit-Reset", "X-RateLimit-Reset-After"} <= set(rest.last_headers)
    assert len(rest.emulator.messages_in("general")) == 2, "the refused message was not posted"
    assert (await rest.send({"content": "another channel"}, channel="scores"))[0] == 200, "buckets are per channel"


async def test_past_the_global_limit_a_global_429(rest: Rest) -> None:
    rest.emulator.rate_limits = RateLimits(global_=Limit(3, 60.0))
    for _ in range(3):
        assert (await rest.request("GET", "/users/@me"))[0] == 200
    status, body = await rest.request("GET", "/users/@me")
    assert status == 429 and body["global"] is True and body["message"] == "You are being rate limited."
    assert rest.last_headers["X-RateLimit-Global"] == "true" and rest.last_headers["X-RateLimit-Scope"] == "global"


async def test_a_read_only_channel_refuses_sends_with_403_missing_permissions(rest: Rest) -> None:
    emulator = rest.emulator
    emulator.set_channel_permissions("announcements", emulator.role("@everyone"), deny=Permission.SEND_MESSAGES)
    assert await rest.send({"content": "hi"}, channel="announcements") == (
        403,
        {"message": "Missing Permissions", "code": 50013},
    )
    emulator.set_channel_permissions("announcements", emulator.role("@everyone"), deny=Permission.VIEW_CHANNEL)
    assert await rest.send({"content": "hi"}, channel="announcements") == (
        403,
        {"message": "Missing Access", "code": 50001},
    )
    emulator.set_channel_permissions("announcements", emulator.role("PinLeague"), allow=Permission.VIEW_CHANNEL)
    emulator.set_channel_permissions("announcements", emulator.member("PinLeague"), allow=Permission.SEND_MESSAGES)
    assert (await rest.send({"content": "hi"}, channel="announcements"))[0] == 200, "the bot's own overwrites win"
    assert emulator.messages_in("announcements")[0].content == "hi"


# --- message components ---

FIRST = "components.0.components.0"  # the first row's first component
COMPONENT_CASES = {
    "six action rows": ([row(button(f"b{n}")) for n in range(6)], too_long("components", 5)),
    "six buttons in a row": (
        [row(*(button(f"b{n}") for n in range(6)))],
        too_long("components.0.components", 5),
    ),
    "a select beside a button": (
        [row(select("s"), button("b"))],
        invalid_form("components.0.components", "BASE_TYPE_INVALID", "A select menu must be alone in its action row"),
    ),
    "a custom_id of 101 characters": ([row(button("x" * 101))], too_long("components.0.components.0.custom_id", 100)),
    "a custom_id used twice": (
        [row(button("same")), row(button("same"))],
        invalid_form("components", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"),
    ),
    "a select without options": ([row(select("s", options=0))], bad_length("components.0.components.0.options", 1, 25)),
    "a select with 26 options": (
        [row(select("s", options=26))],
        bad_length("components.0.components.0.options", 1, 25),
    ),
    "an option label of 101 characters": (
        [row(select("s", label="x" * 101))],
        bad_length("components.0.components.0.options.0.label", 1, 100),
    ),
    "a button label of 81 characters": (
        [row(button("b", label="x" * 81))],
        too_long("components.0.components.0.label", 80),
    ),
    "a file upload in a message": ([row(upload())], not_one_of(f"{FIRST}.type", 2, 3, 5, 6, 7, 8)),
}


@pytest.mark.parametrize(("components", "refusal"), COMPONENT_CASES.values(), ids=COMPONENT_CASES.keys())
async def test_components_past_discords_limits_are_refused(rest: Rest, components: list[JSON], refusal: JSON) -> None:
    assert await rest.send({"content": "pick", "components": components}) == (400, refusal)
    assert rest.emulator.messages_in("general") == []


# --- application commands ---


def command(**overrides: Any) -> JSON:
    return {"name": "league", "description": "Leagues", "type": 1, "options": []} | overrides


def option(name: str = "name", **overrides: Any) -> JSON:
    return {"name": name, "description": "A value", "type": 3} | overrides


COMMAND_CASES = {
    "over 8,000 characters": (
        command(options=[option(f"o{n}", choices=[{"name": "c" * 99, "value": "v" * 99}] * 25) for n in range(2)]),
        invalid_form("0", "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)"),
    ),
    "26 options": (command(options=[option(f"o{n}") for n in range(26)]), too_long("0.options", 25)),
    "26 choices": (
        command(options=[option(choices=[{"name": f"c{n}", "value": str(n)} for n in range(26)])]),
        too_long("0.options.0.choices", 25),
    ),
    "a choice name of 101 characters": (
        command(options=[option(choices=[{"name": "c" * 101, "value": "v"}])]),
        bad_length("0.options.0.choices.0.name", 1, 100),
    ),
    "a name of 33 characters": (
        command(name="x" * 33),
        invalid_form("0.name", "APPLICATION_COMMAND_INVALID_NAME", f"Command name {'x' * 33!r} is invalid"),
    ),
    "a description of 101 characters": (command(description="d" * 101), bad_length("0.description", 1, 100)),
    "an option description of 101 characters": (
        command(options=[option(description="d" * 101)]),
        bad_length("0.options.0.description", 1, 100),
    ),
    "a subcommand inside a subcommand": (
        command(options=[option("sub", type=1, options=[option("deeper", type=1)])]),
        invalid_form(
            "0.options.0.options.0.type",
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-commands nest at most two levels deep",
        ),
    ),
}


@pytest.mark.parametrize(("schema", "refusal"), COMMAND_CASES.values(), ids=COMMAND_CASES.keys())
async def test_commands_past_discords_limits_are_refused(rest: Rest, schema: JSON, refusal: JSON) -> None:
    assert await rest.request("PUT", f"/applications/{APPLICATION_ID}/commands", [schema]) == (400, refusal)
    assert rest.emulator.commands["global"] == []


# --- modals and autocomplete ---

MODAL_CASES = {
    "six components": (
        {"custom_id": "m", "title": "Scores", "components": [row(text_input(f"t{n}")) for n in range(6)]},
        too_long("data.components", 5),
    ),
    "a title of 46 characters": (
        {"custom_id": "m", "title": "t" * 46, "components": [row(text_input("t"))]},
        too_long("data.title", 45),
    ),
    "a text input label of 46 characters": (
        {"custom_id": "m", "title": "Scores", "components": [row(text_input("t", label="l" * 46))]},
        too_long("data.components.0.components.0.label", 45),
    ),
    # File uploads (the component reference, File Upload): only inside a Label; 0 to 10 files, at least 1 when
    # required (the default); min_values at most max_values.
    "a file upload outside a Label": (uploading(upload()), not_one_of("data.components.0.type", 1, 18, 10)),
    "a file upload in an action row": (uploading(row(upload())), not_one_of("data.components.0.components.0.type", 4)),
    "a required file upload taking 0 files": (
        uploading(labelled(upload(min_values=0))),
        invalid_form(
            "data.components.0.component.min_values",
            "NUMBER_TYPE_MIN",
            "int value should be greater than or equal to 1.",
        ),
    ),
    "a file upload taking 11 files": (
        uploading(labelled(upload(required=False, max_values=11))),
        invalid_form("data.components.0.component.max_values", "NUMBER_TYPE_MAX", f"{AT_MOST} 10."),
    ),
    "a file upload with min_values above max_values": (
        uploading(labelled(upload(min_values=3, max_values=2))),
        invalid_form(
            "data.components.0.component.min_values",
            "BASE_TYPE_BAD_VALUE",
            "min_values must be less than or equal to max_values.",
        ),
    ),
    "a file upload without a custom_id": (
        uploading(labelled(upload(custom_id=""))),
        bad_length("data.components.0.component.custom_id", 1, 100),
    ),
    "a label description of 101 characters": (
        uploading(labelled(upload(), description="d" * 101)),
        too_long("data.components.0.description", 100),
    ),
    "a button in a Label": (
        uploading(labelled(button("b"))),
        not_one_of("data.components.0.component.type", *LABEL_CHILDREN),
    ),
}


@pytest.mark.parametrize(("modal", "refusal"), MODAL_CASES.values(), ids=MODAL_CASES.keys())
async def test_modals_past_discords_limits_are_refused(rest: Rest, modal: JSON, refusal: JSON) -> None:
    answer = await rest.callback(InteractionType.APPLICATION_COMMAND, CallbackType.MODAL, modal)
    assert answer == (400, refusal)


AUTOCOMPLETE_CASES = {
    "26 choices": ([{"name": f"c{n}", "value": str(n)} for n in range(26)], too_long("data.choices", 25)),
    "a name of 101 characters": ([{"name": "n" * 101, "value": "v"}], bad_length("data.choices.0.name", 1, 100)),
}


@pytest.mark.parametrize(("choices", "refusal"), AUTOCOMPLETE_CASES.values(), ids=AUTOCOMPLETE_CASES.keys())
async def test_autocomplete_choices_past_discords_limits_are_refused(
    rest: Rest, choices: list[JSON], refusal: JSON
) -> None:
    answer = await rest.callback(InteractionType.AUTOCOMPLETE, CallbackType.AUTOCOMPLETE_RESULT, {"choices": choices})
    assert answer == (400, refusal)


# --- allowed mentions, files, flags, size ---


async def test_allowed_mentions_with_an_unknown_parse_value_is_refused(rest: Rest) -> None:
    body = {"content": "hi", "allowed_mentions": {"parse": ["users", "admins"]}}
    expected = invalid_form(
        "allowed_mentions.parse.1", "BASE_TYPE_CHOICES", "Value must be one of {'roles', 'users', 'everyone'}."
    )
    assert await rest.send(body) == (400, expected)


async def test_allowed_mentions_listing_101_users_is_refused(rest: Rest) -> None:
    body = {"content": "hi", "allowed_mentions": {"users": [str(n) for n in range(101)]}}
    assert await rest.send(body) == (400, too_long("allowed_mentions.users", 100))


async def test_allowed_mentions_decides_whom_a_message_pings(rest: Rest) -> None:
    alice, bob = rest.emulator.member("alice"), rest.emulator.member("bob")
    cases = [
        (None, [alice.id, bob.id]),  # without allowed_mentions, everyone named is pinged
        ({"parse": []}, []),
        ({"parse": [], "users": [str(alice.id)]}, [alice.id]),
        ({"parse": ["roles"]}, []),
    ]
    for allowed, pinged in cases:
        body = {"content": f"{alice.mention} and {bob.mention}: your match"}
        status, message = await rest.send(body | ({"allowed_mentions": allowed} if allowed else {}))
        assert status == 200
        [stored] = [m for m in rest.emulator.messages_in("general") if m.message_id == int(message["id"])]
        assert stored.pinged == pinged, allowed


async def test_eleven_files_in_one_message_are_refused(rest: Rest) -> None:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "files"}), content_type="application/json")
    for n in range(11):
        form.add_field(f"files[{n}]", b"x", filename=f"f{n}.txt")
    channel = rest.emulator.channel("general").id
    status, body = await rest.request("POST", f"/channels/{channel}/messages", data=form)
    assert (status, body) == (400, too_long("attachments", 10))


async def test_the_ephemeral_flag_is_refused_outside_interactions(rest: Rest) -> None:
    expected = invalid_form("flags", "BASE_TYPE_INVALID", "Invalid flags: EPHEMERAL is only for interaction messages")
    assert await rest.send({"content": "secret", "flags": 1 << 6}) == (400, expected)


async def test_a_body_over_10_mib_gets_413(rest: Rest) -> None:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "big"}), content_type="application/json")
    form.add_field("files[0]", b"x" * (10 * 1024 * 1024 + 1), filename="audit.csv")
    channel = rest.emulator.channel("general").id
    status, body = await rest.request("POST", f"/channels/{channel}/messages", data=form)
    assert (status, body) == (413, {"message": "Request entity too large", "code": 40005})
    assert rest.emulator.messages_in("general") == []
