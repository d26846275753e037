"""Members' phones in the e2e tests of a night played from the living boards (DESIGN §2c): every command,
press and form goes through `Phones`, which counts what members type as §2c measures it: every slash-command
option and form value typed counts its characters; a value picked from autocomplete, a menu or the member list
counts zero. Scores and free-text reasons are counted apart; anything else typed is kept to be looked at."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.local.emulator import InteractionResult, Output
from tests.e2e.harness import RunningBot


@dataclass(frozen=True)
class Pick:
    """A value picked from the option's autocomplete by its readable label: nothing typed."""

    label: str


@dataclass(frozen=True)
class Chosen:
    """A value picked from a menu (a static choice, a member): nothing typed."""

    value: str


@dataclass(frozen=True)
class Score:
    text: str


@dataclass(frozen=True)
class Reason:
    text: str


@dataclass(frozen=True)
class Typed:
    """Anything else a member types: an id, a name, a number that is not a score."""

    text: str


@dataclass(frozen=True)
class Attached:
    """A file attached to a form's file upload (a path, or an emulator Attachment): picked, nothing typed."""

    file: object


Value = Pick | Chosen | Score | Reason | Typed | Attached
TEXT_INPUT, FILE_UPLOAD = 4, 19


def score_fields(modal: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A score form's labelled text fields (one per player), without its optional photo upload."""
    assert modal is not None
    return [c for c in modal["components"] if c["component"]["type"] == TEXT_INPUT]


def photo_field(modal: dict[str, Any] | None) -> dict[str, Any] | None:
    """The form's photo upload (its Label), if the form has room for one."""
    assert modal is not None
    return next((c for c in modal["components"] if c["component"]["type"] == FILE_UPLOAD), None)


@dataclass
class Phones:
    """Members' phones: every command, press and form goes through here and is counted."""

    league: RunningBot
    typed: list[str] = field(default_factory=list)  # values typed that are neither scores nor reasons
    score_characters: int = 0
    reason_characters: int = 0
    taps: Counter[tuple[str, int, int]] = field(default_factory=Counter)

    async def command(self, who: str, name: str, **options: Value) -> InteractionResult:
        line = name
        for option, value in options.items():
            text = await self._value(who, line, option, value)
            line += f' {option}:"{text}"' if isinstance(value, Score | Reason | Typed) else f" {option}:{text}"
        result = await self.league.run(line, as_member=who)
        await self.league.scoreboards_published()
        assert not result.content.startswith("⛔"), result.content
        return result

    async def press(
        self, message: Output | InteractionResult, custom_id: str, who: str, *, purpose: str
    ) -> InteractionResult:
        numbers = [int(part) for part in custom_id.split(":") if part.isdigit()]
        # A game's button ends with two numbers naming the game (a round's or a group's, and the game's).
        first, second = numbers[-2:] if len(numbers) >= 2 else (0, 0)
        self.taps[(purpose, first, second)] += 1
        result = await self.league.emulator.click(message, custom_id, as_member=who)
        await self.league.scoreboards_published()
        assert not result.content.startswith("⛔"), result.content
        return result

    async def fill(
        self, form: InteractionResult, who: str, values: dict[str, Value], *, purpose: tuple[str, int, int]
    ) -> InteractionResult:
        assert form.modal is not None, form.text()
        self.taps[purpose] += 1
        texts = {key: self._count(value) for key, value in values.items()}
        result = await self.league.emulator.submit_modal(form, texts, as_member=who)
        await self.league.scoreboards_published()
        assert not result.content.startswith("⛔"), result.content
        return result

    async def _value(self, who: str, line: str, option: str, value: Value) -> str:
        assert not isinstance(value, Attached), "a command's attachment option is not a form's upload"
        if not isinstance(value, Pick):
            return self._count(value)
        offered = await self.league.emulator.autocomplete(f"{line} {option}:", focused=option, as_member=who)
        picked = [choice for choice in offered if value.label in choice["name"]]
        assert picked, f"{value.label!r} not offered for {option}: {[c['name'] for c in offered]}"
        return str(picked[0]["value"])

    def _count(self, value: Chosen | Score | Reason | Typed | Attached) -> Any:
        if isinstance(value, Attached):
            return value.file
        if isinstance(value, Score):
            self.score_characters += len(value.text)
        elif isinstance(value, Reason):
            self.reason_characters += len(value.text)
        elif isinstance(value, Typed):
            self.typed.append(value.text)
        return value.value if isinstance(value, Chosen) else value.text
