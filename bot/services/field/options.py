"""A field league's options (FIELD-CFG-1 and every FIELD-AMB default), changed one key at a time from a date
(COMMON-LEAGUE-2): nights already closed keep the options they were played under."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from pydantic import ValidationError
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.field.options import FieldOptions
from bot.rules.refusals import InvalidInput
from bot.services import league_options
from bot.services.actor import Actor
from bot.services.field.facts import field_context, load_context
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.field import FieldNight, NightState
from storage.models import League, Season

OPTION_NAMES = tuple(FieldOptions.model_fields)


@dataclass(frozen=True)
class FieldOptionsView:
    options: FieldOptions  # of what is still to play
    history: list[str]  # the options that changed during the league, each with its values over time
    changed: league_options.Changed | None = None  # a change just made: from when it applies
    value: Any = None  # the value it set


class FieldConfigService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def options(self, actor: Actor, league_name: str | None) -> FieldOptionsView:
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            return FieldOptionsView(context.options, _history(context.league))

    async def set_option(
        self, actor: Actor, league_name: str | None, *, key: str, value: str, effective: str | None = None
    ) -> FieldOptionsView:
        """Set one option from the next night not yet closed, or from `effective` (`league_options.change`);
        every version from then on is validated before it is stored (audited with before and after).
        Values are JSON (`4`, `true`, `[70, 30]`, `null`) or plain text (`00:30`, `machine_field`)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, now)
            require_commissioner(actor, context.league, "change the league's options")
            if key not in OPTION_NAMES:
                raise InvalidInput(f"No option {key!r}. Options: {', '.join(OPTION_NAMES)}.")

            def change(stored: Mapping[str, Any]) -> dict[str, Any]:
                try:
                    options = FieldOptions.model_validate({**stored, key: league_options.typed_value(value)})
                except ValidationError as exc:
                    raise InvalidInput(f"`{key}` cannot be {value!r}: {exc.errors()[0]['msg']}.") from None
                return options.model_dump(mode="json", exclude_defaults=True)

            changed = await league_options.change(
                session, actor, context.league, change, effective=effective, now=now, reason=f"option {key}"
            )
            ahead = (await field_context(session, context.league, context.season, now)).options
            newest = FieldOptions.model_validate(context.league.options)  # the change reaches the newest version
            return FieldOptionsView(ahead, _history(context.league), changed, getattr(newest, key))


async def last_played(session: AsyncSession, league: League, today: date) -> date | None:
    """The field's registration hook (`bot.formats.LastPlayed`): the latest closed night of any season."""
    query = (
        select(func.max(FieldNight.play_on))
        .where(FieldNight.season_id == Season.id, Season.league_id == league.id)
        .where(col(FieldNight.state) == NightState.CLOSED)
    )
    return (await session.exec(query)).one()


def _history(league: League) -> list[str]:
    return league_options.history_lines(league, FieldOptions)
