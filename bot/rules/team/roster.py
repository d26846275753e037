"""Team rosters and players on several teams (TEAM-ROSTER-*, TEAM-MULTI-*, roster parts of TEAM-CFG-2).

Pure: the service loads the facts (roster, the requester's captaincy, the added players' other teams,
drop history, the schedule's last regular-season date) and passes `submitted_at` from its clock. Every
refusal is a RuleViolation worded as in CATALOG.md, with names, numbers and dates filled in; a request that
breaks several rules gets them all at once (`Refusals`), so a captain fixes everything in one go.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.rules.refusals import InvalidInput, RuleViolation, refuse_all
from bot.rules.team.model import MatchId, PlayerId, RosterRole, TeamId
from bot.rules.team.options import TeamOptions

IFPA_TOP500 = 500  # NYC II.B.1.1; the allowed count is options.ifpa_top500_max
IFPA_TOP150 = 150  # NYC II.B.1.2; the allowed count is options.ifpa_top150_max

_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_NUMBER_WORDS = ("none", "one", "two", "three", "four", "five", "six")


@dataclass(frozen=True)
class RosterEntry:
    """One rostered player. `ifpa_rank` is the current published rank (None = unranked, TEAM-AMB-13)."""

    player_id: PlayerId
    name: str
    role: RosterRole
    ifpa_rank: int | None = None


@dataclass(frozen=True)
class RosterState:
    """A team's roster in force on one date."""

    on: date
    entries: tuple[RosterEntry, ...]

    @property
    def captains(self) -> tuple[RosterEntry, ...]:
        return tuple(e for e in self.entries if e.role is RosterRole.CAPTAIN)

    @property
    def starters(self) -> tuple[RosterEntry, ...]:
        return tuple(e for e in self.entries if e.role.is_starter)


@dataclass(frozen=True)
class TeamRef:
    """A team as seen from one of its players: enough for TEAM-MULTI-1..2."""

    team_id: TeamId
    name: str
    conference: str
    match_weekday: int  # date.weekday(): 0 = Monday


@dataclass(frozen=True)
class NewPlayer:
    """A player being added to this team, with the facts the add checks need about them."""

    player_id: PlayerId
    name: str
    role: RosterRole
    ifpa_rank: int | None  # current published rank on the request date; None = unranked (TEAM-AMB-13)
    adult_attested: bool  # TEAM-ROSTER-11: the player confirmed they are at least options.min_age
    other_teams: tuple[TeamRef, ...] = ()  # teams they are on this season besides this one (TEAM-MULTI-1)
    dropped_from_this_team_on: date | None = None  # TEAM-ROSTER-8


@dataclass(frozen=True)
class RoleChange:
    player_id: PlayerId
    role: RosterRole


@dataclass(frozen=True)
class RosterChange:
    """One captain's request: applied all together on `effective_on`, or not at all."""

    effective_on: date
    adds: tuple[NewPlayer, ...] = ()
    drops: tuple[PlayerId, ...] = ()
    role_changes: tuple[RoleChange, ...] = ()


@dataclass(frozen=True)
class RosterContext:
    """What a roster change needs from outside the roster."""

    requested_by_captain: bool  # the requester captains this team (TEAM-ROSTER-6)
    submitted_at: datetime  # aware instant
    zone: str  # the league's IANA time zone (COMMON-AMB-1)
    team_match_weekday: int  # this team's match evening, date.weekday()
    regular_season_ends_on: date | None  # last scheduled regular-season match; None while unscheduled


# --- Roster changes -----------------------------------------------------------------------------------


