"""A whole team match run from the living board by two captains on their phones (DESIGN §2c).

Check-in, lineups picked from autocomplete, every game entered through its form (button → form), a typo fixed
by its own captain before confirmation, a tied game replayed, a dispute and its ruling, the tie-breaker and
both signatures. The test counts what members type, as §2c measures it: every slash-command option and form
value typed counts its characters; a value picked from autocomplete, a menu or the member list counts zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.clock import ManualClock
from bot.local.emulator import InteractionResult
from tests.e2e.phones import Chosen, Phones, Pick, Reason, Score, Value, score_fields
from tests.e2e.team_night import AWAY, HOME, Night, at, scoreboard

MATCH_LABEL = "Tilt Warriors at Flipper Kings"
TYPED_BUDGET = 20  # characters members may type in a whole match, beyond scores and free-text reasons


@dataclass
class Thumbs(Phones):
    """The captains' phones on a team match night."""

    night: Night = field(kw_only=True)

    async def enter(self, who: str, round_index: int, game: int, scores: dict[str, str]) -> InteractionResult:
        """Enter scores (or the replay) from the board: one press, one form."""
        custom_id = f"score:enter:{self.night.match_id}:{round_index}:{game}"
        form = await self.press(await scoreboard(self.night), custom_id, who, purpose="enter")
        values: dict[str, Value] = {key: Score(text) for key, text in scores.items()}
        return await self.fill(form, who, values, purpose=("enter", round_index, game))

    async def confirm(self, who: str, round_index: int, game: int) -> InteractionResult:
        custom_id = f"score:confirm:{self.night.match_id}:{round_index}:{game}"
        return await self.press(await scoreboard(self.night), custom_id, who, purpose="confirm")

    async def declare(self, who: str, players: Sequence[str], machines: Sequence[str] = ()) -> InteractionResult:
        options: dict[str, Value] = {"match": Pick(MATCH_LABEL)}
        options |= {f"p{n}": Pick(player) for n, player in enumerate(players, start=1)}
        options |= {f"m{n}": Pick(machine) for n, machine in enumerate(machines, start=1)}
        return await self.command(who, "/lineup", **options)


def doubles(h1: str, h2: str, a1: str, a2: str) -> dict[str, str]:
    return {"home1": h1, "home2": h2, "away1": a1, "away2": a2}


def singles(home: str, away: str) -> dict[str, str]:
    return {"home1": home, "away1": away}


