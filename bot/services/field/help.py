"""/help in a field league: on tonight's night the member's check-in, their group's games awaiting scores, ties
awaiting their one-ball playoff and score corrections awaiting their vote; for officials, the night's next step."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.formats import Guide
from bot.rules.field import meet as meet_rules
from bot.rules.field.scoring import MachineId, PlayerId
from bot.rules.refusals import NotFound
from bot.services.field.facts import NightResult, SeasonFacts, correction_votes, load_night
from bot.services.field.nights import registered_player
from bot.services.field.posts import field_context_of
from bot.services.help import Asker, Due, Role, Situation
from storage.field import NightState
from storage.models import League


async def situation(session: AsyncSession, league: League, asker: Asker, now: datetime) -> Situation:
    context = await field_context_of(session, league, now)
    try:
        player_id = (await registered_player(session, context, asker.user_id)).id
    except NotFound:
        player_id = None
    try:
        season = await load_night(session, context, None)
    except NotFound:  # no night yet this season
        season = None
    tonight = season.nights[0] if season and season.nights[0].night.state is NightState.OPEN else None
    result = season.night_result(tonight) if season and tonight else None
    due = []
    if season and result and player_id is not None:
        due += _player_due(season, result, player_id, now)
    if asker.official:
        due += _official_due(season, result, context.options.regular_weeks)
    if player_id is None:
        if not asker.official:
            due.insert(0, Due("Ask a commissioner to register you, or to let you play as a guest", "`/field guest`"))
        return Situation(Role.NEWCOMER, "not a player of this league yet", tuple(due))
    return Situation(Role.PLAYER, "a player of this league", tuple(due))


def _player_due(season: SeasonFacts, result: NightResult, player_id: int, now: datetime) -> list[Due]:
    facts = result.facts
    week = facts.night.week
    if player_id not in {c.player_id for c in facts.checkins}:
        return [Due(f"Check in for tonight's night (week {week})", "`/field checkin`")]
    if facts.night.groups_made_at is None:
        return [Due("The groups are dealt once everyone is in; a commissioner deals them", "`/field night show`")]
    group = facts.group_of(player_id) or (player_id,)
    gaps = meet_rules.missing_scores(group, facts.night.machine_ids, facts.counted_scores())
    due = []
    mine = gaps.pop(player_id, [])
    if mine:
        how = "**Enter scores** on the group's board · `/field score` · `/field game`"
        due.append(Due(f"Your scores still to enter: {_machines(season, mine)}", how))
    # A group plays each machine together: the machines where only the others' scores are missing.
    others = [m for m in facts.night.machine_ids if m not in mine and any(m in gap for gap in gaps.values())]
    if others:
        how = "**Enter scores** on the group's board · `/field game`"
        due.append(Due(f"Your group's games awaiting the others' scores: {_machines(season, others)}", how))
    for machine, machine_result in result.machines.items():
        if any(player_id in tie.players for tie in machine_result.open_ties):
            tied = season.machine_names[int(machine)]
            due.append(Due(f"You are tied on {tied}: play the one-ball playoff and enter it", "`/field tiebreak`"))
    due += _corrections_due(season, result, player_id, now)
    return due


def _corrections_due(season: SeasonFacts, result: NightResult, player_id: int, now: datetime) -> list[Due]:
    """FIELD-SCORE-4: every player of the group confirms a correction within the window, or it is refused."""
    facts = result.facts
    scores = {score.id: score for score in facts.scores}
    due = []
    for correction in facts.corrections:
        votes = correction_votes(correction)
        pending = meet_rules.correction_state(
            set(correction.group_players), votes, correction.requested_at, now, season.context.options
        )
        voted = {vote.player for vote in votes}
        if pending is meet_rules.CorrectionState.PENDING and player_id in set(correction.group_players) - voted:
            score = scores[correction.score_id]
            whose = "your" if score.player_id == player_id else f"{season.names.get(score.player_id, '?')}'s"
            due.append(
                Due(
                    f"Correction #{correction.id} of {whose} score on {season.machine_names[score.machine_id]} "
                    "awaits your vote",
                    f"`/field confirm correction:{correction.id}`",
                )
            )
    return due


def _official_due(season: SeasonFacts | None, result: NightResult | None, regular: int) -> list[Due]:
    if season is None or result is None:
        weeks = season.nights[0].night.week if season else 0  # the latest night's, none being open
        if weeks < regular:
            return [Due(f"Open week {weeks + 1}'s night with its five machines", "`/field night open`")]
        return [Due("The regular season is over: the finals are next", "`/field finals entry`")]
    night = result.facts.night
    if night.groups_made_at is None:
        return [Due("Deal tonight's groups once everyone has checked in", "`/field groups`")]
    due = [
        Due(f"{_players(season, tie.players)} are tied on {season.machine_names[int(machine)]}", "`/field tiebreak`")
        for machine, machine_result in result.machines.items()
        for tie in machine_result.open_ties
    ]
    return [*due, Due(f"Close week {night.week}'s night once every score is in", "`/field night close`")]


def _machines(season: SeasonFacts, machine_ids: Iterable[MachineId]) -> str:
    return ", ".join(season.machine_names[int(m)] for m in machine_ids)


def _players(season: SeasonFacts, players: Iterable[PlayerId]) -> str:
    return " and ".join(sorted(season.names.get(int(p), "?") for p in players))


GUIDE = Guide(
    night=(
        "Five machines, and every machine ranks the whole night's field. Check in when you arrive; a commissioner "
        "deals groups of three or four by standing, and your group plays each machine once, entering its scores. "
        "Points per rank (+5 for the top score) make the night's total; the two lowest weeks are dropped, and the "
        "season ends with double-elimination finals."
    ),
    commands={
        Role.OFFICIAL: (
            "`/schedule nights` — date the season's nights, skipping holidays",
            "`/field night open` · `/field night close` — run the night",
            "`/field groups` — deal the groups",
            "`/field guest` — let a guest play",
            "`/field penalty` — record a penalty",
            "`/field finals` — the finals",
            "`/season postseason` · `/season new` — date the post-season, then start the next season",
        ),
        Role.PLAYER: (
            "`/field checkin` — when you arrive",
            "Your group's board — **Enter scores** for a game, **Confirm** another's, **Edit** or **Undo** yours",
            "`/field score` · `/field game` — your score, or your group's game",
            "`/field tiebreak` — a tie's one-ball playoff",
            "`/field correct` · `/field confirm` — correct a written score, with the group",
            "`/field night show` · `/field standings` — tonight's sheet, the season",
        ),
        Role.NEWCOMER: (
            "`/field night show` — tonight's machines and groups",
            "`/field standings` — the season table",
            "A commissioner registers you (`/player register`) or lets you play as a guest (`/field guest`).",
        ),
    },
    situation=situation,
)