def validate_roster_change(
    state: RosterState, change: RosterChange, context: RosterContext, options: TeamOptions
) -> RosterState:
    """Return the roster in force from `change.effective_on`, or raise for every rule the change breaks.

    `state` is the roster that would be in force on that date without this change. The gates come first and
    alone, since nothing else matters while they fail: TEAM-ROSTER-6 (captain), -10 (freeze), -7 (deadline),
    the request's shape. Then every other problem is reported at once: -2 (role steps), -11, -8, TEAM-MULTI-1
    (each added player), TEAM-ROSTER-1, -3, -2 (the resulting roster), -5 (IFPA). The returned entries carry
    the ranks the IFPA check used; their rank date is the submission's local date (TEAM-AMB-13).
    TEAM-TV-12 (a)–(h) is this function's worked example: full at 12, 6 starters kept, captains stay starters,
    one or two captains, the 4 PM cutoff, no return after a drop, captains only.
    """
    if not context.requested_by_captain:
        names = " or ".join(e.name for e in state.captains)
        hint = f": ask {names}" if names else ""
        raise RuleViolation("TEAM-ROSTER-6", f"Only a captain may change the roster{hint}.")
    _check_not_frozen(change.effective_on, context, options)
    check_roster_deadline(change.effective_on, context.submitted_at, context.zone, options)
    if not (change.adds or change.drops or change.role_changes):
        raise InvalidInput("The roster change is empty: add, drop or change the role of at least one player.")
    entries = _apply(state.entries, change)
    problems = [
        *_role_change_problems(state, change.role_changes),
        *(
            problem
            for player in change.adds
            for problem in _new_player_problems(player, context.team_match_weekday, options)
        ),
        *roster_problems(entries, options),
        *_ifpa_problems(entries, change.adds, options),
    ]
    refuse_all(problems, "This change breaks {count} rules; fix them all and send it again:")
    return RosterState(on=change.effective_on, entries=entries)


def validate_initial_roster(
    players: tuple[NewPlayer, ...], *, on: date, team_match_weekday: int, options: TeamOptions
) -> RosterState:
    """TEAM-ROSTER-9: a team's first roster must pass TEAM-ROSTER-1..5 (and the add checks) to be scheduled.

    Every problem is reported at once, each naming its players and rule."""
    entries = _apply((), RosterChange(effective_on=on, adds=players))
    problems = [
        *(problem for player in players for problem in _new_player_problems(player, team_match_weekday, options)),
        *roster_problems(entries, options),
        *_ifpa_problems(entries, players, options),
    ]
    refuse_all(problems, "The roster breaks {count} rules; fix them all, then submit it again:")
    return RosterState(on=on, entries=entries)


def roster_problems(entries: tuple[RosterEntry, ...], options: TeamOptions) -> Iterator[RuleViolation]:
    """TEAM-ROSTER-1, -3 and -2: size, starters and captains of a whole roster."""
    if len(entries) > options.roster_max:
        yield RuleViolation(
            "TEAM-ROSTER-1",
            f"Roster is full (max {options.roster_max}): drop a player in the same request to make room.",
        )
    if len(entries) < options.roster_min:
        yield RuleViolation(
            "TEAM-ROSTER-1", f"Roster must have at least {options.roster_min} players; it would have {len(entries)}."
        )
    starters = sum(e.role.is_starter for e in entries)
    if starters < options.starters_min:
        yield RuleViolation(
            "TEAM-ROSTER-3", f"Team must keep at least {options.starters_min} starters; it would have {starters}."
        )
    captains = [e.name for e in entries if e.role is RosterRole.CAPTAIN]
    if not options.captains_min <= len(captains) <= options.captains_max:
        having = f"{len(captains)}: {', '.join(captains)}" if captains else "none"
        yield RuleViolation("TEAM-ROSTER-2", f"A team needs {_captain_range(options)}; it would have {having}.")


def _role_change_problems(state: RosterState, role_changes: tuple[RoleChange, ...]) -> Iterator[RuleViolation]:
    """TEAM-ROSTER-2: a reserve cannot become a captain, nor a captain a reserve, in one step."""
    current = {e.player_id: e for e in state.entries}
    for change in role_changes:
        entry = current[change.player_id]
        if entry.role is RosterRole.CAPTAIN and change.role is RosterRole.RESERVE:
            yield RuleViolation(
                "TEAM-ROSTER-2",
                f"Captains must be starters: {entry.name} is a captain, so make them a plain starter "
                "before moving them to reserve.",
            )
        if entry.role is RosterRole.RESERVE and change.role is RosterRole.CAPTAIN:
            yield RuleViolation(
                "TEAM-ROSTER-2",
                f"Captains must be starters: {entry.name} is a reserve, so make them a starter before "
                "making them a captain.",
            )


