"""Creating leagues and reading a league's whole setup."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from pydantic import ValidationError
from sqlmodel import col, select

from bot import formats
from bot.clock import Clock
from bot.rules import setup as rules
from bot.rules.refusals import InvalidInput, Refusal
from bot.rules.scores import SCORE_LIMIT, ScoreInput, parse_score
from bot.services import audit, league_options
from bot.services.actor import Actor
from bot.services.lookup import current_season, find_league, insert_unique, league_names, league_today
from bot.services.permissions import require_commissioner, require_server_admin
from bot.services.seasons import SeasonShown, SeasonStages
from storage.db import Database
from storage.models import League, LeagueFormat, Machine, Player, Season, Team, Venue


@dataclass(frozen=True)
class VenueSetup:
    venue: Venue
    machines: list[Machine]


@dataclass(frozen=True)
class LeagueSetup:
    league: League
    season: SeasonShown
    venues: list[VenueSetup]
    teams: list[tuple[Team, str | None]]  # team and its home venue's name
    players: list[Player]


class LeagueService:
    def __init__(self, db: Database, clock: Clock, *, default_timezone: str) -> None:
        self.db = db
        self.clock = clock
        self.default_timezone = default_timezone
        self.stages = SeasonStages.of(db, clock)

    async def create(
        self,
        actor: Actor,
        *,
        name: str,
        league_format: str,
        timezone: str | None,
        commissioner_role_id: int | None,
    ) -> League:
        require_server_admin(actor, "start a league")
        _check_commissioner_role(actor, commissioner_role_id)
        clean = rules.clean_name(name, option="name", max_length=rules.LEAGUE_NAME_MAX)
        fmt = rules.league_format(league_format, formats.names())
        required = formats.named(fmt).zone_required
        zone = rules.time_zone(timezone, league_format=fmt, required=required, default=self.default_timezone)
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await insert_unique(
                session,
                League(
                    guild_id=actor.guild_id,
                    name=clean.display,
                    name_key=clean.key,
                    format=LeagueFormat(fmt),
                    timezone=zone,
                    commissioner_role_id=commissioner_role_id,
                    created_at=now,
                    created_by=actor.user_id,
                ),
                f"This server already has a league named {clean.display!r}. Pick another name.",
            )
            assert league.id is not None
            audit.created(session, actor, league, at=now)
            season = Season(league_id=league.id, number=1, name="Season 1")
            session.add(season)
            await session.flush()
            audit.created(session, actor, season, at=now)
        return league

    async def names(self, guild_id: int) -> list[str]:
        async with self.db.reading() as session:
            return await league_names(session, guild_id)

    async def setup(self, actor: Actor, league_name: str | None) -> LeagueSetup:
        """Everything a commissioner configured, for `/league show`. Any member may read it."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            season = await self.stages.shown(session, league, await current_season(session, league), self.clock.now())
            venues = (await session.exec(select(Venue).where(Venue.league_id == league.id).order_by(Venue.name))).all()
            machines = (
                await session.exec(
                    select(Machine)
                    .where(Machine.league_id == league.id, Machine.removed_at == None)  # noqa: E711
                    .order_by(Machine.model_name, col(Machine.id))
                )
            ).all()
            teams = (await session.exec(select(Team).where(Team.league_id == league.id).order_by(Team.name))).all()
            players = (
                await session.exec(select(Player).where(Player.league_id == league.id).order_by(Player.display_name))
            ).all()
        venue_names = {venue.id: venue.name for venue in venues}
        return LeagueSetup(
            league=league,
            season=season,
            venues=[VenueSetup(venue, [m for m in machines if m.venue_id == venue.id]) for venue in venues],
            teams=[(team, venue_names.get(team.home_venue_id)) for team in teams],
            players=list(players),
        )

    async def set_official_roles(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        commissioner_role_id: int | None = None,
        add_role_id: int | None = None,
        remove_role_id: int | None = None,
    ) -> League:
        """COMMON-ROLE-1: the league's commissioner role, and any extra roles whose members are officials too."""
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "change who the commissioners are")
            for role_id in (commissioner_role_id, add_role_id):
                _check_commissioner_role(actor, role_id)
            before = audit.snapshot(league)
            if commissioner_role_id is not None:
                league.commissioner_role_id = commissioner_role_id
            extra = [r for r in league.extra_commissioner_role_ids if r not in (add_role_id, remove_role_id)]
            league.extra_commissioner_role_ids = extra + ([add_role_id] if add_role_id is not None else [])
            session.add(league)
            audit.updated(session, actor, league, before=before, at=now)
        return league

    async def effective_dates(self, guild_id: int, league_name: str | None) -> list[tuple[str, str]]:
        """`effective:` autocomplete (COMMON-LEAGUE-2): the first day not yet played, then the weeks after it, as
        (label, YYYY-MM-DD); none while no league is found."""
        now = self.clock.now()
        async with self.db.reading() as session:
            try:
                league = await find_league(session, guild_id, league_name)
            except Refusal:
                return []
            first = await league_options.first_unplayed(session, league, now) or league_today(league, now)
        days = [first + timedelta(weeks=week) for week in range(EFFECTIVE_WEEKS_OFFERED)]
        labels = ["the next week not yet played", *(f"{week} weeks later" for week in range(1, len(days)))]
        return [(f"{day:%a %d %b %Y}: {label}", day.isoformat()) for day, label in zip(days, labels, strict=True)]

    async def options_over_time(self, actor: Actor, league_name: str | None) -> OptionsOverTime:
        """Any member may read how scores are typed today and how the league's options changed (COMMON-LEAGUE-2)."""
        async with self.db.reading() as session:
            league = await find_league(session, actor.guild_id, league_name)
            ahead = await league_options.options_ahead(session, league, self.clock.now())
        schema = formats.of(league).options
        return OptionsOverTime(
            league, schema.model_validate(ahead).score_input, league_options.history_lines(league, schema)
        )

    async def set_score_input(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        allow_shorthand: bool | None,
        score_ceiling: str | None,
        effective: str | None = None,
    ) -> ScoreInputSet:
        """COMMON-AMB-3, COMMON-SCORE-1: whether members may type shorthand like 45.2M, and the highest score the
        league accepts (typed as a score: "100,000,000,000" or "100B"). Checked against the format's options;
        dated like every option (COMMON-LEAGUE-2, `league_options.change`)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "change how scores are written")
            changes: dict[str, Any] = {}
            if allow_shorthand is not None:
                changes["allow_shorthand"] = allow_shorthand
            if score_ceiling is not None:
                changes["score_ceiling"] = parse_score(score_ceiling, field="score_ceiling", rules=_ANY_CEILING)
            schema = formats.of(league).options

            def change(stored: Mapping[str, Any]) -> dict[str, Any]:
                merged = {**stored, **changes}
                try:
                    schema.model_validate(merged)
                except ValidationError as error:
                    raise InvalidInput(
                        f"score_ceiling cannot be {score_ceiling!r}: {error.errors()[0]['msg']}."
                    ) from None
                return merged

            changed = await league_options.change(
                session, actor, league, change, effective=effective, now=now, reason="score entry"
            )
            history = [
                line
                for line in league_options.history_lines(league, schema)
                if line.startswith(("allow_shorthand:", "score_ceiling:"))
            ]
            ahead = schema.model_validate(await league_options.options_ahead(session, league, now))
        return ScoreInputSet(league, ahead.score_input, changed, history)

    async def set_use_ratings(
        self, actor: Actor, league_name: str | None, *, use: bool, effective: str | None = None
    ) -> UseRatingsSet:
        """Whether the league uses the players' ratings; what that changes is the format's (its option's
        description). Dated like every option (COMMON-LEAGUE-2): from the next week not yet played, or a later
        `effective` date; nothing stored is redone."""
        now = self.clock.now()
        async with self.db.writing() as session:
            league = await find_league(session, actor.guild_id, league_name)
            require_commissioner(actor, league, "change whether the league uses ratings")
            schema = formats.of(league).options
            option = schema.model_fields.get(USE_RATINGS)
            if option is None:
                raise InvalidInput(f"{league.name}'s format has no use for ratings yet.")
            changed = await league_options.change(
                session,
                actor,
                league,
                lambda stored: {**stored, USE_RATINGS: use},  # a bool always passes; the rest stays as stored
                effective=effective,
                now=now,
                reason=f"option {USE_RATINGS}",
            )
            history = [line for line in league_options.history_lines(league, schema) if line.startswith(USE_RATINGS)]
        return UseRatingsSet(league, use, option.description or USE_RATINGS, changed, history)


@dataclass(frozen=True)
class OptionsOverTime:
    """`/league config` with nothing to change: today's score entry and every option's changes over time."""

    league: League
    rules: ScoreInput
    history: list[str]


@dataclass(frozen=True)
class ScoreInputSet:
    league: League
    rules: ScoreInput  # for the scores entered from now on
    changed: league_options.Changed
    history: list[str]  # allow_shorthand and score_ceiling over time, where they changed


EFFECTIVE_WEEKS_OFFERED = 5
USE_RATINGS = "use_ratings"  # the option each format that puts ratings to use names so (docs/ratings.md)

_ANY_CEILING = ScoreInput(allow_shorthand=True, ceiling=SCORE_LIMIT)
"""How a commissioner may type a ceiling: any exact form or shorthand, up to the storable limit."""


def _check_commissioner_role(actor: Actor, role_id: int | None) -> None:
    """@everyone's role id is the guild's id; naming it would make every member a commissioner."""
    if role_id == actor.guild_id:
        raise InvalidInput("@everyone cannot be the commissioner role: pick a role only the league's officials have.")


@dataclass(frozen=True)
class UseRatingsSet:
    league: League
    use: bool
    effect: str  # what using ratings changes in the league's format
    changed: league_options.Changed
    history: list[str]  # use_ratings over time, where it changed
