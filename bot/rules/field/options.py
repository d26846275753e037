"""A field league's configurable rules, defaulting to the Lafayette sheet (FIELD-CFG-1 and FIELD-AMB-*).

Stored as JSON in `league.options`; `FieldOptions.model_validate(league.options)` rebuilds it with the
defaults for any key not set. The same model expresses the UK Pinball League's meets (`UKPL_OPTIONS`):
points N…1 by the players on each machine, shared ties at the higher points, a +1 bonus for a first place
at least double the second, position points max(0, 21 − place) averaged over shared places, best-N meets.
The score-entry options every format shares (`allow_shorthand`, `score_ceiling`) come from
`bot.rules.scores.ScoreInputOptions`; `require_commas` (COMMON-AMB-5) is the field format's own.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import time
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from bot.rules.scores import ScoreInput, ScoreInputOptions


class FieldOptions(ScoreInputOptions):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Season and meet (FIELD-CFG-1, FIELD-AMB-16)
    regular_weeks: int = Field(8, ge=1)
    machines_per_meet: int = Field(5, ge=1)  # FIELD-MSEL-1
    closing_time: time | None = None  # FIELD-ATT-2: the venue's closing time, local league time
    officials: tuple[str, ...] = ("President", "Vice President", "Statistician")  # FIELD-OFF-1, highest first
    extra_ball_allowed: tuple[str, ...] = ()  # FIELD-MSEL-3: machines (titles) where an extra ball may be played

    # Groups (FIELD-GROUP-1, FIELD-AMB-1)
    max_group: int = Field(4, ge=2)
    sizes_for_five: tuple[int, ...] = (3, 2)
    # FIELD-GROUP-2, FIELD-AMB-2: the snake deal orders rated players by rating (docs/ratings.md)
    use_ratings: bool = Field(
        False, description="groups mix abilities by rating; players without one keep their place by standing"
    )

    # Machine points (FIELD-SCORE-2/3/6, FIELD-AMB-3/17)
    points_scale: Literal["fixed", "machine_field"] = "fixed"  # fixed: top_points down; machine_field: N…1
    top_points: int = Field(25, ge=1)
    top_bonus: int = Field(5, ge=0)
    bonus_rule: Literal["top_score", "double_second"] = "top_score"
    # playoff = one-ball playoff (FIELD-SCORE-3); share_lower: 29, 27, 27, 26 (UKPL seasons 15-16)
    machine_ties: Literal["playoff", "share_higher", "share_lower"] = "playoff"
    guests_ranked: bool = True  # FIELD-ATT-3: guests count in the field ranking
    zero_no_rank_all: bool = False  # FIELD-AMB-3
    # A score never recorded (UKPL legacy NULL): ranked last and scored (rank_last), or 0 points and left out
    # of the machine's N (no_points) or still counted in it (no_points_counted)
    unrecorded_scores: Literal["rank_last", "no_points", "no_points_counted"] = "rank_last"

    # Meet positions and season (FIELD-STAND-1, UKPL best-N)
    position_points_first: int = Field(20, ge=1)  # place k earns max(0, first + 1 − k), shared places averaged
    top_half_points: int = Field(0, ge=0)  # at least this for a place in the top half, k ≤ players // 2
    position_by: Literal["machine_points", "position_points"] = "machine_points"  # what the meet position ranks
    season_points: Literal["machine_points", "position_points"] = "machine_points"
    drop_lowest_weeks: int = Field(2, ge=0)  # FIELD-STAND-1
    best_meets: int | None = Field(None, ge=1)  # UKPL: only the best N meets count (replaces drop_lowest_weeks)
    correction_window_hours: int = Field(48, ge=1)  # FIELD-SCORE-4
    require_commas: bool = False  # COMMON-AMB-5
    recompute_on_wipe: bool = False  # FIELD-AMB-19

    # Finals (FIELD-FIN-*, FIELD-PAY-*, FIELD-AMB-4/5/8/9)
    min_weeks_for_finals: int | None = Field(None, ge=0)  # None = ceil(regular_weeks / 2) (FIELD-AMB-5)
    bracket_slots: int = Field(16, ge=2)  # FIELD-FIN-3
    ab_divisions: bool = False  # FIELD-AMB-4
    a_division_size: int = Field(8, ge=2)
    b_division_min_weeks: int = Field(3, ge=0)
    grand_final_reset: bool = True  # FIELD-AMB-8
    finals_fee_cents: int = Field(1000, ge=0)  # FIELD-PAY-2
    plaque_cost_cents: int = Field(4000, ge=0)
    payout_percents: tuple[int, ...] = (70, 30)
    finals_notes: tuple[str, ...] = ()  # FIELD-FIN-8, e.g. "Rolling Stones: posts off"

    @model_validator(mode="after")
    def _consistent(self) -> FieldOptions:
        if sum(self.payout_percents) != 100:
            raise ValueError("payout_percents must add up to 100 (FIELD-PAY-2)")
        if sum(self.sizes_for_five) != 5 or max(self.sizes_for_five) > self.max_group:
            raise ValueError("sizes_for_five must add up to 5 with groups no larger than max_group (FIELD-AMB-1)")
        if self.bracket_slots & (self.bracket_slots - 1):
            raise ValueError("bracket_slots must be a power of two (FIELD-FIN-3)")
        return self

    @property
    def score_input(self) -> ScoreInput:
        return replace(super().score_input, require_commas=self.require_commas)

    @property
    def finals_min_weeks(self) -> int:
        """FIELD-FIN-1 / FIELD-AMB-5/16: at least half the regular weeks, rounded up, unless configured."""
        if self.min_weeks_for_finals is not None:
            return self.min_weeks_for_finals
        return -(-self.regular_weeks // 2)


UKPL_OPTIONS = FieldOptions.model_validate(
    {
        "points_scale": "machine_field",
        "top_bonus": 1,
        "bonus_rule": "double_second",
        "machine_ties": "share_higher",
        "guests_ranked": False,
        "position_points_first": 20,
        "season_points": "position_points",
        "drop_lowest_weeks": 0,
        "best_meets": 4,
    }
)
"""The UK Pinball League's documented meet rules (../shared/data/ukpl/README.md)."""

WHAT_IFS: dict[str, dict[str, Any]] = {
    "no dropped weeks": {"drop_lowest_weeks": 0, "best_meets": None},
    "drop the lowest week": {"drop_lowest_weeks": 1, "best_meets": None},
    "drop the lowest 3 weeks": {"drop_lowest_weeks": 3, "best_meets": None},
    "points by field size (N down to 1)": {"points_scale": "machine_field"},
    "no top-score bonus": {"top_bonus": 0},
}
"""`/standings what-if:` suggestions: the season table under other counting or points (FIELD-STAND-1, FIELD-CFG-1)."""
