"""Which match, and who is acting in it: the checks every match-night action starts with.

A captain acts for the side whose roster (on the match date) names them captain; a commissioner may act
for either side (COMMON-ROLE-1). Every lookup is confined to the actor's guild.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy.orm import aliased
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.refusals import InvalidInput, NotFound, PermissionDenied, RuleViolation
from bot.rules.team import attendance, lineup
from bot.rules.team.model import RosterRole as Role
from bot.rules.team.model import Side
from bot.services.actor import Actor
from bot.services.permissions import is_commissioner
from bot.services.team import match_facts
from bot.services.team.match_facts import MatchContext, match_options
from storage.matches import Match, MatchConfirmation
from storage.models import League, LeagueFormat, Player, RosterEntry, RosterRole, Team
from storage.prepared import param, prepared


class GameRef(NamedTuple):
    """One game of a match: what a score, a confirmation, a dispute or a ruling is about."""

    match_id: int
    round_index: int
    game_number: int


@dataclass(frozen=True)
class Acting:
    """Who is acting in this match: the side they captain (None for an official acting for both)."""

    side: Side | None
    player_id: int | None
    official: bool


async def load_context(
    session: AsyncSession, actor: Actor, league_name: str | None, match_id: int, *, any_league: bool = False
) -> MatchContext:
    # One round trip for the match, its league and both teams: every match-night command starts here.
    found = (await session.exec(_context_query(), params={"match_id": match_id})).first()
    if found is None or found[1].guild_id != actor.guild_id:
        raise NotFound(f"There is no match #{match_id} here. Pick one from the list as you type.")
    match, league, home, away = found
    if not any_league and league_name and league.name_key != league_name.strip().casefold():
        raise NotFound(f"Match #{match_id} belongs to {league.name}, not {league_name}.")
    if league.format is not LeagueFormat.TEAM:
        raise InvalidInput(f"{league.name} is not a team league.")
    sides = {Side.HOME: home, Side.AWAY: away}
    return MatchContext(league, match, sides, match_options(league, match))


def _context_query() -> Any:
    def build() -> Any:
        home, away = aliased(Team), aliased(Team)
        return (
            select(Match, League, home, away)
            .join(League, League.id == Match.league_id)  # type: ignore[arg-type]
            .join(home, home.id == Match.home_team_id)  # type: ignore[arg-type]
            .join(away, away.id == Match.away_team_id)  # type: ignore[arg-type]
            .where(Match.id == param("match_id"))
        )

    return prepared("match context", build)


async def lock_match(session: AsyncSession, match_id: int) -> None:
    """Writers that check a match's facts and then add to them lock its row first, so two at once queue instead
    of both passing the check (PostgreSQL runs at READ COMMITTED). SQLite's writers are serialized already: its
    transaction holds the database's write lock from BEGIN IMMEDIATE, so the statement would only cost a round."""
    if session.get_bind().dialect.name != "sqlite":
        await session.exec(select(Match.id).where(Match.id == match_id).with_for_update())


async def player_id_of(session: AsyncSession, league: League, user_id: int) -> int | None:
    query = prepared(
        "player of user",
        lambda: select(Player.id).where(Player.league_id == param("league"), Player.discord_user_id == param("user")),
    )
    return (await session.exec(query, params={"league": league.id, "user": user_id})).first()


async def acting_in(
    session: AsyncSession,
    actor: Actor,
    context: MatchContext,
    rosters: dict[Side, tuple[attendance.RosterEntry, ...]] | None = None,
) -> Acting:
    """TEAM-LINEUP-11: a captain of one of the teams on the match date, or an official. `rosters`: the match's
    rosters if the caller has read them already."""
    me = await player_id_of(session, context.league, actor.user_id)
    rosters = rosters or await match_facts.rosters(session, context)
    side = side_of_player(rosters, me)
    if side is not None and any(e.player_id == me and e.role is Role.CAPTAIN for e in rosters[side]):
        return Acting(side, me, official=False)
    if is_commissioner(actor, context.league):
        return Acting(None, me, official=True)
    raise RuleViolation("TEAM-LINEUP-11", f"Only the captains of {context.label} (or a commissioner) can do that.")


async def require_side(session: AsyncSession, actor: Actor, context: MatchContext, side: Side, doing: str) -> None:
    acting = await acting_in(session, actor, context)
    if not acting.official and acting.side is not side:
        raise PermissionDenied(f"Only {context.teams[side].name}'s captain (or a commissioner) can {doing}.")


async def captains(session: AsyncSession, context: MatchContext) -> dict[Side, set[int]]:
    rows = (
        await session.exec(
            select(RosterEntry).where(
                col(RosterEntry.team_id).in_([team.id for team in context.teams.values()]),
                RosterEntry.season_id == context.match.season_id,
                RosterEntry.role == RosterRole.CAPTAIN,
            )
        )
    ).all()
    captains: dict[Side, set[int]] = {Side.HOME: set(), Side.AWAY: set()}
    for row in rows:
        side = context.side_of_team(row.team_id)
        if side is not None and row.applies_on(context.match.play_on):
            captains[side].add(row.player_id)
    return captains


def side_of_player(rosters: dict[Side, tuple[attendance.RosterEntry, ...]], player_id: int | None) -> Side | None:
    return next((side for side, entries in rosters.items() if any(e.player_id == player_id for e in entries)), None)


MENTION = re.compile(r"<@!?(\d+)>")


async def player_text(session: AsyncSession, league: League, text: str) -> str:
    """A member mention ("<@123>", as Discord sends "@alice" typed in a text option) as that member's player
    id, the form autocomplete gives; anything else unchanged, for `player_from`."""
    mention = MENTION.fullmatch(text.strip())
    if mention is None:
        return text
    player_id = await player_id_of(session, league, int(mention[1]))
    if player_id is None:
        raise InvalidInput(f"{text.strip()} is not a player in {league.name}; pick a player from the list.")
    return str(player_id)


def player_from(night: lineup.MatchNight, side: Side, text: str) -> int:
    """An autocomplete value (a player id), or a typed name ("Alice" or "@Alice") from the side's roster."""
    typed = text.strip().removeprefix("@")
    if typed.isdigit():
        return int(typed)  # the rules refuse ids that are not on the roster (TEAM-LINEUP-7)
    for entry in night.rosters[side]:
        if entry.name.casefold() == typed.casefold():
            return entry.player_id
    raise InvalidInput(f"{typed!r} is not on {night.team_names[side]}'s roster tonight; pick a player from the list.")


async def require_unsigned(session: AsyncSession, context: MatchContext) -> None:
    """COMMON-SCORE-3: once a captain has signed the scoresheet, the match's facts no longer change here;
    a correction is a commissioner's override, with a reason."""
    query = prepared(
        "match signed", lambda: select(MatchConfirmation.id).where(MatchConfirmation.match_id == param("match_id"))
    )
    signed = (await session.exec(query, params={"match_id": context.match.id})).first()
    if signed is not None:
        raise RuleViolation(
            "COMMON-SCORE-3",
            f"{context.label} has been signed, so it can no longer be changed here; ask a commissioner.",
        )


def score_field(night: lineup.MatchNight, side: Side, players: Sequence[int], player_id: int) -> str:
    """A player's score field as `/score` (home1…away2) and the board's forms show it: the side, the player's place
    in the game's lineup order and their name, e.g. "Away 2 (Carol)"; named in a refusal (COMMON-SCORE-1)."""
    slot = f"{side.value.title()} {players.index(player_id) + 1}"
    name = next((entry.name for entry in night.rosters[side] if entry.player_id == player_id), None)
    return f"{slot} ({name})" if name else slot
