"""A field league's options (FIELD-CFG-1 and every FIELD-AMB default), changed one key at a time."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from bot.clock import Clock
from bot.rules.field.options import FieldOptions
from bot.rules.refusals import InvalidInput
from bot.services import audit
from bot.services.actor import Actor
from bot.services.field.facts import load_context
from bot.services.permissions import require_commissioner
from storage.db import Database

OPTION_NAMES = tuple(FieldOptions.model_fields)


class FieldConfigService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def options(self, actor: Actor, league_name: str | None) -> FieldOptions:
        async with self.db.reading() as session:
            return (await load_context(session, actor, league_name)).options

    async def set_option(self, actor: Actor, league_name: str | None, *, key: str, value: str) -> FieldOptions:
        """Set one option; the whole set is validated before it is stored (audited with before and after).
        Values are JSON (`4`, `true`, `[70, 30]`, `null`) or plain text (`00:30`, `machine_field`)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name)
            require_commissioner(actor, context.league, "change the league's options")
            if key not in OPTION_NAMES:
                raise InvalidInput(f"No option {key!r}. Options: {', '.join(OPTION_NAMES)}.")
            merged = {**context.league.options, key: _value(value)}
            try:
                options = FieldOptions.model_validate(merged)
            except ValidationError as exc:
                problem = exc.errors()[0]
                raise InvalidInput(f"`{key}` cannot be {value!r}: {problem['msg']}.") from None
            before = audit.snapshot(context.league)
            context.league.options = options.model_dump(mode="json", exclude_defaults=True)
            session.add(context.league)
            audit.updated(session, actor, context.league, before=before, at=now)
            return options


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()
