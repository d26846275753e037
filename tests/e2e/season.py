"""A team league set up through Discord for the schedule, standings and playoff tests, and the match facts
those tests write straight into storage (as the match-night commands would record them)."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import ManualClock
from bot.rules.team.model import Side
from storage.matches import GameScore, Match, MatchConfirmation, MatchLineup, MatchVisit
from storage.models import RosterEntry, Team
from tests.e2e.harness import RunningBot

NEW_YORK = ZoneInfo("America/New_York")
SETUP_DAY = datetime(2027, 2, 26, 12, 0, tzinfo=NEW_YORK)  # a Friday
START = date(2027, 3, 1)  # a Monday
VENUES = ["Ace Arcade", "Barcade", "Silver Ball"]
# name, roster prefix, evening, home venue, conference
TEAMS = [
    ("Flipper Kings", "fk", "Tuesday", "Ace Arcade", "East"),
    ("Ball Busters", "bb", "Tuesday", "Barcade", "East"),
    ("Tilt Warriors", "tw", "Wednesday", "Silver Ball", "East"),
    ("Drain Masters", "dm", "Thursday", "Ace Arcade", "East"),
    ("Spinners", "sp", "Monday", "Barcade", "West"),
    ("Rollovers", "ro", "Monday", "Silver Ball", "West"),
]


async def build_roster(league: RunningBot, team: str, prefix: str, *, effective: str = "2027-02-26") -> None:
    for n in range(1, 7):
        league.emulator.add_member(f"{prefix}{n}")
        role = "captain" if n == 1 else "starter"
        await league.run(f'/roster add team:"{team}" member:@{prefix}{n} role:{role} adult:true', as_member="alice")
    submitted = await league.run(f'/roster submit team:"{team}" effective:{effective}', as_member="alice")
    assert "Roster submitted" in submitted.text(), submitted.content


async def set_up_season_league(league: RunningBot) -> None:
    """NYC: East (4 teams on Tue/Tue/Wed/Thu) and West (2 teams on Mondays), every roster submitted.

    Setup commands answer once and send nothing after, so the emulator need not wait to collect followups."""
    clock = league.bot.clock
    assert isinstance(clock, ManualClock)
    clock.set(SETUP_DAY)
    quiet_window, league.emulator.quiet_window = league.emulator.quiet_window, 0.001
    try:
        await league.run('/league create name:"NYC" format:team commissioner_role:@Commissioner', as_member="owner")
        for venue in VENUES:
            await league.run(f'/venue add name:"{venue}"', as_member="alice")
        for name, prefix, evening, venue, conference in TEAMS:
            created = await league.run(
                f'/team create name:"{name}" evening:{evening} home_venue:"{venue}" conference:{conference}',
                as_member="alice",
            )
            assert not created.content.startswith("⛔"), created.content
            await build_roster(league, name, prefix)
    finally:
        league.emulator.quiet_window = quiet_window


async def refused(league: RunningBot, line: str, *, as_member: str, rule: str | None, message: str) -> None:
    before = await league.row_counts()
    result = await league.run(line, as_member=as_member)
    assert result.ephemeral and result.content.startswith("⛔"), result.content
    assert message in result.content, result.content
    if rule:
        assert f"Rule {rule}" in result.content, result.content
    assert await league.row_counts() == before


async def stored_matches(league: RunningBot) -> list[Match]:
    async with league.db.reading() as session:
        return list((await session.exec(select(Match).order_by(col(Match.week), col(Match.id)))).all())


async def teams_by_name(league: RunningBot) -> dict[str, Team]:
    async with league.db.reading() as session:
        return {team.name: team for team in (await session.exec(select(Team))).all()}


class Facts:
    """Writes the match-night facts the lead's commands will record, straight into storage."""

    def __init__(self, league: RunningBot, players: dict[int, list[int]]) -> None:
        self.league = league
        self.players = players  # team id → its player ids

    @classmethod
    async def load(cls, league: RunningBot) -> Facts:
        async with league.db.reading() as session:
            entries = (await session.exec(select(RosterEntry).order_by(col(RosterEntry.id)))).all()
        players: dict[int, list[int]] = {}
        for entry in entries:
            players.setdefault(entry.team_id, []).append(entry.player_id)
        return cls(league, players)

    async def venue_forfeit(self, match: Match, loser: Side) -> None:
        """TEAM-VENUE-1/4: the side in breach loses 0–12; final at once."""
        async with self.league.db.writing() as session:
            match.venue_forfeit = loser
            session.add(match)

    async def attendance_forfeit(self, match: Match, winner: Side, *, confirmed: bool = True) -> None:
        """TEAM-FORF-1: only `winner` came (4 players); no extension; its captain confirms the 9 points."""
        async with self.league.db.writing() as session:
            match.extension_agreed = False
            session.add(match)
            self._check_in(session, match, winner)
            if confirmed:
                self._confirm(session, match, winner)

    async def played(self, match: Match, winners: str, *, machine: int | None = None) -> None:
        """A full match: `winners` names each game's winning side, H or A, round by round (D, D, S, S); every
        game on `machine` when one is given."""
        rounds = [winners[0:2], winners[2:4], winners[4:8], winners[8:12]]
        async with self.league.db.writing() as session:
            for side in Side:
                self._check_in(session, match, side)
                self._confirm(session, match, side)
            for index, games in enumerate(rounds, start=1):
                for side in Side:
                    p = self.players[match.home_team_id if side is Side.HOME else match.away_team_id]
                    doubles = [[p[0], p[1]], [p[2], p[3]]] if index == 1 else [[p[0], p[2]], [p[1], p[3]]]
                    lineup = doubles if index <= 2 else [[player] for player in p[:4]]
                    session.add(
                        MatchLineup(
                            match_id=match.id or 0,
                            round_index=index,
                            side=side,
                            declared_at=self._at(match, time(20, index)),
                            games=[{"players": players, "machine": machine} for players in lineup],
                        )
                    )
                    for number, (players, winner) in enumerate(zip(lineup, games, strict=True), start=1):
                        score = 100 if winner == side.value[0].upper() else 50
                        for player in players:
                            session.add(
                                GameScore(
                                    match_id=match.id or 0,
                                    round_index=index,
                                    game_number=number,
                                    side=side,
                                    player_id=player,
                                    score=score,
                                    entered_by=1,
                                    entered_at=self._at(match, time(22)),
                                )
                            )

    def _check_in(self, session: AsyncSession, match: Match, side: Side) -> None:
        team = match.home_team_id if side is Side.HOME else match.away_team_id
        for player in self.players[team][:4]:
            arrived = self._at(match, time(19, 50))
            session.add(MatchVisit(match_id=match.id or 0, side=side, player_id=player, arrived_at=arrived))

    def _confirm(self, session: AsyncSession, match: Match, side: Side) -> None:
        confirmed = MatchConfirmation(
            match_id=match.id or 0, side=side, confirmed_by=1, confirmed_at=self._at(match, time(23))
        )
        session.add(confirmed)

    @staticmethod
    def _at(match: Match, moment: time) -> datetime:
        return datetime.combine(match.play_on, moment, tzinfo=NEW_YORK)


def between(matches: list[Match], teams: dict[str, Team], a: str, b: str, *, week: int | None = None) -> Match:
    pair = {teams[a].id, teams[b].id}
    return next(m for m in matches if {m.home_team_id, m.away_team_id} == pair and week in (None, m.week))


def side_of(match: Match, team: Team) -> Side:
    return Side.HOME if match.home_team_id == team.id else Side.AWAY