def _new_player_problems(player: NewPlayer, team_match_weekday: int, options: TeamOptions) -> Iterator[RuleViolation]:
    """TEAM-ROSTER-11, TEAM-ROSTER-8 and TEAM-MULTI-1 for one added player."""
    if not player.adult_attested:
        yield RuleViolation(
            "TEAM-ROSTER-11",
            f"{player.name} must confirm they are {options.min_age} or older (minors may not take part); then set "
            "`adult:true` (`/roster edit` once listed).",
        )
    if player.dropped_from_this_team_on is not None:
        yield RuleViolation(
            "TEAM-ROSTER-8",
            f"{player.name} was dropped from this team on {_day(player.dropped_from_this_team_on)} "
            "and cannot return this season.",
        )
    limit = options.max_teams_per_player
    if len(player.other_teams) >= limit:
        teams = " and ".join(t.name for t in player.other_teams)
        yield RuleViolation(
            "TEAM-MULTI-1", f"{player.name} is already on {limit} team{'s' if limit > 1 else ''}: {teams}."
        )
    for team in player.other_teams:
        if team.match_weekday == team_match_weekday:
            yield RuleViolation(
                "TEAM-MULTI-1",
                f"{player.name}'s other team plays on the same evening: "
                f"{team.name} also plays on {_WEEKDAYS[team.match_weekday]}s.",
            )


def _ifpa_problems(
    entries: tuple[RosterEntry, ...], added: tuple[NewPlayer, ...], options: TeamOptions
) -> Iterator[RuleViolation]:
    """TEAM-ROSTER-5 with TEAM-AMB-13: an added player inside a threshold counts every member at current rank.

    Only adds are checked, so players who climbed past a threshold while rostered never invalidate the
    roster, yet they do count against a new addition.
    """
    for threshold, allowed in ((IFPA_TOP500, options.ifpa_top500_max), (IFPA_TOP150, options.ifpa_top150_max)):
        if not any(_ranked_within(p.ifpa_rank, threshold) for p in added):
            continue
        inside = [e for e in entries if _ranked_within(e.ifpa_rank, threshold)]
        if len(inside) > allowed:
            listed = ", ".join(f"{e.name} #{e.ifpa_rank}" for e in inside)
            yield RuleViolation(
                "TEAM-ROSTER-5",
                f"Team would have {len(inside)} players in IFPA top {threshold} (max {allowed}): {listed}.",
            )


def _ranked_within(rank: int | None, threshold: int) -> bool:
    return rank is not None and rank <= threshold


def _apply(entries: tuple[RosterEntry, ...], change: RosterChange) -> tuple[RosterEntry, ...]:
    """The roster after `change`; refuses requests that name a player twice or someone not on the roster."""
    named = [p.player_id for p in change.adds] + list(change.drops) + [c.player_id for c in change.role_changes]
    if len(set(named)) < len(named):
        raise InvalidInput("Name each player once per roster change.")
    by_id = {e.player_id: e for e in entries}
    for player in change.adds:
        if player.player_id in by_id:
            raise InvalidInput(f"{player.name} is already on this roster.")
    for player_id in (*change.drops, *(c.player_id for c in change.role_changes)):
        if player_id not in by_id:
            raise InvalidInput(f"Player {player_id} is not on this roster.")
    new_roles = {c.player_id: c.role for c in change.role_changes}
    for player_id, role in new_roles.items():
        if by_id[player_id].role is role:
            raise InvalidInput(f"{by_id[player_id].name} is already a {role}.")
    kept = tuple(
        RosterEntry(e.player_id, e.name, new_roles.get(e.player_id, e.role), e.ifpa_rank)
        for e in entries
        if e.player_id not in change.drops
    )
    return kept + tuple(RosterEntry(p.player_id, p.name, p.role, p.ifpa_rank) for p in change.adds)


def _captain_range(options: TeamOptions) -> str:
    low, high = options.captains_min, options.captains_max
    if low == high:
        return f"exactly {_number(low)} captain{'s' if low > 1 else ''}"
    joiner = " or " if high == low + 1 else " to "
    return f"{_number(low)}{joiner}{_number(high)} captains"


def _number(n: int) -> str:
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)


# --- Deadlines and the season's end (TEAM-ROSTER-7, TEAM-ROSTER-10) -----------------------------------