async def test_a_whole_match_from_the_board_on_a_phone(night: Night) -> None:
    """DESIGN §2c with TEAM-SCHED-2, TEAM-LINEUP-2/3, TEAM-GAME-1/4, COMMON-SCORE-1, COMMON-SCORE-3, TEAM-AMB-4,
    TEAM-DISP-1, TEAM-MATCH-3/4 and TEAM-TB-1..4: beyond scores and reasons, members type at most 20 characters
    and no ids; each game takes at most two interactions to enter and one to confirm."""
    emulator, clock = night.league.emulator, night.league.bot.clock
    assert isinstance(clock, ManualClock)
    phones = Thumbs(night.league, night=night)
    h1, a1 = emulator.member("h1").id, emulator.member("a1").id
    match = Pick(MATCH_LABEL)

    # Check-in: the captains check teammates in from the member list, one player checks in alone.
    clock.set(at(19, 40))
    for captain, team in (("h1", HOME), ("a1", AWAY)):
        await phones.command(captain, "/checkin", match=match)
        for player in team[1:3]:
            await phones.command(captain, "/checkin", match=match, member=Chosen(f"@{player}"))
        await phones.command(team[3], "/checkin", match=match)
    clock.set(at(20, 1))

    # Round 1 (Doubles): AWAY declares first and picks the machines; HOME's captain is pinged, once.
    away_declared = await phones.declare("a1", ["A1", "A2", "A3", "A4"], ["Godzilla", "Medieval Madness"])
    assert away_declared.answer is not None and away_declared.answer.pinged == [h1]
    await phones.declare("h1", ["H1", "H2", "H3", "H4"])

    entered = await phones.enter("h1", 1, 1, doubles("30,000,000", "20,000,000", "10,000,000", "9,000,000"))
    assert entered.answer is not None and entered.answer.pinged == [a1]  # the confirming captain, only
    await phones.confirm("a1", 1, 1)
    # A typo (20,000,000 for 2,000,000) that would hand HOME the game, fixed by its own captain in time.
    typo = await phones.enter("h1", 1, 2, doubles("20,000,000", "3,500,000", "9,000,000", "6,900,000"))
    assert "H3 20,000,000 + H4 3,500,000 → Flipper Kings +2 ⏳" in (await scoreboard(night)).text()
    form = await phones.press(typo, f"score:edit:{night.match_id}:1:2", "h1", purpose="fix")
    fixed = await phones.fill(form, "h1", {"home1": Score("2,000,000")} | _kept(form), purpose=("fix", 1, 2))
    assert "H3 2,000,000, H4 3,500,000, A3 9,000,000, A4 6,900,000" in fixed.content
    assert "H3 2,000,000 + H4 3,500,000 → Tilt Warriors +2 ⏳" in (await scoreboard(night)).text()
    await phones.confirm("a1", 1, 2)

    # Round 2 (Doubles): HOME first.
    await phones.declare("h1", ["H1", "H3", "H2", "H4"], ["Godzilla", "Attack from Mars"])
    await phones.declare("a1", ["A1", "A3", "A2", "A4"])
    await phones.enter("h1", 2, 1, doubles("40,000,000", "1", "2", "3"))
    await phones.confirm("a1", 2, 1)
    await phones.enter("a1", 2, 2, doubles("1", "2", "40,000,000", "3"))
    await phones.confirm("h1", 2, 2)

    # Round 3 (Singles): game 2 is tied, confirmed, and replayed from the same button by the other captain.
    await phones.declare("a1", ["A1", "A2", "A3", "A4"], ["Godzilla", "Godzilla", "Medieval", "Attack"])
    await phones.declare("h1", ["H1", "H2", "H3", "H4"])
    for game, scores in ((1, singles("5,000,000", "4,000,000")), (2, singles("5,000,000", "5,000,000"))):
        await phones.enter("h1", 3, game, scores)
        await phones.confirm("a1", 3, game)
    assert "tied: replay, same machine, same players" in (await scoreboard(night)).text()
    replay = await phones.enter("a1", 3, 2, singles("7,000,000", "6,000,000"))
    assert replay.answer is not None and replay.answer.pinged == [h1]
    await phones.confirm("h1", 3, 2)
    for game in (3, 4):
        await phones.enter("h1", 3, game, singles("1,000,000", "2,000,000"))
        await phones.confirm("a1", 3, game)

    # Round 4 (Singles): HOME first; the last game is disputed, ruled on, then confirmed.
    await phones.declare("h1", ["H4", "H3", "H2", "H1"], ["Medieval", "Medieval", "Attack", "Godzilla"])
    await phones.declare("a1", ["A4", "A3", "A2", "A1"])
    for game, scores in ((1, singles("5,000,000", "4,000,000")), (2, singles("5,000,000", "4,000,000"))):
        await phones.enter("h1", 4, game, scores)
        await phones.confirm("a1", 4, game)
    await phones.enter("h1", 4, 3, singles("1,000,000", "2,000,000"))
    await phones.confirm("a1", 4, 3)
    last = await phones.enter("h1", 4, 4, singles("1,000,000", "2,000,000"))
    form = await phones.press(last, f"score:dispute:{night.match_id}:4:4", "a1", purpose="dispute")
    await phones.fill(form, "a1", {"reason": Reason("H1 nudged during A1's last ball")}, purpose=("dispute", 4, 4))
    assert "a commissioner rules on dispute" in (await scoreboard(night)).text()
    await phones.command("alice", "/match ruling", match=match, ruling=Reason("No nudge seen; score stands"))
    last_confirmed = await phones.confirm("a1", 4, 4)
    assert f"<@{h1}> picks the tie-breaker's format or machine" in last_confirmed.content
    assert last_confirmed.answer is not None and last_confirmed.answer.pinged == [h1]

    # 8–8: the tie-breaker (TEAM-TB-1..4), every choice picked from a list.
    await phones.command("h1", "/tiebreak choose", match=match, machine=Pick("Attack from Mars"))
    await phones.command("a1", "/tiebreak choose", match=match, format=Chosen("shared_game"))
    players = {"p1": Pick("A1"), "p2": Pick("A2"), "p3": Pick("A3")}
    await phones.command("a1", "/tiebreak declare", match=match, **players)
    await phones.command("h1", "/tiebreak declare", match=match, p1=Pick("H1"), p2=Pick("H2"), p3=Pick("H3"))
    scored = await phones.command(
        "h1", "/tiebreak score", match=match, home=Score("1,980,000,000"), away=Score("2,450,000,000")
    )
    assert f"<@{a1}> and <@{h1}> sign the scoresheet" in scored.content
    assert scored.answer is not None and scored.answer.pinged == [a1]
    board = await scoreboard(night)
    assert "Tilt Warriors 2,450,000,000 – 1,980,000,000 Flipper Kings: Tilt Warriors win the match" in board.text()

    # Both captains sign from the board (TEAM-MATCH-4).
    await phones.press(board, f"match:sign:{night.match_id}", "h1", purpose="sign")
    await phones.press(await scoreboard(night), f"match:sign:{night.match_id}", "a1", purpose="sign")
    final = await scoreboard(night)
    assert "Final: Tilt Warriors win" in final.text() and "Tilt Warriors 8 – 8 Flipper Kings" in final.text()
    assert "Next:" not in final.text()

    # What the thumbs did: no typed ids, next to nothing typed, two taps a game entered and one a confirmation.
    assert sum(len(text) for text in phones.typed) <= TYPED_BUDGET, phones.typed
    assert not [text for text in phones.typed if any(ch.isdigit() for ch in text)]
    entered_games = [(r, g) for kind, r, g in phones.taps if kind == "enter"]
    assert len(entered_games) == 12
    over = {key: n for key, n in phones.taps.items() if key[0] == "enter" and n > 2 * (1 + (key[1:] == (3, 2)))}
    assert not over, over  # the tied game is entered twice: the tie, then its replay
    confirmations = {key: n for key, n in phones.taps.items() if key[0] == "confirm"}
    assert len(confirmations) == 12
    assert all(n == 1 + (key[1:] == (3, 2)) for key, n in confirmations.items()), confirmations
    assert phones.score_characters > 0 and phones.reason_characters > 0
    scoreboards = {o.message_id for o in emulator.outputs if o.kind == "message" and o.embeds}
    assert len(scoreboards) == 1  # one living board, edited in place


def _kept(form: InteractionResult) -> dict[str, Value]:
    """The form's other fields as pre-filled (the captain leaves them alone: nothing typed)."""
    assert form.modal is not None
    return {
        c["component"]["custom_id"]: Chosen(c["component"]["value"])
        for c in score_fields(form.modal)
        if c["component"]["custom_id"] != "home1"
    }
