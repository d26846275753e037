"""Ladder standings (LADDER-STAND-*) and the money (LADDER-PAY-*), read from the finalized nights.

`/standings` dispatches here for ladder leagues (see `LadderStandingsService.standings`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.standings import playoff_count, standings
from bot.services.actor import Actor
from bot.services.ladder.facts import LadderLeague, entrants, ladder_league, nights, week_records
from storage.db import Database
from storage.ladder import LadderLedger, LadderNight, LadderStatus, LedgerKind


@dataclass(frozen=True)
class LadderRow:
    position: int
    name: str
    tlp: int
    ans: Fraction
    weeks: int
    division: str | None
    dropped: bool
    qualifies: bool  # within the division's playoff places (LADDER-PO-1)
    player_id: int  # the league's player row, for exports (IFPA numbers)


@dataclass(frozen=True)
class LadderStandings:
    league: str
    weeks_closed: int
    regular_weeks: int
    rows: list[LadderRow]


@dataclass(frozen=True)
class DivisionPlayoff:
    division: str | None
    qualifiers: list[str]  # seeded by final standings (LADDER-PO-1, LADDER-STAND-2)
    alternates: list[str]  # runners-up in order, who replace missing qualifiers (LADDER-PO-2/3)


@dataclass(frozen=True)
class Playoffs:
    league: str
    final: bool  # every regular week closed
    divisions: list[DivisionPlayoff]


@dataclass(frozen=True)
class MoneyLine:
    name: str
    dues: int
    payouts: int
    forfeited: int


@dataclass(frozen=True)
class Payouts:
    league: str
    weeks: list[tuple[int, int, list[tuple[str, int]]]]  # week, pot, winners paid
    players: list[MoneyLine]


class LadderStandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def standings(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        season: int | None = None,
        what_if: Mapping[str, Any] | None = None,
    ) -> LadderStandings:
        """LADDER-STAND-1/2: TLP, ties by ANS, per division after the split; playoff places marked. `season`: an
        earlier season's number; `what_if`: options to mark the places under instead (the nights' stored results
        stand), never stored."""
        async with self.db.reading() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now(), season=season)
            if what_if:
                ladder = replace(ladder, options=LadderOptions.model_validate({**ladder.league.options, **what_if}))
            return await standings_table(session, ladder)

    async def playoffs(self, actor: Actor, league_name: str | None) -> Playoffs:
        """LADDER-PO-1/2: per division, the 2-6 qualifiers from the standings and the alternates in order."""
        async with self.db.reading() as session:
            return await playoff_places(
                session, await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            )

    async def payouts(self, actor: Actor, league_name: str | None) -> Payouts:
        """LADDER-PAY-1..4: each week's pot and winners, and every player's dues, winnings and forfeits."""
        async with self.db.reading() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            everyone = await entrants(session, ladder)
            rows = (
                await session.exec(
                    select(LadderLedger, LadderNight)
                    .where(LadderLedger.season_id == ladder.season_id, LadderLedger.night_id == LadderNight.id)
                    .order_by(col(LadderNight.week), col(LadderLedger.id))
                )
            ).all()
        weeks: dict[int, tuple[int, list[tuple[str, int]]]] = {}
        totals: dict[int, dict[LedgerKind, int]] = defaultdict(lambda: defaultdict(int))
        for entry, night in rows:
            _pot, winners = weeks.setdefault(night.week, (night.pot_cents, []))
            if entry.kind is LedgerKind.PAYOUT:
                winners.append((everyone[entry.ladder_player_id].name, entry.cents))
            totals[entry.ladder_player_id][entry.kind] += entry.cents
        players = [
            MoneyLine(
                everyone[i].name,
                totals[i][LedgerKind.DUES],
                totals[i][LedgerKind.PAYOUT],
                totals[i][LedgerKind.FORFEIT],
            )
            for i in everyone
            if i in totals
        ]
        players.sort(key=lambda line: (-line.payouts, line.name))
        return Payouts(ladder.league.name, [(w, pot, paid) for w, (pot, paid) in sorted(weeks.items())], players)


async def standings_table(session: AsyncSession, ladder: LadderLeague) -> LadderStandings:
    """LADDER-STAND-1/2 for one ladder league (the command and the weekly standings post)."""
    everyone = await entrants(session, ladder)
    records = await week_records(session, ladder)
    closed = [n for n in await nights(session, ladder) if n.closed_at is not None]
    divisions = {i: e.entry.division for i, e in everyone.items() if e.entry.division}
    table = standings({i: records.get(i, []) for i in everyone}, divisions or None)
    sizes: dict[str | None, int] = defaultdict(int)
    for i, entrant in everyone.items():
        if entrant.entry.status is LadderStatus.ACTIVE:
            sizes[divisions.get(i)] += 1
    places: dict[str | None, int] = defaultdict(int)
    rows = []
    for row in table:
        entrant = everyone[row.player]
        active = entrant.entry.status is LadderStatus.ACTIVE
        qualifies = active and places[row.division] < playoff_count(sizes[row.division], ladder.options)
        places[row.division] += 1 if active else 0
        weeks = len(records.get(row.player, []))
        rows.append(
            LadderRow(
                row.position,
                entrant.name,
                row.tlp,
                row.ans,
                weeks,
                row.division,
                not active,
                qualifies,
                player_id=entrant.entry.player_id,
            )
        )
    return LadderStandings(ladder.league.name, len(closed), ladder.options.regular_weeks, rows)


async def playoff_places(session: AsyncSession, ladder: LadderLeague) -> Playoffs:
    """LADDER-PO-1/2: per division, the 2-6 qualifiers from the standings and the alternates in order."""
    table = await standings_table(session, ladder)
    divisions = []
    for division in sorted({row.division for row in table.rows if not row.dropped}, key=lambda d: d or ""):
        active = [row.name for row in table.rows if row.division == division and not row.dropped]
        count = playoff_count(len(active), ladder.options)
        divisions.append(DivisionPlayoff(division, active[:count], active[count:]))
    return Playoffs(table.league, table.weeks_closed >= table.regular_weeks, divisions)
