"""A ladder league's configurable rules, defaulting to the JPA sheet (LADDER-CFG-1 and LADDER-AMB-*).

Stored as JSON in `league.options`; `LadderOptions.model_validate(league.options)` rebuilds it, with the
defaults for any key not set. Every field cites the catalog entry it configures; the score-entry options
every format shares (`allow_shorthand`, `score_ceiling`) come from `bot.rules.scores.ScoreInputOptions`.
"""

from __future__ import annotations

from datetime import time
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from bot.rules.scores import ScoreInputOptions


class LadderOptions(ScoreInputOptions):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Season and night (LADDER-CFG-1, LADDER-REG-1)
    regular_weeks: int = Field(10, ge=1)
    games_per_match: int = Field(5, ge=1)
    check_in: time = time(19, 15)
    group_start: time = time(19, 30)
    last_join_week: int = Field(2, ge=1)  # LADDER-REG-1, LADDER-AMB-26: joins close when week 3 starts
    split_after_week: int = Field(5, ge=1)  # LADDER-DIV-1
    min_players_for_split: int = Field(8, ge=2)  # LADDER-REG-3, LADDER-DIV-3, LADDER-AMB-18

    # Attendance (LADDER-ATT-*, LADDER-AMB-21/22)
    late_notice_deadline: time = time(15, 0)
    absence_notice_deadline: time = time(19, 0)
    no_shows_to_drop: int = Field(3, ge=1)
    drop_trigger_game: int = Field(3, ge=1)  # LADDER-ATT-5: the group starting game 3

    # Game points (LADDER-SCORE-*, LADDER-AMB-1..6)
    pmu_4th_point: Literal["void", "to_third"] = "void"  # LADDER-AMB-4
    case2: Literal["case2_literal", "case2_to_third"] = "case2_literal"  # LADDER-AMB-3
    round_half: Literal["up", "even"] = "up"  # LADDER-AMB-6
    choose_position: bool = False  # LADDER-AMB-30

    # Premakeups and ghosts (LADDER-PMU-*, LADDER-GHOST-*)
    pmu_per_machine: int = Field(2, ge=1)
    pmu_season_cap: int = Field(15, ge=0)
    ghost_after_missed_weeks: int = Field(3, ge=0)  # "more than three weeks"
    pmu_order_lock: Literal["per_machine", "global"] = "per_machine"  # LADDER-AMB-32

    # Week 1's groups (LADDER-GROUP-2) by rating (docs/ratings.md); the self-estimate only for the unrated
    use_ratings: bool = Field(
        False, description="week 1's groups are dealt by rating; the self-estimated skill places unrated players"
    )

    # Movement (LADDER-GROUP-4, LADDER-AMB-12)
    double_swap: Literal["lower_group_4", "both_groups_4"] = "lower_group_4"
    double_swap_threshold: int = Field(10, ge=0)

    # Money in cents (LADDER-PAY-*, LADDER-AMB-20)
    weekly_dues_cents: int = Field(600, ge=0)
    weekly_pot_percent: int = Field(50, ge=0, le=100)
    large_league_players: int = Field(18, ge=1)
    small_league_split: tuple[int, ...] = (75, 25)
    large_league_split: tuple[int, ...] = (65, 25, 10)
    consolation_a_percent: int = Field(20, ge=0, le=100)  # LADDER-AMB-23 footnote "*"
    consolation_b_percent: int = Field(50, ge=0, le=100)  # LADDER-AMB-23 footnote "**"

    # Season prizes in cents, 1st, 2nd, 3rd… (LADDER-PAY-5): the sheet's table is missing, so the commissioner
    # enters one per division (LADDER-AMB-23); division A's table serves the whole league before any split.
    prizes_a_cents: tuple[int, ...] = ()
    prizes_b_cents: tuple[int, ...] = ()

    # Playoffs (LADDER-PO-*, LADDER-AMB-19/34)
    playoff_qualifiers: int | None = Field(None, ge=2, le=6)  # None: clamp(division size // 3, 2, 6)
    prizes_by: Literal["playoffs", "standings"] = "playoffs"  # LADDER-AMB-34

    @model_validator(mode="after")
    def _consistent(self) -> LadderOptions:
        for name in ("small_league_split", "large_league_split"):
            split = getattr(self, name)
            if not split or sum(split) != 100 or any(share < 0 for share in split):
                raise ValueError(f"{name} must be non-negative percentages adding up to 100 (LADDER-PAY-2)")
        if any(prize < 0 for prize in (*self.prizes_a_cents, *self.prizes_b_cents)):
            raise ValueError("season prizes are amounts in cents, none below 0 (LADDER-PAY-5)")
        if self.split_after_week >= self.regular_weeks:
            raise ValueError("split_after_week must come before the last regular week (LADDER-DIV-1)")
        return self


WHAT_IFS: dict[str, dict[str, Any]] = {
    f"{places} playoff places per division": {"playoff_qualifiers": places} for places in (2, 4, 6)
}
"""`/standings what-if:` suggestions: the playoff places under another count (LADDER-PO-1)."""
