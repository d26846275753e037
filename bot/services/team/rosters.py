"""Team rosters (TEAM-ROSTER-*, TEAM-MULTI-1): putting a team's first roster together, then dated changes.

A team's first roster is assembled entry by entry with no date (TEAM-ROSTER-9) and checked as a whole
when it is submitted; from then on every add, drop or role change is one dated change that must pass
`bot.rules.team.roster.validate_roster_change`. The service loads the facts those rules need, asks
them, and stores the result as roster entries (a role change closes one entry and opens the next).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import setup as setup_rules
from bot.rules.refusals import Conflict, InvalidInput, NotFound, RuleViolation
from bot.rules.team import roster as rules
from bot.rules.team.model import RosterRole as Role
from bot.rules.team.options import TeamOptions
from bot.rules.team.strength import RosterStrength, roster_strength
from bot.services import audit
from bot.services.actor import Actor
from bot.services.discipline import require_in_good_standing
from bot.services.league_options import options_ahead
from bot.services.lookup import current_season, find_league, find_team, insert_unique
from bot.services.permissions import is_commissioner
from bot.services.players import Member
from bot.services.ratings import RatingService
from storage.db import Database
from storage.matches import Match, MatchKind
from storage.models import (
    Conference,
    League,
    LeagueFormat,
    Player,
    RosterEnd,
    RosterEntry,
    RosterRole,
    Season,
    Team,
)


@dataclass(frozen=True)
class RosterLine:
    player: Player
    role: RosterRole
    ifpa_rank: int | None


@dataclass(frozen=True)
class RosterView:
    league: League
    team: Team
    on: date | None  # None while the first roster is still being put together
    lines: list[RosterLine]
    strength: RosterStrength | None = None  # the league's `use_ratings` option: IFPA figures beside ratings


@dataclass(frozen=True)
class _Scope:
    league: League
    season: Season
    team: Team
    options: TeamOptions


class RosterService:
    def __init__(self, db: Database, clock: Clock, ratings: RatingService) -> None:
        self.db = db
        self.clock = clock
        self.ratings = ratings

    # --- commands -----------------------------------------------------------------------------

    async def add(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        team_name: str,
        member: Member,
        role: str,
        effective: date | None,
        ifpa_rank: int | None,
        adult: bool,
    ) -> RosterView:
        wanted = RosterRole(role)
        rank = setup_rules.ifpa_rank(ifpa_rank)
        async with self.db.writing() as session:
            scope = await self._scope(session, actor, league_name, team_name)
            player = await self._player_for(session, actor, scope.league, member, rank=rank, adult=adult)
            if not await self._is_formed(session, scope):
                await self._require_forming_editor(session, actor, scope)
                await self._add_while_forming(session, actor, scope, player, wanted)
                return await self._view(session, scope, None)
            on = effective or self._today(scope.league)
            addition = await self._new_player(session, scope, player, wanted, on)
            change = rules.RosterChange(effective_on=on, adds=(addition,))
            return await self._change(session, actor, scope, change)

    async def drop(
        self, actor: Actor, league_name: str | None, *, team_name: str, member_id: int, effective: date | None
    ) -> RosterView:
        async with self.db.writing() as session:
            scope = await self._scope(session, actor, league_name, team_name)
            player = await self._registered(session, scope.league, member_id)
            if not await self._is_formed(session, scope):
                await self._require_forming_editor(session, actor, scope)
                entry = await self._forming_entry(session, scope, player)
                audit.deleted(session, actor, entry, at=self.clock.now())
                await session.delete(entry)
                return await self._view(session, scope, None)
            on = effective or self._today(scope.league)
            change = rules.RosterChange(effective_on=on, drops=(player.id or 0,))
            return await self._change(session, actor, scope, change)

    async def set_role(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        team_name: str,
        member_id: int,
        role: str,
        effective: date | None,
    ) -> RosterView:
        wanted = RosterRole(role)
        async with self.db.writing() as session:
            scope = await self._scope(session, actor, league_name, team_name)
            player = await self._registered(session, scope.league, member_id)
            if not await self._is_formed(session, scope):
                await self._require_forming_editor(session, actor, scope)
                entry = await self._forming_entry(session, scope, player)
                before = audit.snapshot(entry)
                entry.role = wanted
                session.add(entry)
                audit.updated(session, actor, entry, before=before, at=self.clock.now())
                return await self._view(session, scope, None)
            on = effective or self._today(scope.league)
            change = rules.RosterChange(effective_on=on, role_changes=(rules.RoleChange(player.id or 0, Role(wanted)),))
            return await self._change(session, actor, scope, change)

    async def set_adult(
        self, actor: Actor, league_name: str | None, *, team_name: str, member_id: int, adult: bool
    ) -> RosterView:
        """TEAM-ROSTER-11: correct a rostered player's adult attestation in place, audited (no drop and re-add).

        The attestation belongs to the player, so it holds on every team; whoever may change this team's
        roster may correct it, at any hour, since it changes a record rather than the roster."""
        async with self.db.writing() as session:
            scope = await self._scope(session, actor, league_name, team_name)
            player = await self._registered(session, scope.league, member_id)
            formed, today = await self._is_formed(session, scope), self._today(scope.league)
            if formed:
                listed = await self._current_or_coming(session, scope, today)
                if not await self._captains_or_commissioner(session, actor, scope, listed):
                    raise RuleViolation("TEAM-ROSTER-6", f"Only a captain of {scope.team.name} may correct its roster.")
            else:
                await self._require_forming_editor(session, actor, scope)
                listed = await self._entries(session, scope, forming=True)
            if all(entry.player_id != player.id for entry in listed):
                raise NotFound(f"{player.display_name} is not on {scope.team.name}'s roster.")
            if (player.adult_attested_at is not None) == adult:
                state = "recorded as an adult" if adult else "not recorded as an adult"
                raise Conflict(f"{player.display_name} is already {state}; nothing changed.")
            snapshot = audit.snapshot(player)
            now = self.clock.now()
            player.adult_attested_at = now if adult else None
            session.add(player)
            audit.updated(session, actor, player, before=snapshot, at=now)
            # the roster as it stands today, or from the day a roster submitted for later takes effect
            shown = max(today, min(e.starts_on for e in listed if e.starts_on)) if formed else None
            return await self._view(session, scope, shown)

    async def submit(
        self, actor: Actor, league_name: str | None, *, team_name: str, effective: date | None
    ) -> RosterView:
        """TEAM-ROSTER-9: the first roster, checked as a whole and put in force from `effective`."""
        async with self.db.writing() as session:
            scope = await self._scope(session, actor, league_name, team_name)
            if await self._is_formed(session, scope):
                raise Conflict(f"{scope.team.name}'s roster was already submitted; change it with /roster add or drop.")
            await self._require_forming_editor(session, actor, scope)
            on = effective or self._today(scope.league)
            forming = await self._entries(session, scope, forming=True)
            players = {p.id: p for p in await self._players(session, [e.player_id for e in forming])}
            newcomers = []
            for entry in forming:
                newcomers.append(
                    await self._new_player(
                        session, scope, players[entry.player_id], entry.role, on, rank=entry.ifpa_rank
                    )
                )
            rules.validate_initial_roster(
                tuple(newcomers), on=on, team_match_weekday=self._weekday(scope.team), options=scope.options
            )
            for entry in forming:
                entry.starts_on = on
                session.add(entry)
                await session.flush()
                audit.created(session, actor, entry, at=self.clock.now())
            return await self._view(session, scope, on)

    async def show(self, actor: Actor, league_name: str | None, *, team_name: str, on: date | None) -> RosterView:
        async with self.db.reading() as session:
            scope = await self._scope(session, actor, league_name, team_name)
            if not await self._is_formed(session, scope):
                return await self._view(session, scope, None)
            return await self._view(session, scope, on or self._today(scope.league))

    async def team_names(self, guild_id: int, league_name: str | None) -> list[str]:
        async with self.db.reading() as session:
            try:
                league = await find_league(session, guild_id, league_name)
            except (NotFound, InvalidInput):
                return []
            return list((await session.exec(select(Team.name).where(Team.league_id == league.id))).all())

    # --- the dated change ------------------------------------------------------------------------

    async def _change(
        self, session: AsyncSession, actor: Actor, scope: _Scope, change: rules.RosterChange
    ) -> RosterView:
        on = change.effective_on
        before = await self._entries(session, scope, on=on)
        players = {p.id: p for p in await self._players(session, [e.player_id for e in before])}
        state = rules.RosterState(
            on=on,
            entries=tuple(
                rules.RosterEntry(e.player_id, players[e.player_id].display_name, Role(e.role), e.ifpa_rank)
                for e in before
            ),
        )
        context = rules.RosterContext(
            requested_by_captain=await self._captains_or_commissioner(session, actor, scope, before),
            submitted_at=self.clock.now(),
            zone=scope.league.timezone,
            team_match_weekday=self._weekday(scope.team),
            regular_season_ends_on=await self._regular_season_end(session, scope),
        )
        after = rules.validate_roster_change(state, change, context, scope.options)
        await self._store(session, actor, scope, before, after)
        return await self._view(session, scope, on)

    async def _store(
        self, session: AsyncSession, actor: Actor, scope: _Scope, before: list[RosterEntry], after: rules.RosterState
    ) -> None:
        """Close entries that ended or changed role on the date, open entries for new players and roles."""
        now = self.clock.now()
        new_roles = {e.player_id: e for e in after.entries}
        for entry in before:
            kept = new_roles.get(entry.player_id)
            if kept is not None and RosterRole(kept.role) == entry.role:
                continue
            snapshot = audit.snapshot(entry)
            entry.ends_on = after.on
            entry.end_reason = RosterEnd.DROPPED if kept is None else RosterEnd.ROLE_CHANGED
            session.add(entry)
            audit.updated(session, actor, entry, before=snapshot, at=now)
        unchanged = {e.player_id for e in before if e.player_id in new_roles and e.role == new_roles[e.player_id].role}
        for line in after.entries:
            if line.player_id in unchanged:
                continue
            entry = RosterEntry(
                league_id=scope.league.id or 0,
                season_id=scope.season.id or 0,
                team_id=scope.team.id or 0,
                player_id=line.player_id,
                role=RosterRole(line.role),
                starts_on=after.on,
                ifpa_rank=line.ifpa_rank,
            )
            session.add(entry)
            await session.flush()
            audit.created(session, actor, entry, at=now)

    # --- facts -----------------------------------------------------------------------------------

    async def _scope(self, session: AsyncSession, actor: Actor, league_name: str | None, team_name: str) -> _Scope:
        league = await find_league(session, actor.guild_id, league_name)
        if league.format is not LeagueFormat.TEAM:
            raise InvalidInput(f"{league.name} is a {league.format.value} league; rosters belong to team leagues.")
        team = await find_team(session, league, team_name)
        # Writers lock the team's row: concurrent changes to one roster run one after the other on PostgreSQL
        # too, so two adds cannot both pass the 12-player or IFPA limits (SQLite already serialises writers).
        await session.exec(select(Team.id).where(Team.id == team.id).with_for_update())
        season = await current_season(session, league)
        # COMMON-LEAGUE-2: the options of what is still to play, as every command reads them (`use_ratings` too)
        ahead = await options_ahead(session, league, self.clock.now())
        return _Scope(league, season, team, TeamOptions.model_validate(ahead))

    async def _entries(
        self, session: AsyncSession, scope: _Scope, *, on: date | None = None, forming: bool = False
    ) -> list[RosterEntry]:
        query = select(RosterEntry).where(
            RosterEntry.team_id == scope.team.id, RosterEntry.season_id == scope.season.id
        )
        rows = list((await session.exec(query.order_by(col(RosterEntry.id)))).all())
        if forming:
            return [row for row in rows if row.starts_on is None]
        return [row for row in rows if on is not None and row.applies_on(on)]

    async def _current_or_coming(self, session: AsyncSession, scope: _Scope, today: date) -> list[RosterEntry]:
        """Entries in force today or starting later: the players a correction may concern."""
        rows = await self._entries(session, scope, on=today)
        query = select(RosterEntry).where(
            RosterEntry.team_id == scope.team.id,
            RosterEntry.season_id == scope.season.id,
            col(RosterEntry.starts_on) > today,
        )
        return rows + list((await session.exec(query)).all())

    async def _regular_season_end(self, session: AsyncSession, scope: _Scope) -> date | None:
        """TEAM-ROSTER-10: the last scheduled regular-season match date; None while there is no schedule."""
        query = select(func.max(Match.play_on)).where(
            Match.season_id == scope.season.id, Match.kind == MatchKind.REGULAR
        )
        return (await session.exec(query)).one()

    async def _is_formed(self, session: AsyncSession, scope: _Scope) -> bool:
        query = select(RosterEntry.id).where(
            RosterEntry.team_id == scope.team.id,
            RosterEntry.season_id == scope.season.id,
            col(RosterEntry.starts_on).is_not(None),
        )
        return (await session.exec(query)).first() is not None

    async def _players(self, session: AsyncSession, ids: list[int]) -> list[Player]:
        return list((await session.exec(select(Player).where(col(Player.id).in_(ids)))).all())

    async def _registered(self, session: AsyncSession, league: League, member_id: int) -> Player:
        query = select(Player).where(Player.league_id == league.id, Player.discord_user_id == member_id)
        player = (await session.exec(query)).first()
        if player is None:
            raise NotFound(f"<@{member_id}> is not a player in {league.name}.")
        return player

    async def _player_for(
        self, session: AsyncSession, actor: Actor, league: League, member: Member, *, rank: int | None, adult: bool
    ) -> Player:
        """The member's player record, registering them on first use; keeps rank and attestation current."""
        if member.is_bot:
            raise InvalidInput(f"{member.display_name} is a bot; only people can play. Pick a member.")
        query = select(Player).where(Player.league_id == league.id, Player.discord_user_id == member.user_id)
        player = (await session.exec(query)).first()
        now = self.clock.now()
        if player is None:
            name = setup_rules.clean_name(member.display_name, option="member", max_length=setup_rules.PLAYER_NAME_MAX)
            player = Player(
                league_id=league.id or 0, discord_user_id=member.user_id, display_name=name.display, registered_at=now
            )
        if player.id is not None:  # COMMON-PLAYER-2, from the discipline ledger (it knows when suspensions end)
            today = now.astimezone(ZoneInfo(league.timezone)).date()
            await require_in_good_standing(session, league, [player.id], on=today, doing="join a roster")
        snapshot = audit.snapshot(player) if player.id is not None else None
        if rank is not None:
            player.ifpa_rank = rank
        if adult and player.adult_attested_at is None:
            player.adult_attested_at = now
        if snapshot is None:
            await insert_unique(session, player, f"{player.display_name} was registered a moment ago; try again.")
            audit.created(session, actor, player, at=now)
            return player
        session.add(player)
        await session.flush()
        if snapshot != audit.snapshot(player):
            audit.updated(session, actor, player, before=snapshot, at=now)
        return player

    async def _new_player(
        self,
        session: AsyncSession,
        scope: _Scope,
        player: Player,
        role: RosterRole,
        on: date,
        *,
        rank: int | None = None,
    ) -> rules.NewPlayer:
        """What the add checks need about a player joining this team (TEAM-ROSTER-5, -8, -11, TEAM-MULTI-1)."""
        elsewhere = select(RosterEntry, Team, Conference.name).join(Team, Team.id == RosterEntry.team_id)  # type: ignore[arg-type]
        elsewhere = elsewhere.join(Conference, Conference.id == Team.conference_id, isouter=True)  # type: ignore[arg-type]
        rows = (
            await session.exec(
                elsewhere.where(
                    RosterEntry.player_id == player.id,
                    RosterEntry.season_id == scope.season.id,
                    RosterEntry.team_id != scope.team.id,
                )
            )
        ).all()
        other_teams = {
            team.id: rules.TeamRef(team.id or 0, team.name, conference or "", self._weekday(team))
            for entry, team, conference in rows
            if entry.starts_on is None or entry.applies_on(on) or (entry.starts_on > on)
        }
        drop = (
            await session.exec(
                select(RosterEntry).where(
                    RosterEntry.player_id == player.id,
                    RosterEntry.team_id == scope.team.id,
                    RosterEntry.season_id == scope.season.id,
                    RosterEntry.end_reason == RosterEnd.DROPPED,
                )
            )
        ).first()
        return rules.NewPlayer(
            player_id=player.id or 0,
            name=player.display_name,
            role=Role(role),
            ifpa_rank=player.ifpa_rank if rank is None else rank,
            adult_attested=player.adult_attested_at is not None,
            other_teams=tuple(other_teams.values()),
            dropped_from_this_team_on=drop.ends_on if drop else None,
        )

    async def _add_while_forming(
        self, session: AsyncSession, actor: Actor, scope: _Scope, player: Player, role: RosterRole
    ) -> None:
        forming = await self._entries(session, scope, forming=True)
        if any(entry.player_id == player.id for entry in forming):
            raise Conflict(f"{player.display_name} is already on {scope.team.name}'s roster.")
        if len(forming) >= scope.options.roster_max:
            raise RuleViolation("TEAM-ROSTER-1", f"Roster is full (max {scope.options.roster_max}).")
        entry = RosterEntry(
            league_id=scope.league.id or 0,
            season_id=scope.season.id or 0,
            team_id=scope.team.id or 0,
            player_id=player.id or 0,
            role=role,
            ifpa_rank=player.ifpa_rank,
        )
        session.add(entry)
        await session.flush()
        audit.created(session, actor, entry, at=self.clock.now())

    async def _forming_entry(self, session: AsyncSession, scope: _Scope, player: Player) -> RosterEntry:
        for entry in await self._entries(session, scope, forming=True):
            if entry.player_id == player.id:
                return entry
        raise NotFound(f"{player.display_name} is not on {scope.team.name}'s roster.")

    # --- who may act -------------------------------------------------------------------------------

    async def _require_forming_editor(self, session: AsyncSession, actor: Actor, scope: _Scope) -> None:
        """Before submission a commissioner, or a captain named in the roster being formed, edits it."""
        if is_commissioner(actor, scope.league):
            return
        forming = await self._entries(session, scope, forming=True)
        captains = {e.player_id for e in forming if e.role is RosterRole.CAPTAIN}
        if await self._actor_player_id(session, actor, scope.league) in captains:
            return
        raise RuleViolation(
            "TEAM-ROSTER-6", f"Only a captain of {scope.team.name} or a commissioner may put its roster together."
        )

    async def _captains_or_commissioner(
        self, session: AsyncSession, actor: Actor, scope: _Scope, roster: list[RosterEntry]
    ) -> bool:
        """TEAM-ROSTER-6: captains submit changes; a commissioner may act for them (COMMON-ROLE-1)."""
        if is_commissioner(actor, scope.league):
            return True
        me = await self._actor_player_id(session, actor, scope.league)
        return any(entry.player_id == me and entry.role is RosterRole.CAPTAIN for entry in roster)

    async def _actor_player_id(self, session: AsyncSession, actor: Actor, league: League) -> int | None:
        query = select(Player.id).where(Player.league_id == league.id, Player.discord_user_id == actor.user_id)
        return (await session.exec(query)).first()

    # --- small helpers ----------------------------------------------------------------------------------

    def _today(self, league: League) -> date:
        return self.clock.now().astimezone(ZoneInfo(league.timezone)).date()

    @staticmethod
    def _weekday(team: Team) -> int:
        if team.match_weekday is None:
            raise InvalidInput(
                f"{team.name} has no match evening yet; a commissioner sets it with /team create evening:."
            )
        return team.match_weekday

    async def _view(self, session: AsyncSession, scope: _Scope, on: date | None) -> RosterView:
        entries = await self._entries(session, scope, on=on, forming=on is None)
        players = {p.id: p for p in await self._players(session, [e.player_id for e in entries])}
        order = {RosterRole.CAPTAIN: 0, RosterRole.STARTER: 1, RosterRole.RESERVE: 2}
        lines = sorted(
            (RosterLine(players[e.player_id], e.role, e.ifpa_rank) for e in entries),
            key=lambda line: (order[line.role], line.player.display_name.casefold()),
        )
        if not scope.options.use_ratings:
            return RosterView(scope.league, scope.team, on, lines)
        rated = await self.ratings.of_members(scope.league.guild_id)
        strength = roster_strength(
            [line.ifpa_rank for line in lines],
            [rated.get(line.player.discord_user_id) for line in lines],
            scope.options,
        )
        return RosterView(scope.league, scope.team, on, lines, strength)


def parse_day(text: str | None) -> date | None:
    """An `effective:` option: YYYY-MM-DD in the league's calendar."""
    if text is None or not text.strip():
        return None
    try:
        return datetime.strptime(text.strip(), "%Y-%m-%d").date()
    except ValueError:
        raise InvalidInput(
            f"`effective` {text.strip()!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-03-05."
        ) from None
