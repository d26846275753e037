"""Team rosters and players on several teams (bot/rules/team/roster.py): TEAM-ROSTER-*, TEAM-MULTI-*."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.refusals import InvalidInput, Refusal, Refusals, RuleViolation
from bot.rules.team.model import RosterRole
from bot.rules.team.options import TeamOptions
from bot.rules.team.roster import (
    NewPlayer,
    PlayoffAppearance,
    RoleChange,
    RosterChange,
    RosterContext,
    RosterEntry,
    RosterState,
    TeamRef,
    check_one_match_per_night,
    check_roster_deadline,
    earliest_effective_date,
    playoff_team_lock,
    roster_problems,
    validate_initial_roster,
    validate_roster_change,
)

CAPTAIN, STARTER, RESERVE = RosterRole.CAPTAIN, RosterRole.STARTER, RosterRole.RESERVE
NY = "America/New_York"
DEFAULTS = TeamOptions()
WED = date(2026, 3, 4)  # a Wednesday in EST (UTC-5)
THU = date(2026, 3, 5)
WED_NOON = datetime(2026, 3, 4, 17, 0, tzinfo=UTC)
MON, TUE, THU_EVENING = 0, 1, 3
SEASON_END = date(2026, 5, 5)  # Tue, the last regular-season match

T1 = TeamRef(team_id=101, name="T1", conference="East", match_weekday=TUE)
T2 = TeamRef(team_id=102, name="T2", conference="East", match_weekday=TUE)
T3 = TeamRef(team_id=103, name="T3", conference="East", match_weekday=THU_EVENING)
T4 = TeamRef(team_id=104, name="T4", conference="West", match_weekday=MON)


def member(player_id: int, name: str, role: RosterRole = STARTER, rank: int | None = None) -> RosterEntry:
    return RosterEntry(player_id=player_id, name=name, role=role, ifpa_rank=rank)


def newcomer(
    player_id: int,
    name: str,
    role: RosterRole = RESERVE,
    rank: int | None = None,
    *,
    other_teams: tuple[TeamRef, ...] = (),
    dropped_on: date | None = None,
    adult: bool = True,
) -> NewPlayer:
    return NewPlayer(
        player_id=player_id,
        name=name,
        role=role,
        ifpa_rank=rank,
        adult_attested=adult,
        other_teams=other_teams,
        dropped_from_this_team_on=dropped_on,
    )


def context(
    *,
    captain: bool = True,
    submitted_at: datetime = WED_NOON,
    weekday: int = THU_EVENING,
    season_end: date | None = SEASON_END,
) -> RosterContext:
    return RosterContext(
        requested_by_captain=captain,
        submitted_at=submitted_at,
        zone=NY,
        team_match_weekday=weekday,
        regular_season_ends_on=season_end,
    )


def change(
    *,
    on: date = WED,
    adds: tuple[NewPlayer, ...] = (),
    drops: tuple[int, ...] = (),
    roles: tuple[tuple[int, RosterRole], ...] = (),
) -> RosterChange:
    role_changes = tuple(RoleChange(player_id, role) for player_id, role in roles)
    return RosterChange(effective_on=on, adds=adds, drops=drops, role_changes=role_changes)


def tv12_roster() -> RosterState:
    """TEAM-TV-12: S1 (captain), S2–S7 starters, R1–R4 reserves; 11 players. Ids: S<n> = n, R<n> = 10 + n."""
    starters = [member(1, "S1", CAPTAIN)] + [member(n, f"S{n}") for n in range(2, 8)]
    reserves = [member(10 + n, f"R{n}", RESERVE) for n in range(1, 5)]
    return RosterState(on=WED, entries=tuple(starters + reserves))


def with_ranks(ranks: dict[str, int]) -> RosterState:
    """Six unranked players (U1 captain) plus the named ranked starters, e.g. {"P1": 120}."""
    unranked = [member(200 + n, f"U{n}", CAPTAIN if n == 1 else STARTER) for n in range(1, 7)]
    ranked = [member(300 + i, name, STARTER, rank) for i, (name, rank) in enumerate(ranks.items())]
    return RosterState(on=WED, entries=tuple(unranked + ranked))


def apply(
    state: RosterState,
    request: RosterChange,
    ctx: RosterContext | None = None,
    options: TeamOptions = DEFAULTS,
) -> RosterState:
    return validate_roster_change(state, request, ctx or context(), options)


def names(state: RosterState) -> set[str]:
    return {e.name for e in state.entries}


@contextmanager
def refused(rule_id: str, message: str) -> Iterator[None]:
    """The request is refused for `rule_id` with `message`, alone or among the other problems it has."""
    with pytest.raises((RuleViolation, Refusals), match=re.escape(message)) as caught:
        yield
    assert (rule_id, True) in [(problem.rule_id, message in problem.message) for problem in problems(caught.value)]


def problems(refusal: Refusal) -> tuple[Refusal, ...]:
    return refusal.refusals if isinstance(refusal, Refusals) else (refusal,)


# --- TEAM-TV-12: roster changes -------------------------------------------------------------------------


class TestWorkedVectorTV12:
    def test_a_adding_a_fifth_reserve_fills_the_roster(self) -> None:
        """TEAM-TV-12 (a), TEAM-ROSTER-1: adding R5 as a reserve to 11 players → OK (12)."""
        after = apply(tv12_roster(), change(adds=(newcomer(15, "R5"),)))
        assert len(after.entries) == 12
        assert after.on == WED
        assert RosterEntry(15, "R5", RESERVE) in after.entries

    def test_b_a_thirteenth_player_is_refused(self) -> None:
        """TEAM-TV-12 (b), TEAM-ROSTER-1: then adding R6 → "Roster is full (max 12)"."""
        full = apply(tv12_roster(), change(adds=(newcomer(15, "R5"),)))
        with refused("TEAM-ROSTER-1", "Roster is full (max 12)"):
            apply(full, change(adds=(newcomer(16, "R6"),)))

    def test_c_dropping_two_starters_at_once_leaves_five(self) -> None:
        """TEAM-TV-12 (c), TEAM-ROSTER-3: one request dropping S2 and S3 → 5 starters → refused."""
        with refused("TEAM-ROSTER-3", "Team must keep at least 6 starters"):
            apply(tv12_roster(), change(drops=(2, 3)))

    def test_c_dropping_one_starter_leaves_six(self) -> None:
        """TEAM-TV-12 (c), TEAM-ROSTER-3: dropping only S2 → OK with 6 starters."""
        after = apply(tv12_roster(), change(drops=(2,)))
        assert len(after.starters) == 6
        assert "S2" not in names(after)

    def test_d_the_captain_cannot_become_a_reserve(self) -> None:
        """TEAM-TV-12 (d), TEAM-ROSTER-2: S1 → reserve → "Captains must be starters"."""
        with refused("TEAM-ROSTER-2", "Captains must be starters"):
            apply(tv12_roster(), change(roles=((1, RESERVE),)))

    def test_e_a_third_captain_is_refused(self) -> None:
        """TEAM-TV-12 (e), TEAM-ROSTER-2: making S3 captain while S1 and S4 are → "one or two captains"."""
        two_captains = apply(tv12_roster(), change(roles=((4, CAPTAIN),)))
        with refused("TEAM-ROSTER-2", "A team needs one or two captains; it would have 3: S1, S3, S4"):
            apply(two_captains, change(roles=((3, CAPTAIN),)))

    def test_f_submitted_at_4_05_pm_for_the_same_day_is_refused(self) -> None:
        """TEAM-TV-12 (f), TEAM-ROSTER-7: submitted Wed 16:05 for Wed → refused; earliest Thu."""
        late = datetime(2026, 3, 4, 21, 5, tzinfo=UTC)  # 16:05 EST
        with refused(
            "TEAM-ROSTER-7", "Roster changes for today closed at 4:00 PM; earliest effective date is Thu 2026-03-05"
        ):
            apply(tv12_roster(), change(adds=(newcomer(15, "R5"),)), context(submitted_at=late))

    def test_f_the_cutoff_refusal_says_how_to_take_effect_later(self) -> None:
        """TEAM-ROSTER-7: the refusal names `effective:` with the earliest date, which is then accepted."""
        late = datetime(2026, 3, 4, 21, 5, tzinfo=UTC)  # 16:05 EST
        with refused("TEAM-ROSTER-7", "send it again with `effective:2026-03-05`"):
            apply(tv12_roster(), change(adds=(newcomer(15, "R5"),)), context(submitted_at=late))
        after = apply(
            tv12_roster(), change(on=date(2026, 3, 5), adds=(newcomer(15, "R5"),)), context(submitted_at=late)
        )
        assert after.on == date(2026, 3, 5) and len(after.entries) == 12

    def test_f_submitted_at_3_59_pm_for_the_same_day_is_accepted(self) -> None:
        """TEAM-TV-12 (f), TEAM-ROSTER-7: submitted Wed 15:59 for Wed → OK."""
        in_time = datetime(2026, 3, 4, 20, 59, tzinfo=UTC)  # 15:59 EST
        after = apply(tv12_roster(), change(adds=(newcomer(15, "R5"),)), context(submitted_at=in_time))
        assert "R5" in names(after)

    def test_g_a_dropped_player_cannot_be_re_added(self) -> None:
        """TEAM-TV-12 (g), TEAM-ROSTER-8: re-adding S2 later → "dropped … cannot return this season"."""
        after_drop = apply(tv12_roster(), change(drops=(2,)))
        later = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)
        s2_again = newcomer(2, "S2", STARTER, dropped_on=WED)
        with refused("TEAM-ROSTER-8", "S2 was dropped from this team on Wed 2026-03-04 and cannot return this season"):
            apply(after_drop, change(on=date(2026, 3, 10), adds=(s2_again,)), context(submitted_at=later))

    def test_h_a_non_captain_cannot_change_the_roster(self) -> None:
        """TEAM-TV-12 (h), TEAM-ROSTER-6: a non-captain submits → "Only a captain may change the roster"."""
        with refused("TEAM-ROSTER-6", "Only a captain may change the roster: ask S1"):
            apply(tv12_roster(), change(adds=(newcomer(15, "R5"),)), context(captain=False))


# --- TEAM-ROSTER-1..4: size, captains, starters, status -------------------------------------------------


class TestRosterShape:
    def test_dropping_below_six_players_is_refused(self) -> None:
        """TEAM-ROSTER-1: a change that leaves 5 players → "Roster must have at least 6 players"."""
        six = RosterState(on=WED, entries=tv12_roster().entries[:6])
        with refused("TEAM-ROSTER-1", "Roster must have at least 6 players; it would have 5"):
            apply(six, change(drops=(6,)))

    def test_a_drop_and_an_add_together_keep_a_full_roster_legal(self) -> None:
        """TEAM-ROSTER-1: all-or-nothing; the resulting roster is what counts, so swap a player at 12."""
        full = apply(tv12_roster(), change(adds=(newcomer(15, "R5"),)))
        after = apply(full, change(on=THU, adds=(newcomer(16, "R6"),), drops=(11,)))
        assert len(after.entries) == 12
        assert "R6" in names(after) and "R1" not in names(after)

    def test_dropping_the_only_captain_is_refused(self) -> None:
        """TEAM-ROSTER-2: 0 captains → "A team needs one or two captains"."""
        with refused("TEAM-ROSTER-2", "A team needs one or two captains; it would have none"):
            apply(tv12_roster(), change(drops=(1,)))

    def test_a_reserve_cannot_be_made_captain_directly(self) -> None:
        """TEAM-ROSTER-2: making a reserve a captain → "Captains must be starters"."""
        with refused("TEAM-ROSTER-2", "Captains must be starters: R1 is a reserve"):
            apply(tv12_roster(), change(roles=((11, CAPTAIN),)))

    def test_captaincy_can_be_handed_over_in_one_request(self) -> None:
        """TEAM-ROSTER-2: S1 steps down and S2 takes over in the same request → one captain, accepted."""
        after = apply(tv12_roster(), change(roles=((1, STARTER), (2, CAPTAIN))))
        assert [e.name for e in after.captains] == ["S2"]

    def test_a_new_player_may_join_as_captain(self) -> None:
        """TEAM-ROSTER-2: a second captain joins (captains are starters) → accepted."""
        after = apply(tv12_roster(), change(adds=(newcomer(15, "C2", CAPTAIN),)))
        assert {e.name for e in after.captains} == {"S1", "C2"}
        assert len(after.starters) == 8

    def test_benching_a_starter_that_leaves_five_is_refused(self) -> None:
        """TEAM-ROSTER-3: S2 and S3 → reserve leaves 5 starters → refused."""
        with refused("TEAM-ROSTER-3", "Team must keep at least 6 starters; it would have 5"):
            apply(tv12_roster(), change(roles=((2, RESERVE), (3, RESERVE))))

    def test_status_changes_take_effect_on_their_date(self) -> None:
        """TEAM-ROSTER-4: S7 → reserve and R1 → starter, effective Thu; the returned roster is Thu's."""
        after = apply(tv12_roster(), change(on=THU, roles=((7, RESERVE), (11, STARTER))))
        roles = {e.name: e.role for e in after.entries}
        assert after.on == THU
        assert (roles["S7"], roles["R1"]) == (RESERVE, STARTER)
        assert len(after.entries) == 11

    def test_the_tv12_roster_has_no_problem(self) -> None:
        """TEAM-ROSTER-1..3: the TEAM-TV-12 roster itself is legal (11 players, 7 starters, 1 captain)."""
        assert not list(roster_problems(tv12_roster().entries, DEFAULTS))

    @given(
        drops=st.sets(st.sampled_from(range(1, 8)) | st.sampled_from(range(11, 15)), max_size=6),
        role_changes=st.dictionaries(st.sampled_from(range(1, 15)), st.sampled_from(list(RosterRole)), max_size=4),
        adds=st.lists(
            st.tuples(st.sampled_from(list(RosterRole)), st.none() | st.integers(1, 1000)), min_size=0, max_size=4
        ),
    )
    def test_an_accepted_change_always_leaves_a_legal_roster(
        self,
        drops: set[int],
        role_changes: dict[int, RosterRole],
        adds: list[tuple[RosterRole, int | None]],
    ) -> None:
        """TEAM-ROSTER-1, TEAM-ROSTER-2, TEAM-ROSTER-3: whatever is accepted has 6–12 players, ≥6 starters,
        1–2 captains, and exactly the requested membership."""
        state = tv12_roster()
        new_players = tuple(newcomer(50 + i, f"N{i}", role, rank) for i, (role, rank) in enumerate(adds))
        request = change(adds=new_players, drops=tuple(drops), roles=tuple(role_changes.items()))
        try:
            after = apply(state, request)
        except (RuleViolation, InvalidInput, Refusals):
            return
        assert 6 <= len(after.entries) <= 12
        assert len(after.starters) >= 6
        assert 1 <= len(after.captains) <= 2
        expected_ids = {e.player_id for e in state.entries} - drops | {p.player_id for p in new_players}
        assert {e.player_id for e in after.entries} == expected_ids


