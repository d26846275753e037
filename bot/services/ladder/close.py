"""Closing a league night: score every group (LADDER-SCORE/BONUS/NORM/PMU/GHOST-*), assess No-Shows
(LADDER-ATT-4/5), collect dues and pay the pot (LADDER-PAY-*), move players (LADDER-GROUP-3..6) and, after
week 5, split the divisions (LADDER-DIV-*). Everything it stores finalizes the week (COMMON-LEAGUE-2).
A refusal raises before anything is written, and the transaction rolls back."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules.ladder.attendance import Notices, attendance_at_start, dropped_after, end_of_night_no_show
from bot.rules.ladder.groups import NightPresence, next_week_groups, regroup
from bot.rules.ladder.night import Absentee, GameSlot, GroupNight, ScoredNight, score_group_night
from bot.rules.ladder.payouts import GroupLine, dues_owed, no_show_forfeit, payout_ties, weekly_payouts, weekly_pot
from bot.rules.ladder.premakeup import MachinePremakeups, SeasonUsage, Slot
from bot.rules.ladder.scoring import GameResult, TieNeedsPlayoff
from bot.rules.ladder.standings import (
    SplitLine,
    WinLoss,
    division_groups,
    season_totals,
    split_divisions,
    win_loss,
)
from bot.rules.refusals import InvalidInput, RuleViolation
from bot.services.ladder.facts import (
    Entrant,
    LadderLeague,
    barred_entrants,
    entrants,
    local_time,
    night_groups,
    ranks,
    week_records,
)
from storage.ladder import (
    LadderAttendance,
    LadderGroup,
    LadderLedger,
    LadderNight,
    LadderPremakeup,
    LadderResult,
    LadderScore,
    LadderStatus,
    LedgerKind,
)


@dataclass(frozen=True)
class PlayerLine:
    name: str
    game_points: int
    bonus: int
    tns: Fraction
    presence: NightPresence

    @property
    def week_tlp(self) -> int:
        return self.game_points + self.bonus


@dataclass(frozen=True)
class GroupSummary:
    number: int
    division: str | None
    lines: list[PlayerLine]  # finishing order, winner first


@dataclass(frozen=True)
class NightSummary:
    league: str
    week: int
    groups: list[GroupSummary]
    next_groups: list[tuple[str | None, list[str]]]
    pot_cents: int
    payouts: list[tuple[str, int]]
    no_shows: list[str]
    dropped: list[str]
    split: dict[str, list[str]] | None  # LADDER-DIV-1, after week 5
    shared_payouts: list[list[tuple[str, int]]]  # candidates level on week TLP and TNS, sharing their places


async def close_night(session: AsyncSession, ladder: LadderLeague, night: LadderNight, now: datetime) -> NightSummary:
    ladder = ladder.on(night.play_on)
    options = ladder.options
    everyone = await entrants(session, ladder)
    groups = await night_groups(session, night)
    attendance = await _attendance(session, ladder, night.week)
    # COMMON-PLAYER-2: a player suspended since checking in can no longer score; they close as an absentee
    barred = await barred_entrants(session, ladder, everyone, on=night.play_on)
    checked_in = {i for i, row in attendance.items() if row.checked_in_at is not None} - barred
    registries = await _registries(session, everyone)
    scores = await _scores(session, groups)
    machines = {m["id"]: m for m in night.machines}

    scored: dict[int, ScoredNight] = {}
    for group in groups:
        scored[group.id or 0] = _score_group(group, everyone, checked_in, registries, scores, machines, ladder)

    # Facts of the night: results, premakeup registries, season usage
    for group in groups:
        night_result = scored[group.id or 0]
        assert night_result.match is not None
        for finish, player in enumerate(night_result.match.order, start=1):
            session.add(
                LadderResult(
                    night_id=night.id or 0,
                    group_id=group.id or 0,
                    ladder_player_id=player,
                    finish=finish,
                    game_points=night_result.game_points[player],
                    bonus=night_result.match.bonus[player],
                    tns=str(night_result.tns[player]),
                    presence=night_result.presence[player],
                    games=_games_of(night_result, player, group, machines),
                )
            )
            entry = everyone[player].entry
            if player in night_result.usage:
                entry.premakeup_uses = night_result.usage[player].uses
            if night_result.presence[player] is not NightPresence.PRESENT:
                entry.missed_weeks += 1  # LADDER-AMB-24: a week with no game played
            session.add(entry)
        for player, machines_used in night_result.premakeups.items():
            for machine_key, registry in machines_used.items():
                stored = registries.get((player, int(machine_key)))
                if stored is not None and (set(stored.used) != set(registry.used) or stored.s2 != registry.s2):
                    stored.used = sorted(slot.value for slot in registry.used)
                    stored.s2, stored.locked = registry.s2, registry.locked
                    session.add(stored)

    # No-Shows 1 and 2 at the end of the night (LADDER-AMB-22); the 3rd may already have fired at game 3
    no_shows, dropped = [], []
    league_night = night.play_on
    for group in groups:
        for player in group.members:
            entrant = everyone[player]
            row = attendance.get(player) or LadderAttendance(
                season_id=ladder.season_id, week=night.week, ladder_player_id=player
            )
            if row.no_show or entrant.entry.status is not LadderStatus.ACTIVE or player in barred:  # barred: no No-Show
                continue
            notices = Notices(
                *(local_time(t, ladder.league.timezone) if t else None for t in (
                    row.checked_in_at, row.late_notice_at, row.absence_notice_at
                ))
            )  # fmt: skip
            status = attendance_at_start(notices, league_night, options)
            played = scored[group.id or 0].presence[player] is NightPresence.PRESENT
            if end_of_night_no_show(status, 1 if played else 0):
                row.no_show = True
                session.add(row)
                entrant.entry.no_shows += 1
                no_shows.append(entrant.name)
                if dropped_after(entrant.entry.no_shows, options):
                    await drop_for_no_shows(session, ladder, night, entrant, now)
                    dropped.append(entrant.name)

    # Dues and the weekly pot (LADDER-PAY-1/2/3, LADDER-AMB-20)
    active = [e for e in everyone.values() if e.entry.status is LadderStatus.ACTIVE]
    collected = dues_owed(len(active), options)
    for entrant in active:
        session.add(_ledger(ladder, night, entrant, LedgerKind.DUES, options.weekly_dues_cents, now))
    pot, _prize_fund = weekly_pot(collected, options)  # the other half funds season prizes (LADDER-PAY-5)
    payout_groups = [_payout_lines(scored[g.id or 0]) for g in groups]
    paid = weekly_payouts(payout_groups, len(active), pot, options)
    for player, cents in paid.items():
        session.add(_ledger(ladder, night, everyone[player], LedgerKind.PAYOUT, cents, now))
    shared_payouts = [
        [(everyone[p].name, paid[p]) for p in tied] for tied in payout_ties(payout_groups, len(active), options)
    ]

    # Movement (LADDER-GROUP-3..6), per division once split (LADDER-DIV-2)
    divisions = sorted({g.division for g in groups}, key=lambda d: d or "")
    next_groups: list[list[int]] = []
    for division in divisions:
        finishes = [scored[g.id or 0].finish for g in groups if g.division == division]
        next_groups += next_week_groups(finishes, options)

    split = None
    await session.flush()  # tonight's results count in the ranks
    league_rank = ranks(dict(everyone), await week_records(session, ladder))
    still_active = sorted(
        (i for i, e in everyone.items() if e.entry.status is LadderStatus.ACTIVE), key=lambda i: league_rank[i]
    )
    next_groups = [
        group
        for division in divisions
        for group in regroup(
            [g for g in next_groups if g and everyone[g[0]].entry.division == division],
            [i for i in still_active if everyone[i].entry.division == division],
        )
    ]  # LADDER-GROUP-7, LADDER-ATT-6: tonight's drops leave, sizes follow the new count
    if night.week == options.split_after_week and divisions == [None]:
        split, next_groups = await _split(session, ladder, everyone, next_groups, night.week)

    night.closed_at = now
    night.next_groups = next_groups
    night.pot_cents = pot
    session.add(night)
    await session.flush()
    return NightSummary(
        league=ladder.league.name,
        week=night.week,
        groups=[_summary(g, scored[g.id or 0], everyone) for g in groups],
        next_groups=[
            (everyone[g[0]].entry.division if g else None, [everyone[i].name for i in g]) for g in next_groups
        ],
        pot_cents=pot,
        payouts=[(everyone[p].name, c) for p, c in sorted(paid.items(), key=lambda pc: -pc[1])],
        no_shows=no_shows,
        dropped=dropped,
        split={d: [everyone[i].name for i in ids] for d, ids in split.items()} if split else None,
        shared_payouts=shared_payouts,
    )


async def drop_for_no_shows(
    session: AsyncSession, ladder: LadderLeague, night: LadderNight, entrant: Entrant, now: datetime
) -> None:
    """LADDER-ATT-5/6, LADDER-PAY-4: dropped for the season, and all money paid so far is forfeited."""
    entrant.entry.status = LadderStatus.DROPPED
    session.add(entrant.entry)
    dues = (
        await session.exec(
            select(LadderLedger).where(
                LadderLedger.ladder_player_id == entrant.id, LadderLedger.kind == LedgerKind.DUES
            )
        )
    ).all()
    forfeited = no_show_forfeit(sum(row.cents for row in dues))
    if forfeited:
        session.add(_ledger(ladder, night, entrant, LedgerKind.FORFEIT, forfeited, now))


def _score_group(
    group: LadderGroup,
    everyone: Mapping[int, Entrant],
    checked_in: set[int],
    registries: Mapping[tuple[int, int], LadderPremakeup],
    scores: Mapping[int, list[LadderScore]],
    machines: Mapping[int, dict],
    ladder: LadderLeague,
) -> ScoredNight:
    if group.slots is None:
        raise RuleViolation(
            "LADDER-GSEL-4", f"Group {group.number} has not set its games: pick them with `/ladder games pick`."
        )
    played = {(s.slot, s.ladder_player_id): s.score for s in scores.get(group.id or 0, [])}
    absentees = {}
    for player in group.members:
        entered = sorted(slot for slot, p in played if p == player)
        if player in checked_in:
            if not entered:
                raise InvalidInput(
                    f"{everyone[player].name} checked in but has no scores in group {group.number}: "
                    "enter them with `/ladder score`."
                )
            gaps = [s + 1 for s in range(entered[0], len(group.slots)) if s not in entered]
            if gaps:  # a late arrival misses the first games only (LADDER-ATT-2)
                missing = ", ".join(str(g) for g in gaps)
                raise InvalidInput(
                    f"Group {group.number}: {everyone[player].name} has no score for game {missing}: "
                    "enter it with `/ladder score`."
                )
        entry = everyone[player].entry
        if player not in checked_in or entered[0] > 0:
            registry = {
                str(machine): registry_of(row, str(machine))
                for (owner, machine), row in registries.items()
                if owner == player and machine in group.slots
            }
            missed_weeks = entry.missed_weeks + (0 if player in checked_in else 1)
            absentees[player] = Absentee(registry, SeasonUsage(entry.premakeup_uses, missed_weeks))
    slots = [GameSlot(str(m), machines[m]["normalizer"]) for m in group.slots]
    night = GroupNight(
        slots,
        {int(p): rank for p, rank in group.ranks.items()},
        played,
        absentees,
        {int(slot): order for slot, order in group.playoff_orders.items()},
    )
    result = score_group_night(night, ladder.options)
    for slot in result.pending:
        tied = result.games[slot]
        assert isinstance(tied, TieNeedsPlayoff)
        names = " and ".join(everyone[p].name for p in tied.players)
        raise RuleViolation(
            "LADDER-AMB-5",
            f"Group {group.number}, game {slot + 1}: {names} tied exactly. Play a one-ball playoff on the same "
            "machine and enter its winner with `/ladder tiebreak`.",
        )
    return result


def _payout_lines(night: ScoredNight) -> list[GroupLine]:
    """LADDER-PAY-2/3: the group in finishing order with week TLP, TNS and who played in person."""
    assert night.match is not None
    return [
        GroupLine(p, night.match.week_tlp[p], night.tns[p], night.presence[p] is NightPresence.PRESENT)
        for p in night.match.order
    ]


def registry_of(row: LadderPremakeup, machine: str) -> MachinePremakeups:
    """A stored premakeup registry row as the rules see it (LADDER-PMU-9)."""
    return MachinePremakeups(
        machine=machine,
        s1=row.s1,
        s2=row.s2,
        order=tuple(Slot(s) for s in row.order) if row.order else None,
        used=frozenset(Slot(s) for s in row.used),
        locked=row.locked,
    )


def _games_of(result: ScoredNight, player: int, group: LadderGroup, machines: Mapping[int, dict]) -> list[dict]:
    """LADDER-GHOST-6: per slot, how the score came about, placement and official side by side, and points."""
    games = []
    for slot, (entries, game) in enumerate(zip(result.entries, result.games, strict=True)):
        entry = next(e for e in entries if e.player == player)
        assert isinstance(game, GameResult) and group.slots is not None
        games.append(
            {
                "slot": slot,
                "machine": machines[group.slots[slot]]["name"],
                "kind": entry.kind.value,
                "placement": entry.placement,
                "official": entry.official,
                "points": game.points[player],
            }
        )
    return games


async def _split(
    session: AsyncSession, ladder: LadderLeague, everyone: Mapping[int, Entrant], moved: list[list[int]], week: int
) -> tuple[dict[str, list[int]] | None, list[list[int]]]:
    """LADDER-DIV-1/2/3: after week 5, A/B by TLP, ANS, then win-loss; week-6 groups dealt by rank."""
    records = await week_records(session, ladder)
    active = [i for i, e in everyone.items() if e.entry.status is LadderStatus.ACTIVE]
    game_records = await _win_loss(session, ladder)
    lines = []
    for player in active:
        tlp, average = season_totals(records.get(player, []), up_to_week=week)
        lines.append(SplitLine(player, tlp, average, game_records.get(player, WinLoss())))
    split = split_divisions(lines, ladder.options)
    if split is None:  # LADDER-DIV-3: one division all season
        return None, moved
    league_rank = ranks(dict(everyone), records)
    by_division: dict[str, list[int]] = defaultdict(list)
    for player in sorted(split, key=lambda p: league_rank[p]):
        everyone[player].entry.division = split[player]
        session.add(everyone[player].entry)
        by_division[split[player]].append(player)
    next_groups = [g for d in sorted(by_division) for g in division_groups(by_division[d])]
    return dict(by_division), next_groups


async def _win_loss(session: AsyncSession, ladder: LadderLeague) -> dict[int, WinLoss]:
    """LADDER-AMB-17: the pairwise record over every game so far, each game counted once."""
    stored = (
        await session.exec(
            select(LadderResult)
            .where(LadderResult.night_id == LadderNight.id, LadderNight.season_id == ladder.season_id)
            .order_by(col(LadderResult.id))
        )
    ).all()
    games: dict[tuple[int, int], dict[int, int]] = {}
    for result in stored:
        for game in result.games:
            placements = games.setdefault((result.group_id, game["slot"]), {})
            placements[result.ladder_player_id] = game["placement"]
    return win_loss(list(games.values()))


def _summary(group: LadderGroup, night: ScoredNight, everyone: Mapping[int, Entrant]) -> GroupSummary:
    assert night.match is not None
    return GroupSummary(
        group.number,
        group.division,
        [
            PlayerLine(everyone[p].name, night.game_points[p], night.match.bonus[p], night.tns[p], night.presence[p])
            for p in night.match.order
        ],
    )


def _ledger(
    ladder: LadderLeague, night: LadderNight, entrant: Entrant, kind: LedgerKind, cents: int, now: datetime
) -> LadderLedger:
    """COMMON-MONEY-1: one row of the money ledger (dues in, a payout or forfeited monies out), in integer cents."""
    return LadderLedger(
        league_id=ladder.league_id,
        season_id=ladder.season_id,
        night_id=night.id,
        ladder_player_id=entrant.id,
        kind=kind,
        cents=cents,
        at=now,
    )


async def _attendance(session: AsyncSession, ladder: LadderLeague, week: int) -> dict[int, LadderAttendance]:
    rows = (
        await session.exec(
            select(LadderAttendance).where(
                LadderAttendance.season_id == ladder.season_id, LadderAttendance.week == week
            )
        )
    ).all()
    return {row.ladder_player_id: row for row in rows}


async def _registries(session: AsyncSession, everyone: Mapping[int, Entrant]) -> dict[tuple[int, int], LadderPremakeup]:
    rows = (
        await session.exec(select(LadderPremakeup).where(col(LadderPremakeup.ladder_player_id).in_(list(everyone))))
    ).all()
    return {(row.ladder_player_id, row.machine_id): row for row in rows}


async def _scores(session: AsyncSession, groups: list[LadderGroup]) -> dict[int, list[LadderScore]]:
    rows = (await session.exec(select(LadderScore).where(col(LadderScore.group_id).in_([g.id for g in groups])))).all()
    by_group: dict[int, list[LadderScore]] = defaultdict(list)
    for row in rows:
        by_group[row.group_id].append(row)
    return by_group
