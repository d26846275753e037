"""/match scout through the real bot: after played weeks, a captain's scout of tonight's match names the other
team's most-picked machines (TEAM-LINEUP-3: the round's first declarer picks) with the counts and the games won
and lost on each, computed here from the lineups and scores the season stored."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import date

from sqlmodel import col, select

from bench.team import TeamLeague, TeamLeagueSize, seed_team_league
from bot.clock import ManualClock
from bot.local.emulator import Emulator
from bot.rules.team.model import Side
from storage.db import Database
from storage.matches import GameScore, Match, MatchLineup
from storage.models import Machine, Team
from tests.e2e.harness import running_bot

SIZE = TeamLeagueSize(teams=4, players=6, weeks_played=3, past_seasons=1, venues=2)
LINE = re.compile(r"\*\*(.+)\*\*: picked (\d+)× · (.+) (\d+)–(\d+) · (.+) (\d+)–(\d+)")


async def _favour(db: Database, team_id: int, before: date) -> str:
    """The team picks its venue's first machine for every game it picked before `before`, and loses the first
    of those games: the data the season then shows, not the benchmark's even rotation."""
    async with db.writing() as session:
        first = {}
        for machine in (await session.exec(select(Machine).order_by(col(Machine.id)))).all():
            first.setdefault(machine.venue_id, machine)
        lost = False
        for row, match in (await session.exec(select(MatchLineup, Match).join(Match))).all():
            side_team = match.home_team_id if row.side is Side.HOME else match.away_team_id
            if match.play_on >= before or side_team != team_id or row.games[0]["machine"] is None:
                continue
            row.games = [{**game, "machine": first[match.venue_id].id} for game in row.games]
            session.add(row)
            if not lost:
                game = select(GameScore).where(
                    GameScore.match_id == match.id, GameScore.round_index == row.round_index, GameScore.game_number == 1
                )
                for score in (await session.exec(game)).all():
                    score.score = 1 if score.side is row.side else 9_000_000
                    session.add(score)
                lost = True
    assert len({m.title for m in first.values()}) == 1  # every venue's first machine is the same model
    return next(iter(first.values())).title


async def _expected(league: TeamLeague, team_id: int, us_id: int) -> tuple[Counter[str], dict[str, list[int]]]:
    """From the stored rows: the machines `team_id` picked (the machine sits on the first declarer's lineup),
    and [won, lost, us won, us lost] on every machine, by title; a game's side total decides it."""
    async with league.db.reading() as session:
        titles = {m.id: m.title for m in (await session.exec(select(Machine))).all()}
        earlier = (await session.exec(select(Match).where(Match.play_on < league.match_day))).all()
        by_id = {m.id: m for m in earlier}
        lineups = (await session.exec(select(MatchLineup).where(col(MatchLineup.match_id).in_(by_id)))).all()
        scores = (await session.exec(select(GameScore).where(col(GameScore.match_id).in_(by_id)))).all()
    totals: dict[tuple[int, int, int], dict[Side, int]] = defaultdict(lambda: dict.fromkeys(Side, 0))
    for score in scores:
        totals[(score.match_id, score.round_index, score.game_number)][score.side] += score.score
    picks: Counter[str] = Counter()
    records: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row in lineups:
        match = by_id[row.match_id]
        team_of = {Side.HOME: match.home_team_id, Side.AWAY: match.away_team_id}
        for number, game in enumerate(row.games, start=1):
            if game["machine"] is None:
                continue  # the second declarer's lineup names no machine
            title = titles[game["machine"]]
            if team_of[row.side] == team_id:
                picks[title] += 1
            total = totals[(row.match_id, row.round_index, number)]
            winner = team_of[max(Side, key=lambda side: total[side])]
            for offset, team in ((0, team_id), (2, us_id)):
                if team in team_of.values():
                    records[title][offset + (winner != team)] += 1
    return picks, records


async def test_a_captain_scouts_the_other_teams_picks_before_tonights_match(sqlite_db: Database) -> None:
    async with Emulator(guild_name="Pinball Club") as emulator:
        league = await seed_team_league(sqlite_db, emulator, SIZE)
        async with sqlite_db.reading() as session:
            match = await session.get(Match, league.tonight[0].match_id)
            assert match is not None
        favourite = await _favour(sqlite_db, match.home_team_id, league.match_day)
        async with running_bot(sqlite_db, emulator, clock=ManualClock(league.now)) as running:
            tonight = league.tonight[0]
            captain = tonight.roster[Side.AWAY][0]
            async with sqlite_db.reading() as session:
                match = await session.get(Match, tonight.match_id)
                assert match is not None
                home = await session.get(Team, match.home_team_id)
                away = await session.get(Team, match.away_team_id)
            assert home is not None and away is not None and home.id and away.id

            offered = await emulator.autocomplete("/match scout match:", focused="match")
            assert any(c["value"] == tonight.match_id and home.name in c["name"] for c in offered)

            scouted = await running.run("/match scout", as_member=captain)  # default: the captain's next match
            assert scouted.ephemeral and len(scouted.embeds) == 1
            embed = scouted.embeds[0]
            assert [field["name"] for field in embed["fields"]] == [f"{home.name}'s most-picked machines"]
            shown = [LINE.fullmatch(line) for line in embed["fields"][0]["value"].splitlines()]
            assert shown and all(shown)

            picks, records = await _expected(league, home.id, away.id)
            top = shown[0]
            assert top is not None
            assert top[1] == favourite and int(top[2]) == max(picks.values()) == picks[favourite]
            assert records[favourite][1] >= 1  # the game the team lost on it
            for line in shown:
                assert line is not None
                assert (line[3], line[6]) == (home.name, away.name)
                title = line[1]
                assert int(line[2]) == picks[title]
                assert [int(line[4]), int(line[5]), int(line[7]), int(line[8])] == records[title]

            same = await running.run(f"/match scout match:{tonight.match_id}", as_member=captain)
            assert same.embeds[0]["fields"] == embed["fields"]
            await league.reset_tonight(rounds_declared=0)  # the away captain declares: the board is posted
            machines = " ".join(f"m{g}:{m}" for g, m in enumerate(tonight.machines[:2], start=1))
            players = " ".join(f"p{n}:{p}" for n, p in enumerate(tonight.players[Side.AWAY], start=1))
            await running.run(f"/lineup match:{tonight.match_id} {players} {machines}", as_member=captain)
            await running.scoreboards_published()
            board = [o for o in emulator.messages_in("general") if o.components][-1]
            clicked = await emulator.click(board, f"match:scout:{tonight.match_id}", as_member=captain)
            assert clicked.ephemeral and clicked.embeds[0]["fields"] == embed["fields"]

            both = await running.run(f"/match scout match:{tonight.match_id}", as_member="owner")
            assert [f["name"] for f in both.embeds[0]["fields"]] == [
                f"{away.name}'s most-picked machines",
                f"{home.name}'s most-picked machines",
            ]