class TestMalformedRequests:
    def test_an_empty_request_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="empty"):
            apply(tv12_roster(), change())

    def test_adding_someone_already_on_the_roster_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="S2 is already on this roster"):
            apply(tv12_roster(), change(adds=(newcomer(2, "S2"),)))

    def test_dropping_someone_not_on_the_roster_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="not on this roster"):
            apply(tv12_roster(), change(drops=(99,)))

    def test_naming_a_player_twice_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="once"):
            apply(tv12_roster(), change(drops=(2,), roles=((2, RESERVE),)))

    def test_changing_a_role_to_the_same_role_is_refused(self) -> None:
        with pytest.raises(InvalidInput, match="S2 is already a starter"):
            apply(tv12_roster(), change(roles=((2, STARTER),)))


# --- TEAM-ROSTER-5 / TEAM-AMB-13: IFPA limits -----------------------------------------------------------


class TestIfpaLimits:
    def test_tv13_a_third_top500_player_is_refused(self) -> None:
        """TEAM-TV-13 (a), TEAM-ROSTER-5: P1 #120, P2 #480; add P3 #300 → top-500 count 3 → refused."""
        with refused("TEAM-ROSTER-5", "Team would have 3 players in IFPA top 500 (max 2)"):
            apply(with_ranks({"P1": 120, "P2": 480}), change(adds=(newcomer(3, "P3", rank=300),)))

    def test_tv13_b_a_second_top150_player_is_refused(self) -> None:
        """TEAM-TV-13 (b), TEAM-ROSTER-5: only P1 #120; add P3 #140 → top-150 count 2 → refused."""
        with refused("TEAM-ROSTER-5", "Team would have 2 players in IFPA top 150 (max 1): P1 #120, P3 #140"):
            apply(with_ranks({"P1": 120}), change(adds=(newcomer(3, "P3", rank=140),)))

    def test_tv13_b_rank_151_is_outside_the_top150(self) -> None:
        """TEAM-TV-13 (b), TEAM-ROSTER-5: add P3 #151 instead → OK (top-500 = 2, top-150 = 1)."""
        after = apply(with_ranks({"P1": 120}), change(adds=(newcomer(3, "P3", rank=151),)))
        assert "P3" in names(after)

    def test_tv13_c_a_climber_never_invalidates_the_roster(self) -> None:
        """TEAM-TV-13 (c), TEAM-ROSTER-5, TEAM-AMB-13: P4 climbed #510 → #450, so P1, P2, P4 are top 500;
        changes that add no top-500 player are still accepted."""
        climbed = with_ranks({"P1": 120, "P2": 480, "P4": 450})
        assert not list(roster_problems(climbed.entries, DEFAULTS))
        benched = apply(climbed, change(roles=((302, RESERVE),)))  # P4 to reserve
        assert {e.name: e.role for e in benched.entries}["P4"] is RESERVE
        assert "Newbie" in names(apply(climbed, change(adds=(newcomer(9, "Newbie", rank=700),))))
        assert "U6" not in names(apply(climbed, change(drops=(206,))))

    def test_tv13_d_a_climber_counts_against_a_new_top500_addition(self) -> None:
        """TEAM-TV-13 (d), TEAM-AMB-13: P1 #120 and P4 (signed #510, now #450); add P5 #499 → count 3 → refused."""
        with refused("TEAM-ROSTER-5", "Team would have 3 players in IFPA top 500 (max 2): P1 #120, P4 #450, P5 #499"):
            apply(with_ranks({"P1": 120, "P4": 450}), change(adds=(newcomer(5, "P5", rank=499),)))

    def test_tv13_d_a_player_outside_the_top500_is_fine(self) -> None:
        """TEAM-TV-13 (d), TEAM-ROSTER-5: add P5 #700 instead → OK (not a top-500 player)."""
        after = apply(with_ranks({"P1": 120, "P4": 450}), change(adds=(newcomer(5, "P5", rank=700),)))
        assert "P5" in names(after)

    def test_rank_500_is_inside_the_top500(self) -> None:
        """TEAM-ROSTER-5: "ranked in the top 500" includes #500."""
        with refused("TEAM-ROSTER-5", "top 500 (max 2)"):
            apply(with_ranks({"P1": 300, "P2": 480}), change(adds=(newcomer(3, "P3", rank=500),)))

    def test_two_top500_players_added_together_are_counted_together(self) -> None:
        """TEAM-ROSTER-5: one request adding two top-500 players to a roster that has one → 3 → refused."""
        pair = (newcomer(3, "P3", rank=300), newcomer(4, "P4", rank=400))
        with refused("TEAM-ROSTER-5", "Team would have 3 players in IFPA top 500 (max 2)"):
            apply(with_ranks({"P1": 200}), change(adds=pair))

    def test_unranked_players_have_no_limit(self) -> None:
        """TEAM-AMB-13: unranked = no limit, even on a roster already at both IFPA maxima."""
        after = apply(with_ranks({"P1": 120, "P2": 480}), change(adds=(newcomer(9, "Unranked", rank=None),)))
        assert "Unranked" in names(after)

    @given(
        roster_ranks=st.lists(st.integers(1, 1000), min_size=0, max_size=5),
        added_rank=st.none() | st.integers(501, 100_000),
    )
    def test_adding_a_player_outside_both_thresholds_is_never_refused(
        self, roster_ranks: list[int], added_rank: int | None
    ) -> None:
        """TEAM-ROSTER-5, TEAM-AMB-13: whatever the members' (possibly climbed) ranks, an unranked or
        #501+ addition passes the IFPA check."""
        state = with_ranks({f"P{i}": rank for i, rank in enumerate(roster_ranks)})
        after = apply(state, change(adds=(newcomer(9, "New", rank=added_rank),)))
        assert len(after.entries) == len(state.entries) + 1

    def test_configured_maxima_are_honoured(self) -> None:
        """TEAM-CFG-2 (ifpa_top500_max, ifpa_top150_max): with a max of 3 and 2, TEAM-TV-13 (a) and (b) pass."""
        options = TeamOptions(ifpa_top500_max=3, ifpa_top150_max=2)
        apply(with_ranks({"P1": 120, "P2": 480}), change(adds=(newcomer(3, "P3", rank=300),)), options=options)
        apply(with_ranks({"P1": 120}), change(adds=(newcomer(3, "P3", rank=140),)), options=options)
        with refused("TEAM-ROSTER-5", "Team would have 3 players in IFPA top 150 (max 2)"):
            apply(with_ranks({"P1": 120, "P2": 130}), change(adds=(newcomer(3, "P3", rank=1),)), options=options)


