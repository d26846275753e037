"""/help in a team league: the member's team and role on its roster, and what is due in their team's matches of
the last two days and today, read from each match's scoreboard (check-in, lineups, scores, confirmations,
tie-breaker, signing) and, for officials, the open disputes of those matches."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.formats import Guide
from bot.rules.team import attendance, lineup
from bot.rules.team.model import RosterRole, Side
from bot.rules.team.options import TeamOptions
from bot.services.help import Asker, Due, Role, Situation
from bot.services.lookup import current_season
from bot.services.team import match_facts, next_steps, scoreboard
from bot.services.team.match_access import player_id_of, side_of_player
from bot.services.team.match_night import CHOICE_WINDOW
from bot.services.team.scoreboard import Scoreboard
from storage.matches import Match
from storage.models import League, RosterEntry, Team
from storage.models import RosterRole as StoredRole

CONFIRM = "**Confirm** under its scores"
THEIR_CONFIRM = "their **Confirm**"
SIGN = "**Sign scoresheet** on the scoreboard"


async def situation(session: AsyncSession, league: League, asker: Asker, now: datetime) -> Situation:
    zone = ZoneInfo(league.timezone)
    today = now.astimezone(zone).date()
    season = await current_season(session, league)
    player_id = await player_id_of(session, league, asker.user_id)
    entries = [] if player_id is None else await _roster_entries(session, season.id or 0, player_id)
    in_force = [entry for entry in entries if entry.applies_on(today)]
    matches = (
        await session.exec(
            select(Match)
            .where(Match.season_id == season.id, Match.play_on >= today - CHOICE_WINDOW, Match.play_on <= today)
            .order_by(col(Match.play_on), col(Match.id))
        )
    ).all()
    due: list[Due] = []
    captained = {entry.team_id for entry in in_force if entry.role is StoredRole.CAPTAIN}
    cutoff = TeamOptions.model_validate(league.options).roster_cutoff
    if any(m.play_on == today and _teams(m) & captained for m in matches) and now.astimezone(zone).time() < cutoff:
        due.append(Due(f"Roster changes for tonight close at {cutoff:%H:%M}", "`/roster add` · `/roster drop`"))
    for match in matches:
        mine = bool(_teams(match) & {entry.team_id for entry in entries})
        if not (mine or asker.official):
            continue
        context = await match_facts.context_for(session, league, match)
        if mine:
            due += _match_due(await scoreboard.build(session, context, now, photos=False), player_id or 0, now)
        if asker.official:  # TEAM-DISP-1: the commissioner rules
            due += [
                Due(f"Dispute #{challenge.id} on {_label(context, today)} awaits your ruling", "`/match ruling`")
                for challenge in await scoreboard.open_challenges(session, match.id or 0)
            ]
    return Situation(*await _part(session, in_force, player_id), tuple(due))


def _label(context: match_facts.MatchContext, today: date) -> str:
    """The match as its scoreboard names it; with its day unless it is tonight's."""
    day = context.match.play_on
    return context.label if day == today else f"{context.label} ({day:%a} {day.day} {day:%b})"


def _teams(match: Match) -> set[int]:
    return {match.home_team_id, match.away_team_id}


async def _roster_entries(session: AsyncSession, season_id: int, player_id: int) -> list[RosterEntry]:
    query = select(RosterEntry).where(RosterEntry.season_id == season_id, RosterEntry.player_id == player_id)
    return list((await session.exec(query)).all())


async def _part(session: AsyncSession, in_force: list[RosterEntry], player_id: int | None) -> tuple[Role, str]:
    if not in_force:
        if player_id is None:
            return Role.NEWCOMER, "not a player of this league yet"
        return Role.PLAYER, "a registered player, on no team's roster today"
    teams = {
        team.id: team.name
        for team in (
            await session.exec(select(Team).where(col(Team.id).in_([entry.team_id for entry in in_force])))
        ).all()
    }
    parts = [f"{entry.role.value} of {teams[entry.team_id]}" for entry in in_force]
    captain = any(entry.role is StoredRole.CAPTAIN for entry in in_force)
    return (Role.CAPTAIN if captain else Role.PLAYER), " and ".join(parts)


