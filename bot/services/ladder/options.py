"""A ladder league's options: the catalog's defaults for the sheet's ambiguities, changed by commissioners
(COMMON-LEAGUE-1, LADDER-AMB-*). A change applies from the next night not yet closed (or a later `effective`
date within reach, `league_options.change`); closed nights are stored results, scored under the options of
their day, so a change never rewrites a finished week (COMMON-LEAGUE-2)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from pydantic import ValidationError
from sqlmodel import col, func, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.ladder.options import LadderOptions
from bot.rules.refusals import InvalidInput
from bot.services import league_options
from bot.services.actor import Actor
from bot.services.ladder.facts import ladder_league
from bot.services.permissions import require_commissioner
from storage.db import Database
from storage.ladder import LadderNight
from storage.models import League, Season


def option_values(options: LadderOptions) -> dict[str, str]:
    """Every option and its value as text, for `/ladder option` without a value."""
    return {name: _show(value) for name, value in options.model_dump(mode="json").items()}


def _show(value: Any) -> str:
    return ",".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _parse(text: str) -> Any:
    """A typed value as JSON-ready data: true/false, whole numbers, comma lists of numbers, else text."""
    cleaned = text.strip()
    if cleaned.casefold() in ("true", "false"):
        return cleaned.casefold() == "true"
    if cleaned.casefold() in ("none", "default"):
        return None
    parts = [part.strip() for part in cleaned.split(",")]
    if len(parts) > 1 and all(part.isdigit() for part in parts):
        return [int(part) for part in parts]
    return int(cleaned) if cleaned.isdigit() else cleaned


class LadderOptionService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def show(self, actor: Actor, league_name: str | None) -> tuple[str, dict[str, str], list[str]]:
        """The league's name, every option's value today, and each option's changes over time."""
        async with self.db.reading() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            return ladder.league.name, option_values(ladder.options), _history(ladder.league)

    async def set(
        self, actor: Actor, league_name: str | None, *, name: str, value: str, effective: str | None = None
    ) -> tuple[str, str, league_options.Changed, list[str]]:
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            require_commissioner(actor, ladder.league, "change the league's options")
            key = name.strip()
            if key not in LadderOptions.model_fields:
                raise InvalidInput(f"No option named {key!r}. Options: {', '.join(LadderOptions.model_fields)}.")
            parsed = _parse(value)

            def change(options: Mapping[str, Any]) -> dict[str, Any]:
                stored = {k: v for k, v in {**options, key: parsed}.items() if v is not None}
                try:
                    LadderOptions.model_validate(stored)
                except ValidationError as error:
                    reason = "; ".join(e["msg"] for e in error.errors())
                    raise InvalidInput(f"{key} cannot be {value.strip()!r}: {reason}.") from None
                return stored

            changed = await league_options.change(
                session, actor, ladder.league, change, effective=effective, now=now, reason=f"option {key}"
            )
            newest = option_values(LadderOptions.model_validate(ladder.league.options))  # the change reaches it
            return key, newest[key], changed, _history(ladder.league)


def _history(league: League) -> list[str]:
    return league_options.history_lines(league, LadderOptions, _show)


async def last_played(session: AsyncSession, league: League, today: date) -> date | None:
    """The ladder's registration hook (`bot.formats.LastPlayed`): the latest closed night of any season."""
    query = (
        select(func.max(LadderNight.play_on))
        .where(LadderNight.season_id == Season.id, Season.league_id == league.id)
        .where(col(LadderNight.closed_at).is_not(None))
    )
    return (await session.exec(query)).one()