# --- TEAM-ROSTER-7: the 4 PM deadline ---------------------------------------------------------------------


class TestDeadline:
    @pytest.mark.parametrize(
        ("utc_instant", "earliest"),
        [
            # 2026-03-08, spring forward: 16:00 EDT = 20:00 UTC (it would be 21:00 UTC in EST).
            (datetime(2026, 3, 8, 19, 59, tzinfo=UTC), date(2026, 3, 8)),
            (datetime(2026, 3, 8, 20, 5, tzinfo=UTC), date(2026, 3, 9)),
            (datetime(2026, 3, 8, 3, 30, tzinfo=UTC), date(2026, 3, 8)),  # 22:30 EST on the 7th: past its cutoff
            # 2026-11-01, fall back: 16:00 EST = 21:00 UTC (it would be 20:00 UTC in EDT).
            (datetime(2026, 11, 1, 20, 59, tzinfo=UTC), date(2026, 11, 1)),
            (datetime(2026, 11, 1, 21, 5, tzinfo=UTC), date(2026, 11, 2)),
            (datetime(2026, 11, 1, 5, 30, tzinfo=UTC), date(2026, 11, 1)),  # 01:30 EDT, the first of two 01:30s
            (datetime(2026, 11, 1, 6, 30, tzinfo=UTC), date(2026, 11, 1)),  # 01:30 EST, the second
            (datetime(2026, 11, 2, 4, 30, tzinfo=UTC), date(2026, 11, 2)),  # 23:30 EST on the 1st
        ],
    )
    def test_earliest_effective_date_on_dst_change_days(self, utc_instant: datetime, earliest: date) -> None:
        """TEAM-ROSTER-7: the 16:00 cutoff is local wall-clock time on America/New_York DST change days."""
        assert earliest_effective_date(utc_instant, NY, DEFAULTS) == earliest

    def test_late_on_the_fall_back_day_is_refused_for_that_day(self) -> None:
        """TEAM-ROSTER-7: 16:05 EST on 2026-11-01 (21:05 UTC) for 11-01 → refused, earliest Mon 11-02."""
        with refused(
            "TEAM-ROSTER-7", "Roster changes for today closed at 4:00 PM; earliest effective date is Mon 2026-11-02"
        ):
            check_roster_deadline(date(2026, 11, 1), datetime(2026, 11, 1, 21, 5, tzinfo=UTC), NY, DEFAULTS)

    def test_on_the_spring_forward_day_3_30_pm_edt_is_in_time(self) -> None:
        """TEAM-ROSTER-7: 2026-03-08 19:30 UTC is 15:30 EDT → a change for that day is accepted."""
        check_roster_deadline(date(2026, 3, 8), datetime(2026, 3, 8, 19, 30, tzinfo=UTC), NY, DEFAULTS)

    def test_exactly_4_pm_is_in_time(self) -> None:
        """TEAM-ROSTER-7: "by 4 p.m." includes 16:00:00."""
        check_roster_deadline(WED, datetime(2026, 3, 4, 21, 0, tzinfo=UTC), NY, DEFAULTS)

    def test_future_dates_are_always_fine(self) -> None:
        """TEAM-ROSTER-7: requests for future dates are allowed, even late in the evening."""
        check_roster_deadline(THU, datetime(2026, 3, 5, 4, 59, tzinfo=UTC), NY, DEFAULTS)  # 23:59 Wed

    def test_past_dates_are_refused_naming_the_earliest_date(self) -> None:
        """TEAM-ROSTER-7: a change dated yesterday is refused and names today as the earliest date."""
        with refused(
            "TEAM-ROSTER-7", "Roster changes for Tue 2026-03-03 closed at 4:00 PM; earliest effective date is Wed"
        ):
            check_roster_deadline(date(2026, 3, 3), WED_NOON, NY, DEFAULTS)

    def test_a_configured_cutoff_is_used_and_named(self) -> None:
        """TEAM-CFG-2 (roster_cutoff): with a 12:30 cutoff, 12:45 EST is too late for today."""
        options = TeamOptions(roster_cutoff=time(12, 30))
        with refused("TEAM-ROSTER-7", "closed at 12:30 PM; earliest effective date is Thu 2026-03-05"):
            check_roster_deadline(WED, datetime(2026, 3, 4, 17, 45, tzinfo=UTC), NY, options)

    def test_a_naive_instant_is_a_programming_error(self) -> None:
        with pytest.raises(ValueError, match="aware"):
            earliest_effective_date(datetime(2026, 3, 4, 12, 0), NY, DEFAULTS)

    @given(
        instant=st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2027, 12, 31), timezones=st.just(UTC)),
        zone=st.sampled_from([NY, "Europe/London", "Australia/Lord_Howe", "America/St_Johns"]),
    )
    def test_the_deadline_agrees_with_the_local_wall_clock(self, instant: datetime, zone: str) -> None:
        """TEAM-ROSTER-7: D is accepted iff D ≥ earliest, and earliest is today iff local time ≤ 16:00."""
        local = instant.astimezone(ZoneInfo(zone))
        expected = local.date() if local.time() <= time(16, 0) else local.date() + timedelta(days=1)
        assert earliest_effective_date(instant, zone, DEFAULTS) == expected
        check_roster_deadline(expected, instant, zone, DEFAULTS)
        with pytest.raises(RuleViolation):
            check_roster_deadline(expected - timedelta(days=1), instant, zone, DEFAULTS)


