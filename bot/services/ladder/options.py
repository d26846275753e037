"""A ladder league's options: the catalog's defaults for the sheet's ambiguities, changed by commissioners
(COMMON-LEAGUE-1, LADDER-AMB-*). Closed nights are stored results, so a change applies from the next night
on and never rewrites a finished week (COMMON-LEAGUE-2)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from bot.clock import Clock
from bot.rules.ladder.options import LadderOptions
from bot.rules.refusals import InvalidInput
from bot.services import audit
from bot.services.actor import Actor
from bot.services.ladder.facts import ladder_league
from bot.services.permissions import require_commissioner
from storage.db import Database


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

    async def show(self, actor: Actor, league_name: str | None) -> tuple[str, dict[str, str]]:
        async with self.db.reading() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name)
            return ladder.league.name, option_values(ladder.options)

    async def set(self, actor: Actor, league_name: str | None, *, name: str, value: str) -> tuple[str, str]:
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name)
            require_commissioner(actor, ladder.league, "change the league's options")
            key = name.strip()
            if key not in LadderOptions.model_fields:
                raise InvalidInput(f"No option named {key!r}. Options: {', '.join(LadderOptions.model_fields)}.")
            parsed = _parse(value)
            stored = {k: v for k, v in {**ladder.league.options, key: parsed}.items() if v is not None}
            try:
                checked = LadderOptions.model_validate(stored)
            except ValidationError as error:
                reason = "; ".join(e["msg"] for e in error.errors())
                raise InvalidInput(f"{key} cannot be {value.strip()!r}: {reason}.") from None
            before = audit.snapshot(ladder.league)
            ladder.league.options = stored
            session.add(ladder.league)
            audit.updated(session, actor, ladder.league, before=before, at=now, reason=f"option {key}")
            return key, option_values(checked)[key]
