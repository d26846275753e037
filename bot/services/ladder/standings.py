"""Ladder standings (LADDER-STAND-*) and the money (LADDER-PAY-*), read from the finalized nights.

`/standings` dispatches here for ladder leagues (see `LadderStandingsService.standings`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.ladder.options import LadderOptions
from bot.rules.ladder.payouts import consolation_prizes, season_prizes
from bot.rules.ladder.standings import playoff_count, playoff_field, standings
from bot.rules.refusals import InvalidInput
from bot.services.actor import Actor
from bot.services.ladder.facts import LadderLeague, entrants, ladder_league, nights, week_records
from bot.services.league_options import versions_key
from bot.services.reuse import ReusedPerLeague
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
    qualifiers: list[str]  # seeded by final standings (LADDER-PO-1, LADDER-STAND-2), alternates in for the missing
    alternates: list[str]  # runners-up in order, who replace missing qualifiers (LADDER-PO-2/3)
    replaced: list[tuple[str, str]] = field(default_factory=list)  # (missing qualifier, alternate) (LADDER-PO-2)
    reschedule: list[str] = field(default_factory=list)  # qualifiers who gave notice: try to reschedule (PO-3)


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
class PrizePlace:
    """One place of a division's season prizes (LADDER-PAY-5); `winner` is known once the basis is final."""

    division: str | None
    place: int
    cents: int
    winner: str | None


@dataclass(frozen=True)
class Payouts:
    league: str
    weeks: list[tuple[int, int, list[tuple[str, int]]]]  # week, pot, winners paid
    players: list[MoneyLine]
    prizes: list[PrizePlace] = field(default_factory=list)  # LADDER-PAY-5
    prizes_by: str = "playoffs"  # LADDER-AMB-34: who the places go to
    final: bool = False  # every regular week closed
    consolation: dict[str, int] = field(default_factory=dict)  # LADDER-AMB-23: per division


class LadderStandingsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._reused: ReusedPerLeague[LadderStandings] = ReusedPerLeague(db)

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
            # Reused (`bot/services/reuse.py`) for the same season and options: the table does not depend on the time.
            key = (ladder.season_id, versions_key(ladder.league), ladder.options.model_dump_json())
            return await self._reused.get(session, ladder.league_id, key, lambda: standings_table(session, ladder))

    async def playoffs(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        missing: str | None = None,
        notified: str | None = None,
        rescheduled: str | None = None,
    ) -> Playoffs:
        """LADDER-PO-1/2/3: per division, the 2-6 qualifiers from the standings and the alternates in order. On
        playoff night, `missing` names the qualifiers not checked in at 19:30: each is replaced by the next
        runner-up present. `notified`: qualifiers who gave notice, a reschedule task first; `rescheduled`: those
        the commissioner could reschedule, who keep their place. Names are comma-separated."""
        async with self.db.reading() as session:
            ladder = await ladder_league(session, actor.guild_id, league_name, self.clock.now())
            table = await standings_table(session, ladder)
        named = {
            option: _names(text, table, option)
            for option, text in (("missing", missing), ("notified", notified), ("rescheduled", rescheduled))
        }
        return _playoffs(ladder, table, named["missing"] | named["notified"], named)

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
            table = await standings_table(session, ladder)
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
        prizes, consolation = _season_prizes(ladder, table)
        return Payouts(
            ladder.league.name,
            [(w, pot, paid) for w, (pot, paid) in sorted(weeks.items())],
            players,
            prizes=prizes,
            prizes_by=ladder.options.prizes_by,
            final=table.weeks_closed >= table.regular_weeks,
            consolation=consolation,
        )


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
    return _playoffs(ladder, await standings_table(session, ladder), frozenset(), {})


def _playoffs(
    ladder: LadderLeague, table: LadderStandings, absent: frozenset[str], named: Mapping[str, frozenset[str]]
) -> Playoffs:
    """Each division's playoff field (LADDER-PO-1/2/3) from the standings, everyone present but `absent`."""
    divisions = []
    for division in sorted({row.division for row in table.rows if not row.dropped}, key=lambda d: d or ""):
        rows = [row for row in table.rows if row.division == division and not row.dropped]
        name = {row.player_id: row.name for row in rows}

        def ids(names: frozenset[str], rows: list[LadderRow] = rows) -> frozenset[int]:
            return frozenset(row.player_id for row in rows if row.name in names)

        count = playoff_count(len(rows), ladder.options)
        everyone = [row.player_id for row in rows]
        found = playoff_field(
            everyone,
            count,
            present=frozenset(everyone) - ids(absent),
            notified_absent=ids(named.get("notified", frozenset())),
            rescheduled=ids(named.get("rescheduled", frozenset())),
        )
        alternates = [name[pid] for pid in everyone[count:] if pid not in found.players]
        replaced = [(name[gone], name[alternate]) for gone, alternate in found.replacements]
        tasks = [name[pid] for pid in found.reschedule_tasks]
        divisions.append(DivisionPlayoff(division, [name[p] for p in found.players], alternates, replaced, tasks))
    return Playoffs(table.league, table.weeks_closed >= table.regular_weeks, divisions)


def _names(text: str | None, table: LadderStandings, option: str) -> frozenset[str]:
    """Comma-separated player names as the standings spell them; an unknown name is refused, naming the option."""
    if not text:
        return frozenset()
    spelled = {row.name.casefold(): row.name for row in table.rows}
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name.casefold() not in spelled]
    if unknown:
        raise InvalidInput(
            f"`{option}`: {', '.join(unknown)} is not a player of this ladder; give names as the standings show "
            "them, separated by commas."
        )
    return frozenset(spelled[name.casefold()] for name in names)


def _season_prizes(ladder: LadderLeague, table: LadderStandings) -> tuple[list[PrizePlace], dict[str, int]]:
    """LADDER-PAY-5, LADDER-AMB-23/34: the commissioner's prize table per division (A's for the whole league
    before a split), paid down the standings with `prizes_by=standings` (final once the regular season is
    over), or by the playoff finish, played away from the bot. The consolations are shares of each 2nd place."""
    options = ladder.options
    tables = {"A": options.prizes_a_cents, "B": options.prizes_b_cents}
    divisions = sorted({row.division for row in table.rows if not row.dropped}, key=lambda d: d or "")
    finishing = {
        division or "A": [row.player_id for row in table.rows if row.division == division and not row.dropped]
        for division in divisions
    }
    by_standings = options.prizes_by == "standings"
    awards = season_prizes({key: tables[key] for key in finishing if key in tables}, finishing if by_standings else {})
    names = {row.player_id: row.name for row in table.rows}
    places: list[PrizePlace] = []
    for division in divisions:
        key = division or "A"
        paid = [pid for pid in finishing[key] if pid in awards]
        for place, cents in enumerate(tables.get(key, ()), start=1):
            winner = paid[place - 1] if place <= len(paid) else None
            shown = names[winner] if winner is not None else None
            places.append(PrizePlace(division, place, awards[winner] if winner is not None else cents, shown))
    seconds = {key: tables[key][1] for key in finishing if key in tables and len(tables[key]) > 1}
    return places, consolation_prizes(seconds, options)
