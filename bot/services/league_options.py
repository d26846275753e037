"""A league's dated option versions (COMMON-LEAGUE-2): which version a week is scored under, and a change that
takes effect from the next week not yet played, so weeks already played keep the options they were played under.

Each format's option commands validate the values; this module decides from when they apply and stores them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from operator import itemgetter
from typing import Any

from pydantic import BaseModel
from sqlmodel.ext.asyncio.session import AsyncSession

from bot import formats
from bot.rules import option_versions as rules
from bot.rules.refusals import RuleViolation
from bot.rules.setup import parse_date
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import league_today
from storage.models import League


def versions_of(league: League) -> list[rules.OptionVersion]:
    return rules.versions(league.options, league.option_history)


def options_on(league: League, day: date) -> Mapping[str, Any]:
    """The stored options a week played on `day` is scored under."""
    return rules.in_effect(versions_of(league), day)


def versions_key(league: League) -> str:
    """Every version, as a hashable key for reused standings: any change to them means computing again."""
    return json.dumps([league.options, league.option_history], sort_keys=True, default=str)


async def options_ahead(session: AsyncSession, league: League, now: datetime) -> Mapping[str, Any]:
    """The options of what is still to play: those of today, or of the first day not yet played when that is
    later (a change made after tonight's night closed applies to everything from then on)."""
    today = league_today(league, now)
    if not any(version.since is not None and version.since > today for version in versions_of(league)):
        return options_on(league, today)  # no change waits beyond today: every later day reads the same
    return options_on(league, max(today, await first_unplayed(session, league, now) or today))


async def first_unplayed(session: AsyncSession, league: League, now: datetime) -> date | None:
    """The default start of a change: the day after the last week played (None: nothing played yet, so the
    change applies from the beginning)."""
    played = await formats.of(league).last_played(session, league, league_today(league, now))
    return played + timedelta(days=1) if played is not None else None


async def change(
    session: AsyncSession,
    actor: Actor,
    league: League,
    apply: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    *,
    effective: str | None,
    now: datetime,
    reason: str,
) -> Changed:
    """Apply `apply` (the change, which validates, raising a refusal naming the option) to every version from the start
    date on, audited with before and after. The start is the first day not yet played, or a later `effective`
    date (YYYY-MM-DD); an earlier one is refused: a change never rewrites the weeks played."""
    unplayed = await first_unplayed(session, league, now)
    since = unplayed
    if effective is not None and effective.strip():
        since = parse_date(effective, option="effective")
        if unplayed is not None and since < unplayed:
            raise RuleViolation(
                "COMMON-LEAGUE-2",
                f"`effective` {since} is before {unplayed}: the weeks played up to "
                f"{unplayed - timedelta(days=1)} keep the options they were played under. Give a date from "
                f"{unplayed} on, or leave `effective` out.",
            )
    before = audit.snapshot(league)
    league.options, league.option_history = rules.stored(rules.changed(versions_of(league), since, apply))
    session.add(league)
    audit.updated(session, actor, league, before=before, at=now, reason=f"{reason} from {since or 'the beginning'}")
    today = league_today(league, now)
    ahead = since is not None and since > max(today, unplayed or today)
    return Changed(since, next_week=since == unplayed, ahead=ahead)


@dataclass(frozen=True)
class Changed:
    since: date | None  # the change applies from this day on (None: from the beginning)
    next_week: bool  # from the first day not yet played (no `effective` date, or that one)
    ahead: bool  # it starts later than what is still to play: until then the options in effect stay

    def note(self) -> str:
        """What a reply says about when the change applies."""
        if self.since is None:
            return "It applies from the beginning: no week has been played yet."
        if self.next_week:
            return f"It applies from {self.since}, the next week not yet played; weeks played keep their options."
        if self.ahead:
            return f"It applies from {self.since}; until then the current value stands."
        return f"It applies from {self.since}; weeks played before keep their options."


def history_lines(league: League, schema: type[BaseModel], show: Callable[[Any], str] = repr) -> list[str]:
    """Each option that changed during the league with its values over time, e.g.
    "allow_shorthand: False until 2026-03-10, True since 2026-03-10"; an option never changed is left out."""
    validated = [
        rules.OptionVersion(version.since, schema.model_validate(version.options).model_dump(mode="json"))
        for version in versions_of(league)
    ]
    lines = []
    for name in schema.model_fields:
        spans = rules.key_history(validated, itemgetter(name))
        if len(spans) > 1:
            lines.append(rules.describe(name, spans, show))
    return lines


def typed_value(text: str) -> Any:
    """An option value as typed: JSON (`4`, `true`, `[70, 30]`, `null`), else the plain text (`00:30`)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text.strip()