# --- TEAM-ROSTER-8: no return after a drop ----------------------------------------------------------------


def test_another_team_may_pick_up_a_dropped_player() -> None:
    """TEAM-ROSTER-8: a player dropped elsewhere (no drop from THIS team) may be added, subject to MULTI-1."""
    after = apply(tv12_roster(), change(adds=(newcomer(20, "Dee", STARTER, other_teams=(T4,)),)))
    assert "Dee" in names(after)


# --- TEAM-ROSTER-9: the first roster ----------------------------------------------------------------------


class TestInitialRoster:
    @staticmethod
    def players(count: int, *, captains: int = 1) -> tuple[NewPlayer, ...]:
        return tuple(newcomer(n, f"P{n}", CAPTAIN if n <= captains else STARTER) for n in range(1, count + 1))

    def test_a_legal_first_roster_is_accepted(self) -> None:
        """TEAM-ROSTER-9: six starters with a captain pass TEAM-ROSTER-1..5."""
        state = validate_initial_roster(self.players(6), on=WED, team_match_weekday=THU_EVENING, options=DEFAULTS)
        assert state.on == WED
        assert len(state.entries) == 6 and len(state.captains) == 1

    def test_five_players_cannot_register(self) -> None:
        """TEAM-ROSTER-9, TEAM-ROSTER-1: a first roster of 5 → "Roster must have at least 6 players"."""
        with refused("TEAM-ROSTER-1", "Roster must have at least 6 players; it would have 5"):
            validate_initial_roster(self.players(5), on=WED, team_match_weekday=THU_EVENING, options=DEFAULTS)

    def test_an_empty_first_roster_is_refused(self) -> None:
        """TEAM-ROSTER-9, TEAM-ROSTER-1: no players → "Roster must have at least 6 players"."""
        with refused("TEAM-ROSTER-1", "it would have 0"):
            validate_initial_roster((), on=WED, team_match_weekday=THU_EVENING, options=DEFAULTS)

    def test_a_first_roster_needs_a_captain(self) -> None:
        """TEAM-ROSTER-9, TEAM-ROSTER-2: no captain → "A team needs one or two captains"."""
        with refused("TEAM-ROSTER-2", "A team needs one or two captains"):
            validate_initial_roster(
                self.players(7, captains=0), on=WED, team_match_weekday=THU_EVENING, options=DEFAULTS
            )

    def test_a_first_roster_needs_six_starters(self) -> None:
        """TEAM-ROSTER-9, TEAM-ROSTER-3: 5 starters and 2 reserves → refused."""
        roster = (*self.players(5), newcomer(6, "P6"), newcomer(7, "P7"))
        with refused("TEAM-ROSTER-3", "Team must keep at least 6 starters"):
            validate_initial_roster(roster, on=WED, team_match_weekday=THU_EVENING, options=DEFAULTS)

    def test_a_first_roster_obeys_the_ifpa_limits(self) -> None:
        """TEAM-ROSTER-9, TEAM-ROSTER-5: forming a team with three top-500 players → refused."""
        ranked = tuple(newcomer(10 + n, f"K{n}", STARTER, rank=100 * n + 200) for n in range(3))
        with refused("TEAM-ROSTER-5", "Team would have 3 players in IFPA top 500 (max 2)"):
            validate_initial_roster(self.players(6) + ranked, on=WED, team_match_weekday=THU_EVENING, options=DEFAULTS)

    def test_a_first_roster_obeys_multi_team_limits(self) -> None:
        """TEAM-ROSTER-9, TEAM-MULTI-1: a registrant whose other team shares the evening → refused."""
        roster = (*self.players(6), newcomer(7, "Pat", other_teams=(T1,)))
        with refused("TEAM-MULTI-1", "Pat's other team plays on the same evening"):
            validate_initial_roster(roster, on=WED, team_match_weekday=TUE, options=DEFAULTS)

    def test_every_problem_of_a_first_roster_is_listed_at_once(self) -> None:
        """TEAM-ROSTER-9: TEAM-ROSTER-11, TEAM-MULTI-1, TEAM-ROSTER-1, -3, -2 and -5 together, each naming its
        players, in one refusal."""
        roster = (
            newcomer(1, "Ann", STARTER, adult=False),
            newcomer(2, "Bea", STARTER, rank=100),
            newcomer(3, "Cy", STARTER, rank=120),
            newcomer(4, "Dee", RESERVE, other_teams=(T1,)),
            newcomer(5, "Eve", RESERVE, adult=False),
        )
        with pytest.raises(Refusals) as caught:
            validate_initial_roster(roster, on=WED, team_match_weekday=TUE, options=DEFAULTS)
        listed = [(problem.rule_id, problem.message) for problem in caught.value.refusals]
        assert [rule for rule, _ in listed] == [
            "TEAM-ROSTER-11", "TEAM-MULTI-1", "TEAM-ROSTER-11", "TEAM-ROSTER-1", "TEAM-ROSTER-3", "TEAM-ROSTER-2",
            "TEAM-ROSTER-5",
        ]  # fmt: skip
        assert (
            listed[0][1].startswith("Ann must confirm they are 18 or older")
            and "then set `adult:true` (`/roster edit` once listed)" in listed[0][1]
        )
        assert listed[1][1].startswith("Dee's other team plays on the same evening") and listed[2][1].startswith("Eve")
        assert listed[6][1] == "Team would have 2 players in IFPA top 150 (max 1): Bea #100, Cy #120."
        assert caught.value.message.startswith("The roster breaks 7 rules; fix them all, then submit it again:\n• ")
        assert "\n• TEAM-ROSTER-3: Team must keep at least 6 starters; it would have 3." in caught.value.message

    def test_a_single_problem_is_refused_on_its_own(self) -> None:
        """TEAM-ROSTER-9: one broken rule is its own refusal, so the reply names that rule once."""
        with pytest.raises(RuleViolation) as caught:
            validate_initial_roster(
                self.players(7, captains=0), on=WED, team_match_weekday=THU_EVENING, options=DEFAULTS
            )
        assert not isinstance(caught.value, Refusals) and caught.value.rule_id == "TEAM-ROSTER-2"


