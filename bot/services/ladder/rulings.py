"""In-game rulings on a league night (LADDER-PEN-3..6, LADDER-PEN-8): a death save, tilting another player's
ball, slam tilts, a game restarted for the wrong number of players. A ruling that zeroes a score stores the 0
(LADDER-SCORE-4); replays are entered with `/ladder score`, which replaces the first score (LADDER-PEN-1/2)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.discipline import DisciplineKind
from bot.rules.ladder.penalties import (
    ZEROED_SCORE,
    SlamKind,
    TiltRemedy,
    check_claim_raised_in_match,
    slam_tilt,
    tilted_anothers_ball,
    wrong_number_of_players,
)
from bot.rules.refusals import InvalidInput
from bot.services import audit
from bot.services.actor import Actor
from bot.services.discipline import record_automatic
from bot.services.ladder.facts import entrant_of, entrants, group_of, ladder_league, night_groups, nights
from bot.services.ladder.play import check_may_enter, store_score
from bot.services.lookup import insert_unique
from bot.services.players import Member
from storage.db import Database
from storage.ladder import LadderGroup, LadderOffence, LadderPenalty

SLAMS = {
    LadderOffence.SLAM_INTENTIONAL: SlamKind.INTENTIONAL,
    LadderOffence.SLAM_ACCIDENTAL: SlamKind.ACCIDENTAL,
    LadderOffence.SLAM_MALFUNCTION: SlamKind.MALFUNCTION,
}


@dataclass(frozen=True)
class Ruling:
    offender: str
    game: int
    machine: str
    offence: LadderOffence
    zeroed: bool
    next_step: str  # what the players do now
    expulsion_review: bool  # LADDER-PEN-6: a repeated intentional slam
    ledger_entry: int | None = None  # COMMON-DISC-1: an intentional slam is logged as unsportsmanlike


class LadderRulingService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def penalty(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        game: int,
        offence: str,
        member: Member,
        buy_in_possible: bool = False,
    ) -> Ruling:
        try:
            kind = LadderOffence(offence)
        except ValueError:
            raise InvalidInput(f"Pick an offence from the list: {', '.join(o.value for o in LadderOffence)}.") from None
        now = self.clock.now()
        async with self.db.writing() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            season_nights = await nights(session, ladder)
            night_open = bool(season_nights) and season_nights[-1].closed_at is None
            check_claim_raised_in_match(night_open)  # LADDER-PEN-3: no rulings on a closed night
            night = season_nights[-1]
            everyone = await entrants(session, ladder)
            offender = entrant_of(everyone, member.user_id, who=member.display_name)
            groups = await night_groups(session, night)
            group = group_of(groups, offender.id)
            check_may_enter(actor, ladder, everyone, group, offender)
            if group.slots is None or not 1 <= game <= len(group.slots):
                raise InvalidInput(f"Group {group.number} has no game {game} tonight.")
            earlier = await _earlier(session, offender.id)
            zeroed, review = False, False
            if kind is LadderOffence.DEATH_SAVE:  # LADDER-PEN-4: a death save or bang-back sets the score to 0
                zeroed, step = True, "The score is 0 and placed by that 0 (LADDER-SCORE-4)."
            elif kind is LadderOffence.RESTART:
                restart = wrong_number_of_players()
                zeroed, step = restart.offender_zeroed, restart.next_step
            elif kind is LadderOffence.TILTED_ANOTHERS_BALL:
                tonight = sum(1 for p, g in earlier if p.offence is kind and g.night_id == night.id)
                ruling = tilted_anothers_ball(tonight, buy_in_possible)
                zeroed = ruling.offender_zeroed
                step = (
                    "The victim buys in an extra ball, paid by the offender."
                    if ruling.remedy is TiltRemedy.BUY_IN
                    else "The victim keeps the game or replays it: enter the higher of the two scores."
                )
            else:
                intentional = sum(1 for p, _ in earlier if p.offence is LadderOffence.SLAM_INTENTIONAL)
                slam = slam_tilt(SLAMS[kind], intentional)
                zeroed, review = slam.slammer_zeroed, slam.expulsion_review
                step = (
                    "The others replay without the slammer; enter their replay scores (LADDER-AMB-27)."
                    if slam.others_replay
                    else "Players who finished keep their scores; the slam's victim replays."
                )
            row = LadderPenalty(
                group_id=group.id or 0,
                slot=game - 1,
                ladder_player_id=offender.id,
                offence=kind,
                recorded_by=actor.user_id,
                recorded_at=now,
            )
            await insert_unique(session, row, f"That ruling on {offender.name} in game {game} is already recorded.")
            audit.created(session, actor, row, at=now)
            if review:  # COMMON-NOTIFY-1: the commissioners are told of the expulsion review (LADDER-PEN-6)
                detail = {"LADDER-PEN-6": f"{offender.name}: repeated intentional slam tilts, review for expulsion"}
                audit.noted(session, actor, night, action="discipline_flag", detail=detail, at=now)
            logged = None
            if kind is LadderOffence.SLAM_INTENTIONAL:  # LADDER-PEN-6: unsportsmanlike, in the discipline ledger
                logged = await record_automatic(
                    session, actor, ladder.league, offender.entry.player_id, kind=DisciplineKind.OFFENCE,
                    rule_id="LADDER-PEN-6", on=night.play_on, now=now,
                    reason=f"Unsportsmanlike: intentional slam tilt in week {night.week}, game {game}.",
                )  # fmt: skip
            if zeroed:
                await store_score(session, actor, ladder, night, group, everyone, offender, game, ZEROED_SCORE, now)
            machine = next(m["name"] for m in night.machines if m["id"] == group.slots[game - 1])
            return Ruling(offender.name, game, machine, kind, zeroed, step, review, logged.id if logged else None)


async def _earlier(session: AsyncSession, offender: int) -> list[tuple[LadderPenalty, LadderGroup]]:
    """The offender's rulings this season, with the group (and so the night) of each."""
    rows = (
        await session.exec(
            select(LadderPenalty, LadderGroup)
            .where(LadderPenalty.ladder_player_id == offender, LadderPenalty.group_id == LadderGroup.id)
            .order_by(col(LadderPenalty.id))
        )
    ).all()
    return list(rows)
