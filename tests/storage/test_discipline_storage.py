"""The commissioner's tables on SQLite and PostgreSQL: the discipline ledger read back by the good-standing
check (COMMON-PLAYER-2, COMMON-DISC-1), one alternative result per disputed game (TEAM-DISP-3), and the
extra official roles a league keeps (COMMON-ROLE-1)."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy.exc import IntegrityError

from bot.rules.discipline import DisciplineKind
from bot.rules.refusals import RuleViolation
from bot.services.actor import Actor
from bot.services.discipline import require_in_good_standing
from bot.services.permissions import is_commissioner
from storage.db import Database
from storage.discipline import AlternativeResult, DisciplineEntry
from storage.matches import Match
from storage.models import League
from tests.storage import helpers as make
from tests.storage.helpers import WHEN, add, insert


async def test_suspension_read_back_bars_the_player(db: Database) -> None:
    """COMMON-PLAYER-2 / COMMON-DISC-1: a stored suspension refuses the player, naming the ruling, until it ends."""
    async with db.writing() as session:
        league = await add(session, make.league())
        season = await add(session, make.season(league.id))
        player = await add(session, make.player(league.id))
        entry = await add(
            session,
            DisciplineEntry(
                league_id=league.id, season_id=season.id, player_id=player.id, kind=DisciplineKind.SUSPENSION,
                rule_id="TEAM-DISC-1", reason="Threats", starts_on=date(2026, 3, 1), ends_on=date(2026, 3, 31),
                issued_by=1, issued_at=WHEN,
            ),
        )  # fmt: skip
    async with db.reading() as session:
        with pytest.raises(RuleViolation) as refused:
            await require_in_good_standing(session, league, [player.id], on=date(2026, 3, 31), doing="be in a lineup")
        assert f"(ruling #{entry.id})" in refused.value.message
        await require_in_good_standing(session, league, [player.id], on=date(2026, 4, 1), doing="be in a lineup")


async def test_one_alternative_result_per_game(db: Database) -> None:
    """TEAM-DISP-3: a disputed game is played both ways once; the scores keep their player ids."""
    async with db.writing() as session:
        league = await add(session, make.league())
        season = await add(session, make.season(league.id))
        home, away = await add(session, make.team(league.id, "Home")), await add(session, make.team(league.id, "Away"))
        match = await add(
            session,
            Match(league_id=league.id, season_id=season.id, week=1, play_on=date(2026, 3, 4),
                  home_team_id=home.id, away_team_id=away.id),
        )  # fmt: skip
    first = await insert(db, AlternativeResult(match_id=match.id, round_index=1, game_number=2,
                                               scores={"7": 12_345_670}, entered_by=1, entered_at=WHEN))  # fmt: skip
    async with db.reading() as session:
        stored = await session.get(AlternativeResult, first.id)
    assert stored is not None and stored.scores == {"7": 12_345_670}
    with pytest.raises(IntegrityError):
        await insert(db, AlternativeResult(match_id=match.id, round_index=1, game_number=2, scores={},
                                           entered_by=2, entered_at=WHEN))  # fmt: skip


async def test_extra_official_roles_make_commissioners(db: Database) -> None:
    """COMMON-ROLE-1: the main commissioner role and each extra official role count; other roles do not."""
    league = await insert(db, make.league(commissioner_role_id=10, extra_commissioner_role_ids=[20, 30]))
    async with db.reading() as session:
        stored = await session.get(League, league.id)
    assert stored is not None and stored.extra_commissioner_role_ids == [20, 30]

    def actor(*roles: int) -> Actor:
        return Actor(111, 5, "someone", frozenset(roles), is_admin=False, command="/test")

    assert [is_commissioner(actor(role), stored) for role in (10, 20, 30, 40)] == [True, True, True, False]
