"""`/standings` for every format: the league's own table, whichever format it plays.

Team leagues get their conference tables (TEAM-STAND-1), ladder leagues their TLP standings (LADDER-STAND-1/2),
field leagues their season table (FIELD-STAND-1); each format's registration (`bot.formats`) reads its own.
A what-if table is the same reader under other options: computed for the caller, never stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from bot import formats
from bot.clock import Clock
from bot.rules.refusals import InvalidInput, Refusal
from bot.services.actor import Actor
from bot.services.league_options import typed_value
from bot.services.lookup import find_league, find_season
from bot.services.seasons import SeasonShown, SeasonStages
from storage.db import Database


@dataclass(frozen=True)
class LeagueTable:
    """A league's standings in its format's own shape (`view`), with the format that shows and exports them."""

    format: formats.Format
    view: Any
    season: SeasonShown
    what_if: str | None = None  # the options a hypothetical table was computed under, as the reply names them


class LeagueStandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self.readers = {fmt.name: fmt.standings(db, clock) for fmt in formats.registered()}
        self.stages = SeasonStages({name: readers.progress for name, readers in self.readers.items()})

    async def view(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        conference: str | None,
        season: int | None = None,
        what_if: str | None = None,
    ) -> LeagueTable:
        """The league's standings; `conference` only narrows a league whose format has teams; `season` picks an
        earlier season by number. `what_if`: one of the format's named alternatives, or options typed as
        `key=value, key=value`."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            chosen = await find_season(session, league, season)
        fmt = formats.of(league)
        if not fmt.teams and conference is not None and conference.strip():
            raise InvalidInput(
                f"{league.name} is a {league.format.value} league: conferences are only for team leagues. "
                "Leave `conference` out."
            )
        label = what_if.strip() if what_if else ""
        changes = _what_if(fmt, league.options, label) if label else None
        view = await self.readers[fmt.name].table(
            actor, league.name, conference=conference, season=season, what_if=changes
        )
        async with self.db.reading() as session:  # after the table: its results, just computed, are reused
            shown = await self.stages.shown(session, league, chosen, self.clock.now())
        return LeagueTable(fmt, view, shown, label or None)

    async def what_if_names(self, guild_id: int, league_name: str | None) -> list[str]:
        """`what-if:` autocomplete: the named alternatives of the league's format (none while no league is found)."""
        async with self.db.reading() as session:
            try:
                league = await find_league(session, guild_id, league_name)
            except Refusal:
                return []
        return list(formats.of(league).what_ifs)


def _what_if(fmt: formats.Format, options: Mapping[str, Any], typed: str) -> dict[str, Any]:
    """The options a what-if changes: a named alternative, or `key=value` pairs checked against the format."""
    named = {label.casefold(): changes for label, changes in fmt.what_ifs.items()}
    if typed.strip().casefold() in named:
        return dict(named[typed.strip().casefold()])
    changes: dict[str, Any] = {}
    for part in typed.split(","):
        key, equals, value = (piece.strip() for piece in part.partition("="))
        if not equals or key not in fmt.options.model_fields:
            suggestions = "; ".join(f"`{label}`" for label in fmt.what_ifs)
            raise InvalidInput(
                f"`what-if` {part.strip()!r} is neither a suggestion ({suggestions}) nor `option=value` with one of "
                f"the league's options, e.g. `{next(iter(fmt.options.model_fields))}=…`. Pick one from the list."
            )
        changes[key] = typed_value(value)
    try:
        fmt.options.model_validate({**options, **changes})
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(p) for p in problem["loc"]) or "options"
        raise InvalidInput(f"`what-if`: {where} {problem['msg']}. Give another value.") from None
    return changes