class TestChangeProblemsTogether:
    def test_a_change_lists_each_rule_it_breaks(self) -> None:
        """TEAM-ROSTER-2 (role step) with TEAM-ROSTER-11 and TEAM-ROSTER-8 for the same request."""
        request = change(adds=(newcomer(20, "Kid", adult=False, dropped_on=date(2026, 4, 1)),), roles=((1, RESERVE),))
        with pytest.raises(Refusals) as caught:
            apply(tv12_roster(), request)
        assert [problem.rule_id for problem in caught.value.refusals] == [
            "TEAM-ROSTER-2", "TEAM-ROSTER-11", "TEAM-ROSTER-8", "TEAM-ROSTER-2",
        ]  # fmt: skip
        assert caught.value.message.startswith("This change breaks 4 rules")

    def test_the_captain_gate_is_reported_alone(self) -> None:
        """TEAM-ROSTER-6: a non-captain learns only that, not the state of a roster they cannot change."""
        with refused("TEAM-ROSTER-6", "Only a captain may change the roster"):
            apply(tv12_roster(), change(adds=(newcomer(20, "Kid", adult=False),)), context(captain=False))


# --- TEAM-ROSTER-10 / TEAM-TV-21: frozen after the regular season -------------------------------------


class TestFreeze:
    def test_tv21_an_add_the_day_after_the_last_match_is_refused(self) -> None:
        """TEAM-TV-21, TEAM-ROSTER-10: an add the day after the final regular-season match → frozen."""
        next_morning = datetime(2026, 5, 6, 14, 0, tzinfo=UTC)  # 10:00 EDT Wed
        with refused("TEAM-ROSTER-10", "Rosters are frozen after the regular season (it ended Tue 2026-05-05)"):
            apply(
                tv12_roster(),
                change(on=date(2026, 5, 6), adds=(newcomer(15, "R5"),)),
                context(submitted_at=next_morning),
            )

    def test_status_changes_are_frozen_too(self) -> None:
        """TEAM-ROSTER-10: a status change dated after the season end → frozen, even if submitted in season."""
        with refused("TEAM-ROSTER-10", "Rosters are frozen after the regular season"):
            apply(tv12_roster(), change(on=date(2026, 5, 12), roles=((7, RESERVE),)))

    def test_backdating_after_the_season_is_frozen_not_late(self) -> None:
        """TEAM-ROSTER-10: submitted after the season for its last day → frozen (not the ROSTER-7 message)."""
        next_morning = datetime(2026, 5, 6, 14, 0, tzinfo=UTC)
        with refused("TEAM-ROSTER-10", "Rosters are frozen after the regular season"):
            apply(tv12_roster(), change(on=SEASON_END, drops=(2,)), context(submitted_at=next_morning))

    def test_after_4_pm_on_the_last_day_is_frozen(self) -> None:
        """TEAM-ROSTER-10: after 16:00 on the last match date the earliest date is past the season → frozen."""
        last_evening = datetime(2026, 5, 5, 20, 30, tzinfo=UTC)  # 16:30 EDT
        with refused("TEAM-ROSTER-10", "Rosters are frozen after the regular season"):
            apply(tv12_roster(), change(on=SEASON_END, drops=(2,)), context(submitted_at=last_evening))

    def test_the_last_match_day_itself_is_open_until_4_pm(self) -> None:
        """TEAM-ROSTER-10: a change for the last regular-season date, in time, is still accepted."""
        last_afternoon = datetime(2026, 5, 5, 19, 0, tzinfo=UTC)  # 15:00 EDT
        after = apply(tv12_roster(), change(on=SEASON_END, drops=(2,)), context(submitted_at=last_afternoon))
        assert after.on == SEASON_END

    def test_no_freeze_before_a_schedule_exists(self) -> None:
        """TEAM-ROSTER-10: with no regular-season match scheduled yet there is no end date to freeze at."""
        after = apply(tv12_roster(), change(on=date(2026, 9, 1), drops=(2,)), context(season_end=None))
        assert after.on == date(2026, 9, 1)


