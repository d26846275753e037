"""The UK Pinball League's rules as each era actually applied them: dated versions of `UKPL_OPTIONS`.

Pure data, reconstructed from the league's stored results (../shared/data/ukpl/README.md, "Rules as actually
applied in each era"; docs/ukpl-eras.md). A version takes effect from a season, or from a date within a
season, in one region or in all; it sets only the options it names. The options in force for a meet are
`UKPL_OPTIONS` with every version that has begun by then applied in order, so a later version overrides an
earlier one and a regional version overrides an all-region one that starts at the same time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import cache
from types import MappingProxyType
from typing import Any

from bot.rules.field.options import UKPL_OPTIONS, FieldOptions

EVERY_REGION = None


@dataclass(frozen=True)
class RuleVersion:
    season: int
    region: str | None  # a region code (`n`, `lse` …) or EVERY_REGION
    options: Mapping[str, Any]
    since: date | None = None  # from this date within the season; None: from the season's start

    @property
    def starts(self) -> tuple[int, date]:
        return (self.season, self.since or date.min)


def _version(season: int, region: str | None, since: date | None = None, **options: Any) -> RuleVersion:
    return RuleVersion(season, region, MappingProxyType(options), since)


UKPL_ERAS: tuple[RuleVersion, ...] = (
    # League points 7 … 1 and at least 1 for the top half in seasons 1-4, first = 15 in 5-7, 20 from 8;
    # positions migrated from the old site rank league points until season 14.
    _version(1, EVERY_REGION, position_points_first=7, top_half_points=1, position_by="position_points"),
    _version(5, EVERY_REGION, position_points_first=15, top_half_points=0),
    _version(8, EVERY_REGION, position_points_first=20),
    # The new database from season 15 applied its SQL everywhere: documented readings again…
    _version(
        15,
        EVERY_REGION,
        position_by="machine_points",
        top_bonus=1,
        machine_ties="share_higher",
        unrecorded_scores="rank_last",
    ),
    # …but its RANK() ran ascending, so tied players took the lower points, after Northern's first two
    # meets, until commit 63cbcbd (2024-01-08), which recomputed season 17.
    _version(15, EVERY_REGION, date(2022, 2, 14), machine_ties="share_lower"),
    _version(17, EVERY_REGION, machine_ties="share_higher"),
    # Legacy regional readings: no double-score bonus, tied players on the lower points, and a NULL score
    # earning 0, either left out of the machine's N (no_points) or still counted in it (no_points_counted).
    _version(1, "n", top_bonus=0),
    _version(5, "n", top_bonus=1),
    _version(6, "n", unrecorded_scores="no_points"),
    _version(7, "n", unrecorded_scores="rank_last"),
    _version(1, "sw", top_bonus=0),
    _version(5, "sw", top_bonus=1),
    _version(10, "sw", unrecorded_scores="no_points_counted"),
    _version(13, "sw", top_bonus=0, unrecorded_scores="rank_last"),
    _version(2, "m", top_bonus=0),
    _version(5, "m", top_bonus=1),
    _version(8, "m", unrecorded_scores="no_points_counted"),
    _version(10, "m", machine_ties="share_lower", unrecorded_scores="no_points"),
    _version(12, "m", unrecorded_scores="rank_last"),
    _version(13, "m", unrecorded_scores="no_points"),
    _version(4, "lse", top_bonus=0),
    _version(5, "lse", top_bonus=1),
    _version(10, "lse", unrecorded_scores="no_points"),
    _version(3, "s", top_bonus=0),
    _version(5, "s", top_bonus=1, unrecorded_scores="no_points_counted"),
    _version(6, "s", top_bonus=0, unrecorded_scores="rank_last"),
    _version(7, "s", top_bonus=1),
    _version(8, "s", top_bonus=0),
    _version(12, "s", top_bonus=1),
    _version(14, "i", machine_ties="share_lower"),
)


def versions_in_force(
    season: int, region: str, day: date | None, versions: tuple[RuleVersion, ...] = UKPL_ERAS
) -> list[RuleVersion]:
    """The versions begun by a meet of `season` on `day` in `region`, in the order they apply. A meet with
    no date counts as the season's first."""
    meet_starts = (season, day or date.min)
    begun = [v for v in versions if v.region in (EVERY_REGION, region) and v.starts <= meet_starts]
    return sorted(begun, key=lambda v: (v.starts, v.region is not EVERY_REGION))


@cache
def era_options(season: int, region: str, day: date | None) -> FieldOptions:
    """The UKPL options in force for a meet of `season` on `day` in `region`."""
    merged = UKPL_OPTIONS.model_dump()
    for version in versions_in_force(season, region, day):
        merged.update(version.options)
    return FieldOptions.model_validate(merged)
