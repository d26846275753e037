"""500 mixed submissions from 50 members at once, on SQLite and PostgreSQL.

Both captains of every match enter every game's scores twice, with different values, all at the same
moment; the other members check in (twice each), try to enter scores, and read the standings. Exactly one
entry wins per game (COMMON-SCORE-1), every other gets a clear answer, and nothing is lost or duplicated.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter, defaultdict
from dataclasses import dataclass

import pytest
from sqlmodel import col, select

from bench.team import ROUND_GAMES, TeamLeagueSize, TonightMatch
from bot.local.emulator import Emulator, InteractionResult, Output
from bot.local.emulator.records import REPLY_KINDS
from bot.rules.team.model import Side
from storage.db import Database
from storage.matches import GameScore, MatchVisit
from storage.models import AuditEntry
from tests.robustness.conftest import match_night_of

pytestmark = pytest.mark.alone  # 50 members at once against the 3 s deadline: no other worker beside it

SIZE = TeamLeagueSize(teams=12, players=6, weeks_played=1, past_seasons=0, venues=2)
SUBMISSIONS = 500
MEMBERS = 50
ANSWER_WITHIN = 60.0  # seconds to the final answer; the 3 s acknowledgement is checked by the emulator


@dataclass(frozen=True)
class Submission:
    line: str
    member: str
    kind: str  # score, player-score, checkin, standings
    game: tuple[int, int, int] | None = None  # (match, round, game) for captains' scores
    values: tuple[int, ...] = ()


def score_line(match: TonightMatch, round_index: int, game: int, values: tuple[int, ...]) -> str:
    names = ["home1", "away1", "home2", "away2"]
    pairs = [values[i : i + 2] for i in range(0, len(values), 2)]  # (home, away) per player slot
    options = " ".join(f"{names[2 * slot]}:{h:,} {names[2 * slot + 1]}:{a:,}" for slot, (h, a) in enumerate(pairs))
    return f"/score match:{match.match_id} round:{round_index} game:{game} {options}"


def submissions(tonight: list[TonightMatch], rng: random.Random) -> list[Submission]:
    captains = [m.captain(side) for m in tonight for side in Side]
    others = [name for m in tonight for side in Side for name in m.roster[side][1:]][: MEMBERS - len(captains)]
    planned: list[Submission] = []
    for match in tonight:
        for round_index, games in enumerate(ROUND_GAMES, start=1):
            for game, players in enumerate(games, start=1):
                for attempt in range(4):
                    captain = match.captain(Side.HOME if attempt % 2 == 0 else Side.AWAY)
                    values = tuple(rng.randrange(10_000, 90_000_000) for _ in range(2 * len(players)))
                    line = score_line(match, round_index, game, values)
                    planned.append(Submission(line, captain, "score", (match.match_id, round_index, game), values))
    match_of = {name: m for m in tonight for side in Side for name in m.roster[side]}
    for name in others:  # each checks in twice, tries a score, reads the standings
        match = match_of[name]
        planned += [
            Submission(f"/checkin match:{match.match_id}", name, "checkin"),
            Submission(f"/checkin match:{match.match_id}", name, "checkin"),
            Submission(score_line(match, 4, 1, (1_000, 2_000)), name, "player-score"),
            Submission("/standings", name, "standings"),
        ]
    while len(planned) < SUBMISSIONS:
        planned.append(Submission("/standings", rng.choice(others), "standings"))
    assert len(planned) == SUBMISSIONS and len(set(captains) | set(others)) == MEMBERS
    rng.shuffle(planned)
    return planned


async def test_500_mixed_submissions_from_50_members_at_once(db: Database) -> None:
    """COMMON-SCORE-1, TEAM-LINEUP-11, TEAM-SCHED-2 under load: one winner per game, clear refusals, no loss."""
    async with match_night_of(db, SIZE) as night:
        planned = submissions(night.league.tonight, random.Random(9))
        visits_before = await _visits(db)
        results: list[InteractionResult] = await asyncio.gather(
            *(night.emulator.run(s.line, as_member=s.member, timeout=ANSWER_WITHIN) for s in planned)
        )

        texts = await replies(night.emulator, results)
        unanswered = [s.line for s, t in zip(planned, texts, strict=True) if not t]
        assert not unanswered, unanswered[:5]
        assert not [t for t in texts if "Something went wrong" in t]
        winners: dict[tuple[int, int, int], list[Submission]] = defaultdict(list)
        for submission, text in zip(planned, texts, strict=True):
            if submission.kind == "score":
                if text.startswith("📝"):
                    winners[submission.game or (0, 0, 0)].append(submission)
                else:
                    assert "already has scores" in text, text
            elif submission.kind == "player-score":
                assert text.startswith("⛔") and "TEAM-LINEUP-11" in text, text
            elif submission.kind == "standings":
                assert "⛔" not in text, text
        games = {s.game for s in planned if s.game}
        assert set(winners) == games and all(len(w) == 1 for w in winners.values()), "exactly one entry per game"

        async with db.reading() as session:
            ids = [m.match_id for m in night.league.tonight]
            stored = (await session.exec(select(GameScore).where(col(GameScore.match_id).in_(ids)))).all()
            audited = (
                await session.exec(
                    select(AuditEntry).where(AuditEntry.entity == "game_score", AuditEntry.action == "create")
                )
            ).all()
        by_game: dict[tuple[int, int, int], list[int]] = defaultdict(list)
        for row in sorted(stored, key=lambda r: (r.side is Side.AWAY, r.id or 0)):
            by_game[(row.match_id, row.round_index, row.game_number)].append(row.score)
        for game, (winner,) in winners.items():
            home, away = winner.values[0::2], winner.values[1::2]
            assert by_game[game] == [*home, *away], "the winning entry is stored as entered"
        assert len(stored) == sum(len(w[0].values) for w in winners.values()), "nothing duplicated"
        assert len(audited) == len(stored)

        checkins = [(s, t) for s, t in zip(planned, texts, strict=True) if s.kind == "checkin"]
        accepted = Counter(s.member for s, t in checkins if "is checked in" in t)
        refused = [t for s, t in checkins if "is checked in" not in t]
        assert all("already checked in" in t and "TEAM-SCHED-2" in t for t in refused), refused[:3]
        assert set(accepted.values()) == {1}, "a member is checked in once, however often they ask"
        assert await _visits(db) == visits_before + len(accepted)


def reply_text(outputs: list[Output]) -> str:
    """What the member reads in answer (not the scoreboard the answer also updates)."""
    return "\n".join(o.text() for o in outputs if o.kind in REPLY_KINDS)


async def replies(emulator: Emulator, results: list[InteractionResult], *, within: float = 30.0) -> list[str]:
    """Each interaction's reply, waiting for the followups of deferred ones (the emulator counts a deferred
    interaction as answered once the scoreboard it edits arrives, which may come first)."""
    records = [emulator.interactions[result.interaction_id] for result in results]
    for _ in range(int(within / 0.05)):
        if all(reply_text(r.outputs) for r in records):
            break
        await asyncio.sleep(0.05)
    return [reply_text(r.outputs) for r in records]


async def _visits(db: Database) -> int:
    async with db.reading() as session:
        return len((await session.exec(select(MatchVisit.id))).all())