# --- TEAM-ROSTER-11 / TEAM-AMB-18: adults only ----------------------------------------------------------


class TestAdultAttestation:
    def test_an_add_without_the_adult_attestation_is_refused(self) -> None:
        """TEAM-ROSTER-11, TEAM-AMB-18: registration needs the adult attestation (18 by default)."""
        with refused("TEAM-ROSTER-11", "Kid must confirm they are 18 or older"):
            apply(tv12_roster(), change(adds=(newcomer(15, "Kid", adult=False),)))

    def test_the_configured_minimum_age_is_named(self) -> None:
        """TEAM-AMB-18: a commissioner who raised min_age to 21 gets that age in the message."""
        with refused("TEAM-ROSTER-11", "Kid must confirm they are 21 or older"):
            apply(tv12_roster(), change(adds=(newcomer(15, "Kid", adult=False),)), options=TeamOptions(min_age=21))


# --- TEAM-MULTI-1..3 / TEAM-TV-22: players on several teams --------------------------------------------


class TestSeveralTeams:
    def test_tv22_same_evening_is_refused(self) -> None:
        """TEAM-TV-22, TEAM-MULTI-1: P is on T1 (Tuesdays); adding P to T2 (Tuesdays) → refused."""
        with refused("TEAM-MULTI-1", "P's other team plays on the same evening: T1 also plays on Tuesdays"):
            apply(tv12_roster(), change(adds=(newcomer(15, "P", other_teams=(T1,)),)), context(weekday=TUE))

    def test_tv22_a_different_evening_is_fine(self) -> None:
        """TEAM-TV-22, TEAM-MULTI-1: adding P to T3 (Thursdays, East) → OK."""
        after = apply(tv12_roster(), change(adds=(newcomer(15, "P", other_teams=(T1,)),)), context(weekday=THU_EVENING))
        assert "P" in names(after)

    def test_tv22_a_third_team_is_refused(self) -> None:
        """TEAM-TV-22, TEAM-MULTI-1: P on T1 and T3; adding to a 3rd team (Mondays) → "already on 2 teams"."""
        with refused("TEAM-MULTI-1", "P is already on 2 teams: T1 and T3"):
            apply(tv12_roster(), change(adds=(newcomer(15, "P", other_teams=(T1, T3)),)), context(weekday=MON))

    def test_the_configured_team_limit_is_honoured(self) -> None:
        """TEAM-CFG-2 (max_teams_per_player), TEAM-MULTI-1: with a limit of 1, a second team is refused."""
        with refused("TEAM-MULTI-1", "P is already on 1 team: T1"):
            apply(
                tv12_roster(),
                change(adds=(newcomer(15, "P", other_teams=(T1,)),)),
                options=TeamOptions(max_teams_per_player=1),
            )

    def test_tv22_first_playoff_lineup_locks_the_player(self) -> None:
        """TEAM-TV-22, TEAM-MULTI-2: T1 and T3 both in the East playoffs; P plays T1's semifinal → locked to T1,
        and a later T3 playoff lineup with P → "locked to T1"."""
        lock = playoff_team_lock("P", T1, (T1, T3), locked_to=None)
        assert lock == T1
        assert playoff_team_lock("P", T1, (T1, T3), locked_to=lock) == T1  # the final with T1 again
        with refused("TEAM-MULTI-2", "P is locked to T1 for these playoffs"):
            playoff_team_lock("P", T3, (T1, T3), locked_to=lock)

    def test_a_recorded_choice_locks_before_any_lineup(self) -> None:
        """TEAM-MULTI-2: P chose T3; a T1 playoff lineup with P → "locked to T3"."""
        with refused("TEAM-MULTI-2", "P is locked to T3 for these playoffs"):
            playoff_team_lock("P", T1, (T1, T3), locked_to=T3)

    def test_teams_in_different_conferences_do_not_lock(self) -> None:
        """TEAM-MULTI-3: T1 (East) and T4 (West) → P may play both playoffs; no lock is recorded."""
        assert playoff_team_lock("P", T1, (T1, T4), locked_to=None) is None
        assert playoff_team_lock("P", T4, (T1, T4), locked_to=None) is None

    def test_one_team_in_the_playoffs_does_not_lock(self) -> None:
        """TEAM-MULTI-2: the lock needs both same-conference teams in the playoffs."""
        assert playoff_team_lock("P", T1, (T1,), locked_to=None) is None

    def test_a_second_playoff_match_on_the_same_night_is_refused(self) -> None:
        """TEAM-MULTI-3: T1 and T4 both play on 2026-05-19; P already played T1's match → refused in T4's."""
        t1_match = PlayoffAppearance(match_id=7, label="T1 vs T5", played_on=date(2026, 5, 19))
        message = (
            "P already played in T1 vs T5 tonight. A player on two playoff teams plays one of their matches a "
            "night: name another player."
        )
        with refused("TEAM-MULTI-3", message):
            check_one_match_per_night("P", match_id=8, match_on=date(2026, 5, 19), appearances=(t1_match,))

    def test_playoff_matches_on_other_nights_and_later_rounds_are_fine(self) -> None:
        """TEAM-MULTI-3: another night, or another round of the same match, is not a second match tonight."""
        t1_match = PlayoffAppearance(match_id=7, label="T1 vs T5", played_on=date(2026, 5, 19))
        check_one_match_per_night("P", match_id=8, match_on=date(2026, 5, 21), appearances=(t1_match,))
        check_one_match_per_night("P", match_id=7, match_on=date(2026, 5, 19), appearances=(t1_match,))