def _match_due(board: Scoreboard, player_id: int, now: datetime) -> list[Due]:
    """What the player (and, as captain, their team) still has to do in one match."""
    context, night, result = board.context, board.night, board.result
    side = side_of_player(dict(night.rosters), player_id)
    if side is None or result.final:
        return []
    today = now.astimezone(context.zone).date()
    label, other = _label(context, today), context.teams[side.other].name
    captain = any(e.player_id == player_id and e.role is RosterRole.CAPTAIN for e in night.rosters[side])
    due = []
    if context.match.play_on == today:  # tonight's match: check-in and lineups
        if player_id not in attendance.present_players(night.visits, side, now):
            due.append(Due(f"Check in for tonight's match, {label}", "`/checkin`"))
        if captain:
            due += _lineup_due(board, side)
    unconfirmed = sorted({(s.round_index, s.game_number, s.entered_for) for s in board.scores if not s.confirmed_at})
    mine = {(s.round_index, s.game_number) for s in board.scores if s.player_id == player_id}
    for round_index, game, entered_for in unconfirmed:
        if captain and entered_for is not side:
            due.append(Due(f"{label}: round {round_index} game {game} awaits your confirmation", CONFIRM))
        elif captain or (round_index, game) in mine:
            due.append(Due(f"{label}: round {round_index} game {game} waits for the captain of {other}", THEIR_CONFIRM))
    if captain:
        due += _scores_due(board, label)
        if result.needs_tiebreaker:
            due.append(Due(f"{label} is level: the tie-breaker decides it", "`/tiebreak`"))
        if board.ready_to_sign and side in board.unsigned:  # TEAM-MATCH-4
            due.append(Due(f"Check the scoresheet of {label} and sign it", SIGN))
    if board.open_challenges:
        due.append(Due(f"{label} is disputed: a commissioner rules on it", "`/match show`"))
    return due


def _lineup_due(board: Scoreboard, side: Side) -> list[Due]:
    """TEAM-LINEUP-2: in the first round not declared by both teams, the first declarer declares, then the other."""
    label = board.context.label
    declaration = next_steps.lineup_turn(board)
    if declaration is None:
        return []
    round_index, turn = declaration
    if turn is side:
        return [Due(f"Your lineup for round {round_index} of {label} is due", "`/lineup`")]
    if any(d.side is side and d.round_index == round_index for d in board.night.declarations):
        return []
    first = board.context.teams[turn].name
    return [Due(f"Round {round_index} of {label}: {first} declares first, then your lineup", "`/lineup`")]


def _scores_due(board: Scoreboard, label: str) -> list[Due]:
    """Games of rounds both teams declared that have no scores yet (either captain enters them)."""
    entered = {(s.round_index, s.game_number) for s in board.scores}
    due = []
    for plan in lineup.round_plan(board.context.options):
        lineups = match_facts.effective_lineups(board.night, plan.index)
        if len(lineups) < len(Side):
            break
        games = [n for n in range(1, len(lineups[plan.first_declarer].games) + 1) if (plan.index, n) not in entered]
        if games:
            numbers = ", ".join(str(n) for n in games)
            due.append(Due(f"{label}: round {plan.index} game(s) {numbers} need scores", "`/score`"))
    return due


GUIDE = Guide(
    night=(
        "Two teams meet at the home team's venue. Players check in; then four rounds (two of Doubles, two of "
        "Singles): in each, one captain declares a lineup and picks the machines, the other answers. A captain "
        "enters each game's scores, the opposing captain confirms them (or disputes), and both captains sign the "
        "scoresheet when every game is in."
    ),
    commands={
        Role.OFFICIAL: (
            "`/schedule generate` · `/schedule tiebreaker` — the season's matches, a tie-breaker match",
            "`/match ruling` — rule on a dispute",
            "`/match forfeit` · `/match walkout` — forfeits",
            "`/admin override` — correct a fact, with a reason",
            "`/season postseason` · `/season new` — date the post-season, then start the next season",
        ),
        Role.CAPTAIN: (
            "`/roster add` · `/roster drop` — changes, by the cutoff on the day",
            "`/match scout` — the other team's most-picked machines, before the match",
            "`/lineup` — declare your next round",
            "`/score` — enter a game's scores; **Confirm** or **Dispute** the other team's",
            "`/tiebreak` — a level match's tie-breaker",
            "`/match played-out` · `/match evening-game` — the other team forfeited: the evening you still play",
            "**Sign scoresheet** — when every game is in",
        ),
        Role.PLAYER: (
            "`/checkin` — check in when you arrive",
            "`/match show` — the living scoreboard",
            "`/schedule show` — your team's matches",
            "`/standings` — the league table",
        ),
        Role.NEWCOMER: (
            "`/league show` — the league's teams, venues and players",
            "`/schedule show` — when and where teams play",
            "A commissioner or a team's captain puts you on a roster (`/roster add`).",
        ),
    },
    situation=situation,
)
