"""Field-format tables on SQLite and PostgreSQL: the unique keys that settle races (FIELD-SCORE-1: one score
per player, machine and attempt; one check-in per night; one night per season week) and enum/JSON round trips."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from bot.rules.field.groups import PlayMode
from bot.rules.field.penalties import Offence
from storage.db import Database
from storage.field import FieldCheckin, FieldNight, FieldPenalty, FieldScore
from storage.models import LeagueFormat
from tests.storage import helpers as make

DAY = make.WHEN.date()


async def night_with_player(db: Database) -> tuple[FieldNight, int, int]:
    league = await make.insert(db, make.league(format=LeagueFormat.FIELD))
    season = await make.insert(db, make.season(league.id))
    venue = await make.insert(db, make.venue(league.id))
    machine = await make.insert(db, make.machine(league.id, venue.id))
    player = await make.insert(db, make.player(league.id))
    night = await make.insert(
        db,
        FieldNight(
            league_id=league.id, season_id=season.id, week=1, play_on=DAY, machine_ids=[machine.id], opened_by=1
        ),
    )
    return night, player.id, machine.id


def score(night: FieldNight, player: int, machine: int, attempt: int = 1) -> FieldScore:
    return FieldScore(
        night_id=night.id or 0,
        player_id=player,
        machine_id=machine,
        attempt=attempt,
        score=20_277_653_890,  # beyond 32 bits, as real scores are
        entered_by=1,
        entered_at=make.WHEN,
    )


async def test_one_score_per_player_machine_and_attempt_field_score_1(db: Database) -> None:
    night, player, machine = await night_with_player(db)
    await make.insert(db, score(night, player, machine))
    await make.insert(db, score(night, player, machine, attempt=2))  # a sanctioned replay
    with pytest.raises(IntegrityError):
        await make.insert(db, score(night, player, machine))
    async with db.reading() as session:
        stored = (await session.exec(select(FieldScore))).all()
    assert sorted(s.attempt for s in stored) == [1, 2] and stored[0].score == 20_277_653_890


async def test_one_checkin_per_night_and_one_night_per_week(db: Database) -> None:
    night, player, _ = await night_with_player(db)
    checkin = FieldCheckin(night_id=night.id or 0, player_id=player, arrived_at=make.WHEN, mode=PlayMode.SINGLE_PLAYER)
    await make.insert(db, checkin)
    with pytest.raises(IntegrityError):
        await make.insert(db, FieldCheckin(night_id=night.id or 0, player_id=player, arrived_at=make.WHEN))
    with pytest.raises(IntegrityError):
        await make.insert(
            db, FieldNight(league_id=night.league_id, season_id=night.season_id, week=1, play_on=DAY, opened_by=1)
        )
    async with db.reading() as session:
        stored = (await session.exec(select(FieldCheckin))).one()
        again = (await session.exec(select(FieldNight))).one()
    assert stored.mode is PlayMode.SINGLE_PLAYER and again.machine_ids == night.machine_ids


async def test_penalty_offence_round_trips(db: Database) -> None:
    night, player, machine = await night_with_player(db)
    await make.insert(
        db,
        FieldPenalty(
            league_id=night.league_id,
            season_id=night.season_id,
            night_id=night.id or 0,
            player_id=player,
            offence=Offence.DEATH_SAVE,
            machine_id=machine,
            recorded_by=1,
            recorded_at=make.WHEN,
        ),
    )
    async with db.reading() as session:
        stored = (await session.exec(select(FieldPenalty))).one()
    assert stored.offence is Offence.DEATH_SAVE and stored.recorded_at == make.WHEN
