"""Who may play in a playoff match: eligibility (TEAM-PO-2/3) and players on two playoff teams (TEAM-MULTI-2/3).

No choice is stored for a player on two teams: the first playoff lineup that names them is the fact that
locks them to that team (TEAM-MULTI-2), so the check reads the lineups already declared.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.refusals import RuleViolation
from bot.rules.team import lineup
from bot.rules.team import playoffs as playoff_rules
from bot.rules.team import roster as roster_rules
from bot.rules.team.model import Side
from bot.services.team import match_facts
from bot.services.team.match_facts import MatchContext
from bot.services.team.playoffs import eligibility_facts, neutral_venue_exclusions, playoff_eligible_players
from storage.matches import Match, MatchKind, MatchLineup
from storage.models import Conference, RosterEntry, Season, Team


async def eligible(session: AsyncSession, context: MatchContext, side: Side) -> frozenset[int] | None:
    """In a playoff match, the side's eligible players (TEAM-PO-2/3); None in any other match."""
    if context.match.kind is not MatchKind.PLAYOFF:
        return None
    season = await session.get(Season, context.match.season_id)
    assert season is not None
    return await playoff_eligible_players(session, season, context.teams[side])


async def excluded(session: AsyncSession, context: MatchContext, today: date) -> frozenset[int]:
    """Machines a playoff match at a neutral venue leaves out of play (TEAM-PO-5); none in other matches."""
    exclusions = await neutral_venue_exclusions(session, context.league, context.match, today=today)
    return frozenset(exclusion.machine.machine for exclusion in exclusions)


async def night(session: AsyncSession, context: MatchContext, today: date) -> lineup.MatchNight:
    """The match night as the lineup rules should see it: at a neutral playoff venue the excluded machines are
    not in play at all (TEAM-PO-5), so TEAM-MACH-1 counts only the machines that are."""
    loaded = await match_facts.night(session, context)
    left_out = await excluded(session, context, today)
    return replace(loaded, machines=tuple(m for m in loaded.machines if m.machine_id not in left_out))


async def check_machines(session: AsyncSession, context: MatchContext, machines: list[int], today: date) -> None:
    """TEAM-PO-5: refuse a pick of a machine excluded at this neutral venue, in the catalog's words."""
    exclusions = await neutral_venue_exclusions(session, context.league, context.match, today=today)
    for machine in machines:
        playoff_rules.check_machine_pick(machine, exclusions)


async def check(
    session: AsyncSession, context: MatchContext, side: Side, night: lineup.MatchNight, players: list[int]
) -> None:
    """Refuse a playoff lineup naming an ineligible player (TEAM-PO-2/3), or a player locked to (or playing
    tonight for) another team (TEAM-MULTI-2/3)."""
    if context.match.kind is not MatchKind.PLAYOFF:
        return
    season = await session.get(Season, context.match.season_id)
    assert season is not None
    team = context.teams[side]
    facts = await eligibility_facts(session, season, team)
    names = {entry.player_id: entry.name for entry in night.rosters[side]}
    for player in players:
        name = names.get(player, "That player")
        try:
            if facts.regular_season_end is None:
                raise RuleViolation("TEAM-PO-3", f"{name} did not play in the regular season")
            playoff_rules.check_playoff_player(
                player, name, facts.team, facts.spells, facts.games, regular_season_end=facts.regular_season_end
            )
        except RuleViolation as refused:
            fix = (
                f": only players on the roster of {team.name} in the last regular-season week play its playoffs."
                if refused.rule_id == "TEAM-PO-2"
                else f" for {team.name}, so cannot play in its playoffs."
            )
            raise RuleViolation(refused.rule_id or "TEAM-PO-3", refused.message.rstrip(".") + fix) from None
        await _check_other_team(session, context, side, player, name)


async def _check_other_team(session: AsyncSession, context: MatchContext, side: Side, player: int, name: str) -> None:
    refs = await _team_refs(session, context, player)
    lineup_team = refs[context.teams[side].id or 0]
    playoffs = select(Match).where(Match.season_id == context.match.season_id, Match.kind == MatchKind.PLAYOFF)
    playoff_team_ids = {team for m in (await session.exec(playoffs)).all() for team in (m.home_team_id, m.away_team_id)}
    appearances = await _appearances(session, context, player)
    first = next((team_id for team_id, _ in appearances), None)
    roster_rules.playoff_team_lock(
        name,
        lineup_team,
        tuple(ref for team_id, ref in refs.items() if team_id in playoff_team_ids),
        refs.get(first) if first is not None else None,
    )
    roster_rules.check_one_match_per_night(
        name, context.match.id or 0, context.match.play_on, tuple(appearance for _, appearance in appearances)
    )


async def _team_refs(session: AsyncSession, context: MatchContext, player: int) -> dict[int, roster_rules.TeamRef]:
    """The player's teams this season, with conference and evening, keyed by team id."""
    rows = (
        await session.exec(
            select(Team, Conference.name)
            .join(RosterEntry, RosterEntry.team_id == Team.id)  # type: ignore[arg-type]
            .join(Conference, Conference.id == Team.conference_id, isouter=True)  # type: ignore[arg-type]
            .where(RosterEntry.player_id == player, RosterEntry.season_id == context.match.season_id)
        )
    ).all()
    return {
        team.id or 0: roster_rules.TeamRef(team.id or 0, team.name, conference or "", team.match_weekday or 0)
        for team, conference in rows
    }


async def _appearances(
    session: AsyncSession, context: MatchContext, player: int
) -> list[tuple[int, roster_rules.PlayoffAppearance]]:
    """The player's playoff lineups in other matches, earliest first: (team id, appearance)."""
    rows = (
        await session.exec(
            select(MatchLineup, Match)
            .join(Match, col(Match.id) == MatchLineup.match_id)
            .where(
                Match.season_id == context.match.season_id,
                Match.kind == MatchKind.PLAYOFF,
                Match.id != context.match.id,
            )
            .order_by(col(MatchLineup.declared_at))
        )
    ).all()
    names = dict((await session.exec(select(Team.id, Team.name).where(Team.league_id == context.league.id))).all())
    found = []
    for row, match in rows:
        if any(player in game["players"] for game in row.games):
            team_id = match.home_team_id if row.side is Side.HOME else match.away_team_id
            label = f"{names[match.away_team_id]} at {names[match.home_team_id]} ({match.play_on:%a %Y-%m-%d})"
            found.append((team_id, roster_rules.PlayoffAppearance(match.id or 0, label, match.play_on)))
    return found
