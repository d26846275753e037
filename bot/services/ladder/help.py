"""/help in a ladder league: whether the member plays this season, and on tonight's night their check-in, their
group's game picks, the games awaiting their scores and any tie awaiting its one-ball playoff.

The night is read with the play and close modules' own readers (private to them so far), so /help sees it exactly
as the commands that check it do."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from sqlmodel.ext.asyncio.session import AsyncSession

from bot.formats import Guide
from bot.rules.ladder.attendance import check_registration_open
from bot.rules.ladder.games import next_picker
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.scoring import TieNeedsPlayoff
from bot.rules.refusals import RuleViolation
from bot.services.help import Asker, Due, Role, Situation
from bot.services.ladder.close import _scores as scores_by_group
from bot.services.ladder.facts import Entrant, LadderLeague, entrants, ladder_league_of, night_groups, nights
from bot.services.ladder.play import _pickers as pickers_of
from bot.services.ladder.play import _picks as picks_of
from bot.services.ladder.play import checked_in, game_finish
from storage.ladder import LadderGroup, LadderNight, LadderStatus
from storage.models import League


async def situation(session: AsyncSession, league: League, asker: Asker, now: datetime) -> Situation:
    ladder = await ladder_league_of(session, league, now)
    return replace(await _situation(session, ladder, asker), night=night_overview(ladder.options.games_per_match))


async def _situation(session: AsyncSession, ladder: LadderLeague, asker: Asker) -> Situation:
    everyone = await entrants(session, ladder)
    me = next((e for e in everyone.values() if e.discord_user_id == asker.user_id), None)
    season_nights = await nights(session, ladder)
    tonight = season_nights[-1] if season_nights and season_nights[-1].closed_at is None else None
    due = _official_due(ladder, season_nights, tonight) if asker.official else []
    if me is None:
        if not asker.official and _may_join(ladder, season_nights):
            due.insert(0, Due(f"Join {ladder.season.name}'s ladder with your skill from 1 to 10", "`/ladder join`"))
        return Situation(Role.NEWCOMER, f"not in {ladder.season.name}'s ladder", tuple(due))
    if me.entry.status is LadderStatus.DROPPED:
        return Situation(Role.PLAYER, f"dropped from {ladder.season.name} (LADDER-ATT-5)", tuple(due))
    mine = await _player_due(session, ladder, tonight, everyone, me) if tonight else _between_nights(season_nights)
    return Situation(Role.PLAYER, f"playing in {ladder.season.name}'s ladder", (*mine, *due))


def _may_join(ladder: LadderLeague, season_nights: list[LadderNight]) -> bool:
    try:
        check_registration_open(len(season_nights), ladder.options)
    except RuleViolation:
        return False
    return True


def _official_due(ladder: LadderLeague, season_nights: list[LadderNight], tonight: LadderNight | None) -> list[Due]:
    if tonight is not None:
        return [Due(f"Close week {tonight.week}'s night once every group has played", "`/ladder night close`")]
    if len(season_nights) < ladder.options.regular_weeks:
        return [Due(f"Open week {len(season_nights) + 1}'s night when players arrive", "`/ladder night open`")]
    return []


def _between_nights(season_nights: list[LadderNight]) -> list[Due]:
    week = season_nights[-1].week + 1 if season_nights else 1
    return [
        Due(f"No night is open; week {week}'s groups", "`/ladder groups`"),
        Due(f"Can't make week {week}, or running late? Say so before the night", "`/ladder absent`"),
    ]


async def _player_due(
    session: AsyncSession, ladder: LadderLeague, night: LadderNight, everyone: dict[int, Entrant], me: Entrant
) -> list[Due]:
    present = await checked_in(session, ladder, night)
    if me.id not in present:
        return [Due(f"Check in for tonight's night (week {night.week})", "`/ladder checkin`")]
    group = next((g for g in await night_groups(session, night) if me.id in g.members), None)
    if group is None:
        return [Due("You are in no group tonight: you joined after the groups were dealt", "ask a commissioner")]
    if group.slots is None:
        pickers, picks = await pickers_of(session, ladder, night, group), await picks_of(session, group, night)
        turn = next_picker(pickers, picks)
        if turn == me.id:
            return [Due(f"Group {group.number}'s next game pick is yours", "`/ladder games pick`")]
        return [Due(f"Group {group.number} is picking its games; {everyone[turn].name} picks next", "`/ladder groups`")]
    return await _games_due(session, ladder, night, group, present, everyone, me)


async def _games_due(
    session: AsyncSession,
    ladder: LadderLeague,
    night: LadderNight,
    group: LadderGroup,
    present: set[int],
    everyone: dict[int, Entrant],
    me: Entrant,
) -> list[Due]:
    """LADDER-SCORE-1: the group's games awaiting scores, the member's own first; LADDER-AMB-5: exact ties."""
    assert group.slots is not None
    machines = {m["id"]: m["name"] for m in night.machines}
    scores = (await scores_by_group(session, [group])).get(group.id or 0, [])
    scored = {(row.slot, row.ladder_player_id) for row in scores}
    playing = [p for p in group.members if p in present]
    mine, waiting = [], []
    for slot, machine_id in enumerate(group.slots):
        game = f"game {slot + 1} ({machines[machine_id]})"
        missing = [p for p in playing if (slot, p) not in scored]
        entrants = {row.entered_by for row in scores if row.slot == slot and row.confirmed_by is None}
        if me.id in missing:
            how = f"**Enter scores** on the group's board · `/ladder score game:{slot + 1}`"
            mine.append(Due(f"Your score for {game}", how))
        elif missing:
            waiting.append(f"{game}: {len(missing)} score(s)")
        elif isinstance(finish := await game_finish(session, ladder, night, group, slot), TieNeedsPlayoff):
            tied = " and ".join(everyone[p].name for p in finish.players)
            mine.append(Due(f"{tied} are level in {game}: enter the one-ball playoff's winner", "`/ladder tiebreak`"))
        elif entrants and entrants != {me.discord_user_id}:  # another player of the group confirms (COMMON-SCORE-3)
            mine.append(Due(f"The scores of {game} await your confirmation", "**Confirm** on the group's board"))
    if waiting:
        waiting_line = f"Group {group.number}'s games awaiting scores: {'; '.join(waiting)}"
        mine.append(Due(waiting_line, "**Enter scores** on the group's board · `/ladder score`"))
    return mine


def night_overview(games: int) -> str:
    """How a night goes, with the league's games per match (`games_per_match`, LADDER-CFG-1)."""
    return (
        "Players are dealt into groups of three or four by standing (by skill in week 1). Check in when you arrive; "
        f"your group picks {games} {'game' if games == 1 else 'games'}, worst-placed first, and plays them, entering "
        "each game's scores from the group's board (or `/ladder score`) for another player of the group to confirm. "
        "Points per game, a bonus and the night's totals move players up and down for next week."
    )


GUIDE = Guide(
    night=night_overview(LadderOptions.model_validate({}).games_per_match),
    commands={
        Role.OFFICIAL: (
            "`/schedule nights` — date the season's nights, skipping holidays",
            "`/ladder normalizer` — a machine's normalizer, before it can be played",
            "`/ladder night open` · `/ladder night close` — run the night",
            "`/ladder swap` — place players between groups",
            "`/ladder games set` — set a group's games",
            "`/season postseason` · `/season new` — date the post-season, then start the next season",
        ),
        Role.PLAYER: (
            "`/ladder checkin` — when you arrive; `/ladder absent` beforehand if you can't come",
            "`/ladder games pick` — your group's game picks",
            "Your group's board — **Enter scores** for a game, **Confirm** another's, **Edit** or **Undo** yours",
            "`/ladder score` — your score in a game",
            "`/ladder tiebreak` — the winner of a one-ball playoff",
            "`/ladder premakeup` — play a week's games in advance",
            "`/ladder standings` — the table",
        ),
        Role.NEWCOMER: (
            "`/ladder join` — join the season (until week 3 starts)",
            "`/ladder groups` — tonight's or next week's groups",
            "`/ladder standings` — the table",
        ),
    },
    situation=situation,
)
