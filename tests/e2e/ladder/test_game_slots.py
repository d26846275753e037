"""LADDER-GSEL-4: a group's five game slots are stored before play starts, and they are the slots that get scored."""

from __future__ import annotations

from sqlmodel import select

from storage.ladder import LadderGroup, LadderScore
from storage.models import Machine
from tests.e2e.harness import RunningBot
from tests.e2e.ladder import test_night
from tests.e2e.ladder.test_night import PLAYERS, ok
from tests.e2e.season import refused

ladder = test_night.ladder  # the ladder fixture: six machines with normalizers, ten players joined

PLAY_ORDER = ["Funhouse", "Elvira", "Demolition Man", "Black Knight", "Attack from Mars"]  # not the venue's order


async def scored_machines(league: RunningBot, group_number: int) -> list[tuple[str, int]]:
    """(machine, score) of each stored score of the group, read through the group's stored slots."""
    async with league.db.reading() as session:
        group = (await session.exec(select(LadderGroup).where(LadderGroup.number == group_number))).one()
        titles = {m.id: m.title for m in (await session.exec(select(Machine))).all()}
        scores = (await session.exec(select(LadderScore).where(LadderScore.group_id == group.id))).all()
        assert group.slots is not None
        return sorted((titles[group.slots[s.slot]], s.score) for s in scores)


async def test_scores_wait_for_the_stored_slots_and_land_on_them_ladder_gsel_4(ladder: RunningBot) -> None:
    """LADDER-GSEL-4, LADDER-AMB-15: with six machines the slots are not set at open, so a score is refused and
    nothing is stored; once the commissioner sets group 1's five games in an order of its own, each typed score is
    stored on that slot's machine; the slots are then fixed."""
    await ok(ladder, "/ladder night open", "alice")
    for name in PLAYERS:
        await ok(ladder, "/ladder checkin", name)
    before = await ladder.row_counts()
    await refused(
        ladder, '/ladder score game:1 score:"1,000,000"', as_member="p1", rule="LADDER-GSEL-4",
        message="has not set its games yet",
    )  # fmt: skip
    assert await ladder.row_counts() == before
    await ok(ladder, f'/ladder games set group:1 games:"{", ".join(PLAY_ORDER)}"', "alice")
    await ok(ladder, '/ladder score game:1 score:"1,000,000 2,000,000 3,000,000 4,000,000 5,000,000"', "p1")
    assert await scored_machines(ladder, 1) == sorted(
        (machine, (slot + 1) * 1_000_000) for slot, machine in enumerate(PLAY_ORDER)
    )
    changed = await ladder.run('/ladder games set group:1 games:"Elvira, Funhouse"', as_member="alice")
    assert "can no longer change" in changed.content, changed.content