# --- TEAM-CFG-2: the configured roster numbers ----------------------------------------------------------


class TestConfiguredNumbers:
    def test_a_smaller_roster_max_is_named(self) -> None:
        """TEAM-CFG-2 (roster_max): with a max of 11, adding a 12th → "Roster is full (max 11)"."""
        with refused("TEAM-ROSTER-1", "Roster is full (max 11)"):
            apply(tv12_roster(), change(adds=(newcomer(15, "R5"),)), options=TeamOptions(roster_max=11))

    def test_a_larger_roster_min_is_named(self) -> None:
        """TEAM-CFG-2 (roster_min): with a min of 11, dropping one of 11 → "at least 11 players"."""
        with refused("TEAM-ROSTER-1", "Roster must have at least 11 players; it would have 10"):
            apply(tv12_roster(), change(drops=(11,)), options=TeamOptions(roster_min=11))

    def test_a_larger_starters_min_is_named(self) -> None:
        """TEAM-CFG-2 (starters_min): with 7 required, dropping S2 → "at least 7 starters"."""
        with refused("TEAM-ROSTER-3", "Team must keep at least 7 starters; it would have 6"):
            apply(tv12_roster(), change(drops=(2,)), options=TeamOptions(starters_min=7))

    def test_a_single_captain_league(self) -> None:
        """TEAM-CFG-2 (captains): with exactly one captain allowed, a second → "exactly one captain"."""
        with refused("TEAM-ROSTER-2", "A team needs exactly one captain; it would have 2: S1, S2"):
            apply(tv12_roster(), change(roles=((2, CAPTAIN),)), options=TeamOptions(captains_max=1))


