"""A team league's configurable rules, defaulting to the Pinball NYC sheet (TEAM-CFG-2 and TEAM-AMB-*).

Stored as JSON in `league.options`; `TeamOptions.model_validate(league.options)` rebuilds it, with the
defaults for any key not set. Every field cites the catalog entry it configures; the score-entry options
every format shares (`allow_shorthand`, `score_ceiling`) come from `bot.rules.scores.ScoreInputOptions`.
"""

from __future__ import annotations

from datetime import time
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from bot.rules.scores import ScoreInputOptions
from bot.rules.team.model import RoundKind

D, S = RoundKind.DOUBLES, RoundKind.SINGLES
ALLOWED_ROUND_ORDERS = ((D, D, S, S), (D, S, D, S), (D, S, S, D))  # TEAM-AMB-1


class TeamOptions(ScoreInputOptions):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Rosters (TEAM-CFG-2, TEAM-ROSTER-*)
    roster_min: int = Field(6, ge=1)
    roster_max: int = Field(12, ge=1)
    starters_min: int = Field(6, ge=1)
    captains_min: int = Field(1, ge=1)
    captains_max: int = Field(2, ge=1)
    ifpa_top500_max: int = Field(2, ge=0)
    ifpa_top150_max: int = Field(1, ge=0)
    roster_cutoff: time = time(16, 0)  # TEAM-ROSTER-7, local league time on the effective date
    max_teams_per_player: int = Field(2, ge=1)  # TEAM-MULTI-1
    min_age: int = Field(18, ge=18)  # TEAM-AMB-18
    # TEAM-ROSTER-5's figures beside the roster's mean rating (docs/ratings.md)
    use_ratings: bool = Field(
        False, description="rosters show the team's mean rating and provisional count beside its IFPA-limit figures"
    )

    # Match night (TEAM-CFG-2, TEAM-SCHED-3)
    match_start: time = time(20, 0)
    start_wait_minutes: int = Field(15, ge=0)
    optional_extra_wait_minutes: int = Field(15, ge=0)
    machine_adjust_cutoff: time = time(18, 0)  # TEAM-MACH-8
    short_attendance_flag: int = Field(2, ge=1)  # TEAM-SCHED-4
    slam_tilt_flag: int = Field(2, ge=1)  # TEAM-DISC-3

    # Rounds and points (TEAM-LINEUP-1, TEAM-AMB-1)
    round_order: tuple[RoundKind, ...] = (D, D, S, S)
    doubles_game_pts: int = Field(2, ge=0)
    singles_game_pts: int = Field(1, ge=0)
    doubles_tally: Literal["sum", "wins"] = "sum"  # TEAM-AMB-3
    both_short_doubles: Literal["pair_vs_solo_each", "pair_vs_pair_and_solo_vs_solo"] = "pair_vs_solo_each"  # AMB-5
    forfeit_slot_counts_as_play: bool = False  # TEAM-AMB-6

    # Forfeits (TEAM-FORF-*, TEAM-VENUE-*)
    forfeit_win_pts: int = Field(9, ge=0)
    forfeit_played_bonus: int = Field(3, ge=0)
    illegal_move_win_pts: int = Field(12, ge=0)

    # Standings and playoffs (TEAM-STAND-*, TEAM-PO-*)
    playoff_teams: int = Field(4, ge=2)  # TEAM-AMB-14
    neutral_venue_c3: Literal["c3_strict", "c3_allow_common"] = "c3_strict"  # TEAM-AMB-24
    hs_merge_variants: bool = False  # TEAM-AMB-16

    @model_validator(mode="after")
    def _consistent(self) -> TeamOptions:
        if self.roster_min > self.roster_max:
            raise ValueError("roster_min cannot exceed roster_max")
        if self.starters_min > self.roster_max:
            raise ValueError("starters_min cannot exceed roster_max")
        if self.captains_min > self.captains_max:
            raise ValueError("captains_min cannot exceed captains_max")
        if tuple(self.round_order) not in ALLOWED_ROUND_ORDERS:
            raise ValueError("round_order must be D,D,S,S, D,S,D,S or D,S,S,D (TEAM-AMB-1)")
        return self


WHAT_IFS: dict[str, dict[str, Any]] = {f"{teams} playoff teams": {"playoff_teams": teams} for teams in (2, 6, 8)}
"""`/standings what-if:` suggestions: the playoff line elsewhere, and the tiebreaker matches it needs (TEAM-AMB-14)."""