def earliest_effective_date(submitted_at: datetime, zone: str, options: TeamOptions) -> date:
    """TEAM-ROSTER-7: today (league time) if submitted by the cutoff, else tomorrow."""
    today = _local_date(submitted_at, zone)
    return today if submitted_at <= _cutoff_instant(today, zone, options) else today + timedelta(days=1)


def check_roster_deadline(effective_on: date, submitted_at: datetime, zone: str, options: TeamOptions) -> None:
    """TEAM-ROSTER-7: a change for date D must be submitted by the cutoff (16:00 local) on D."""
    earliest = earliest_effective_date(submitted_at, zone, options)
    if effective_on >= earliest:
        return
    cutoff = _clock(options.roster_cutoff)
    closed = "today" if effective_on == _local_date(submitted_at, zone) else _day(effective_on)
    raise RuleViolation(
        "TEAM-ROSTER-7",
        f"Roster changes for {closed} closed at {cutoff}; earliest effective date is {_day(earliest)}. "
        f"To make this change take effect then (or later), send it again with `effective:{earliest.isoformat()}`.",
    )


def _check_not_frozen(effective_on: date, context: RosterContext, options: TeamOptions) -> None:
    """TEAM-ROSTER-10: nothing may take effect after the last regular-season match date.

    Checked before the deadline so a change that could only land after the season says why.
    TEAM-TV-21: an add submitted the day after the final regular-season match → "Rosters are frozen".
    """
    season_end = context.regular_season_ends_on
    if season_end is None:
        return
    earliest = earliest_effective_date(context.submitted_at, context.zone, options)
    if max(effective_on, earliest) > season_end:
        raise RuleViolation(
            "TEAM-ROSTER-10",
            f"Rosters are frozen after the regular season (it ended {_day(season_end)}); "
            "the playoff roster is the one in force on that date.",
        )


def _local_date(instant: datetime, zone: str) -> date:
    if instant.tzinfo is None:
        raise ValueError("submitted_at must be timezone-aware")
    return instant.astimezone(ZoneInfo(zone)).date()


def _cutoff_instant(day: date, zone: str, options: TeamOptions) -> datetime:
    # Compare in UTC: aware datetimes sharing a tzinfo compare by wall clock, which DST makes wrong.
    return datetime.combine(day, options.roster_cutoff, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def _clock(t: time) -> str:
    return f"{t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def _day(d: date) -> str:
    return f"{_WEEKDAYS[d.weekday()][:3]} {d.isoformat()}"


# --- Playoffs (TEAM-MULTI-2, TEAM-MULTI-3) -------------------------------------------------------------


def playoff_team_lock(
    player_name: str, lineup_team: TeamRef, player_playoff_teams: tuple[TeamRef, ...], locked_to: TeamRef | None
) -> TeamRef | None:
    """TEAM-MULTI-2: the team the player is locked to once this playoff lineup is accepted (None: no lock).

    `player_playoff_teams` are the player's teams in these playoffs; `locked_to` is the recorded choice or
    the team of the first playoff lineup that included the player. A lock applies only when another of
    the player's playoff teams is in the lineup team's conference.
    TEAM-TV-22: P played T1's first playoff match, so a later T3 playoff lineup (same conference) with P is refused.
    """
    rivals = [
        t for t in player_playoff_teams if t.team_id != lineup_team.team_id and t.conference == lineup_team.conference
    ]
    if not rivals:
        return None
    if locked_to is None:
        return lineup_team
    if locked_to.team_id != lineup_team.team_id:
        raise RuleViolation("TEAM-MULTI-2", f"{player_name} is locked to {locked_to.name} for these playoffs.")
    return locked_to


@dataclass(frozen=True)
class PlayoffAppearance:
    """A playoff match the player is already in a lineup for."""

    match_id: MatchId
    label: str  # e.g. "T1 vs T2", for the message
    played_on: date


def check_one_match_per_night(
    player_name: str, match_id: MatchId, match_on: date, appearances: tuple[PlayoffAppearance, ...]
) -> None:
    """TEAM-MULTI-3: a player on two playoff teams may play only one of their matches on the same date."""
    for earlier in appearances:
        if earlier.played_on == match_on and earlier.match_id != match_id:
            raise RuleViolation(
                "TEAM-MULTI-3",
                f"{player_name} already played in {earlier.label} tonight. A player on two playoff teams plays one "
                "of their matches a night: name another player.",
            )