# --- Refusals word for word ------------------------------------------------------------------------------


class TestRefusalWording:
    def test_roster_6_names_the_captains_to_ask(self) -> None:
        """TEAM-ROSTER-6: the refusal names whom to ask, or nobody when the roster has no captain."""
        two = RosterState(on=WED, entries=(member(1, "S1", CAPTAIN), member(2, "S2", CAPTAIN), member(3, "S3")))
        none = RosterState(on=WED, entries=(member(3, "S3"),))
        for state, words in (
            (tv12_roster(), "Only a captain may change the roster: ask S1."),
            (two, "Only a captain may change the roster: ask S1 or S2."),
            (none, "Only a captain may change the roster."),
        ):
            with pytest.raises(RuleViolation) as info:
                apply(state, change(drops=(3,)), context(captain=False))
            assert (info.value.rule_id, info.value.message) == ("TEAM-ROSTER-6", words)

    def test_a_request_that_changes_nothing_or_names_a_player_twice(self) -> None:
        with pytest.raises(InvalidInput) as info:
            apply(tv12_roster(), change())
        assert info.value.message == "The roster change is empty: add, drop or change the role of at least one player."
        with pytest.raises(InvalidInput) as info:
            apply(tv12_roster(), change(drops=(12,), roles=((12, STARTER),)))
        assert info.value.message == "Name each player once per roster change."

    def test_roster_2_role_steps(self) -> None:
        """TEAM-ROSTER-2: captain to reserve, or reserve to captain, in one step."""
        with pytest.raises(Refusals) as info:
            apply(tv12_roster(), change(roles=((1, RESERVE), (11, CAPTAIN))))
        step_messages = [p.message for p in info.value.refusals if p.message.startswith("Captains must be starters")]
        assert step_messages == [
            "Captains must be starters: S1 is a captain, so make them a plain starter before moving them to reserve.",
            "Captains must be starters: R1 is a reserve, so make them a starter before making them a captain.",
        ]

    @pytest.mark.parametrize(
        ("low", "high", "needs"),
        [
            (1, 1, "exactly one captain"),
            (2, 2, "exactly two captains"),
            (1, 2, "one or two captains"),
            (1, 3, "one to three captains"),
            (2, 7, "two to 7 captains"),
            (1, 6, "one to six captains"),
        ],
    )
    def test_roster_2_says_how_many_captains_a_team_needs(self, low: int, high: int, needs: str) -> None:
        """TEAM-ROSTER-2, TEAM-CFG-2: the captain range in words."""
        options = TeamOptions(captains_min=low, captains_max=high)
        roster = tuple(member(n, f"S{n}") for n in range(1, 7))
        [problem] = [p for p in roster_problems(roster, options) if p.rule_id == "TEAM-ROSTER-2"]
        assert problem.message == f"A team needs {needs}; it would have none."

    def test_roster_10_frozen_after_the_season(self) -> None:
        """TEAM-ROSTER-10"""
        with pytest.raises(RuleViolation) as info:
            apply(tv12_roster(), change(on=date(2026, 5, 6), drops=(14,)))
        assert info.value.message == (
            "Rosters are frozen after the regular season (it ended Tue 2026-05-05); "
            "the playoff roster is the one in force on that date."
        )

    def test_roster_7_a_morning_cutoff_and_a_league_east_of_utc(self) -> None:
        """TEAM-ROSTER-7: a 9:30 AM cutoff reads AM; in Tokyo, 20:00 UTC Wednesday is already Thursday morning,
        so a change for Wednesday closed on Wednesday, not "today"."""
        morning = TeamOptions(roster_cutoff=time(9, 30))
        with refused("TEAM-ROSTER-7", "Roster changes for today closed at 9:30 AM; earliest effective date is Thu"):
            check_roster_deadline(WED, WED_NOON, NY, morning)
        tokyo_thursday = datetime(2026, 3, 4, 20, 0, tzinfo=UTC)
        assert earliest_effective_date(tokyo_thursday, "Asia/Tokyo", DEFAULTS) == THU
        with refused(
            "TEAM-ROSTER-7", "Roster changes for Wed 2026-03-04 closed at 4:00 PM; earliest effective date is Thu"
        ):
            check_roster_deadline(WED, tokyo_thursday, "Asia/Tokyo", DEFAULTS)

    def test_a_submission_time_must_say_its_zone(self) -> None:
        with pytest.raises(ValueError, match=r"^submitted_at must be timezone-aware$"):
            earliest_effective_date(datetime(2026, 3, 4, 12, 0), NY, DEFAULTS)
