"""The team match's living board as the captains' interface: Enter scores, Edit, Undo, Confirm and Dispute per
game, the tied game's replay, a board that says who won and who acts next, and pings for that person only."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlmodel import select

from bot.clock import ManualClock
from bot.local.emulator import InteractionResult, Output
from bot.rules.team.model import ScoreStatus, Side
from bot.services.team.scoreboard import Scoreboard
from cogs.team import views
from storage.matches import GameScore
from storage.models import AuditEntry
from tests.e2e.harness import running_bot
from tests.e2e.phones import score_fields
from tests.e2e.team_night import Night, four_each_checked_in, match_points, scoreboard


def buttons(message: Output) -> dict[str, str]:
    """custom_id → label of every button and menu on a message."""
    found = {}
    for row in message.components:
        for item in row["components"]:
            found[item["custom_id"]] = item.get("label") or item.get("placeholder", "")
    return found


async def declare_round_one(night: Night) -> None:
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")


async def enter_from_board(
    night: Night, round_index: int, game: int, values: dict[str, str], who: str
) -> InteractionResult:
    board = await scoreboard(night)
    form = await night.league.emulator.click(board, f"score:enter:{night.match_id}:{round_index}:{game}", as_member=who)
    assert form.modal is not None, form.text()
    entered = await night.league.emulator.submit_modal(form, values, as_member=who)
    await night.league.scoreboards_published()
    return entered


async def test_scores_entered_from_the_board_echo_exactly_and_ping_the_confirming_captain(night: Night) -> None:
    """COMMON-SCORE-1, TEAM-GAME-1: the board's Enter scores opens a form labelled with the players; the echo
    shows the stored numbers and pings the opposing captain only; Confirm on the echo settles it."""
    await declare_round_one(night)
    board = await scoreboard(night)
    labels = buttons(board)
    assert labels[f"score:enter:{night.match_id}:1:1"] == "Enter R1 G1 · A1 / A2 v H1 / H2"
    assert f"match:sign:{night.match_id}" in labels
    form = await night.league.emulator.click(board, f"score:enter:{night.match_id}:1:1", as_member="h1")
    assert form.modal is not None
    fields = [(c["type"], c["label"], c["component"]["custom_id"]) for c in form.modal["components"]]
    assert fields == [
        (18, "Home 1 · H1", "home1"),
        (18, "Home 2 · H2", "home2"),
        (18, "Away 1 · A1", "away1"),
        (18, "Away 2 · A2", "away2"),
        (18, "📷 Photo of the display", "photo"),  # optional: the photo below the four players
    ]
    values = {"home1": "45,210,330", "home2": "45210330", "away1": "1,000", "away2": "12"}
    entered = await night.league.emulator.submit_modal(form, values, as_member="h1")
    a1 = night.league.emulator.member("a1").id
    assert entered.answer is not None and not entered.ephemeral
    assert "H1 45,210,330, H2 45,210,330, A1 1,000, A2 12" in entered.content
    assert f"<@{a1}> confirms round 1 game 1" in entered.content
    assert entered.answer.pinged == [a1]
    assert set(buttons(entered.answer)) == {
        f"score:{action}:{night.match_id}:1:1" for action in ("confirm", "dispute", "edit", "undo")
    }
    await night.league.scoreboards_published()
    board = await scoreboard(night)
    assert f"score:confirm:{night.match_id}:1:1" in buttons(board)
    assert f"<@{a1}> confirms round 1 game 1" in board.text()
    assert not board.pinged  # the board is edited in place and mentions inside embeds never ping

    refused = await night.league.emulator.click(board, f"score:confirm:{night.match_id}:1:1", as_member="h1")
    assert "the captain who entered them cannot" in refused.text()
    confirmed = await night.league.emulator.click(entered, f"score:confirm:{night.match_id}:1:1", as_member="a1")
    assert "confirmed by A1" in confirmed.text()
    board = await scoreboard(night)
    assert "→ Flipper Kings +2 ✅" in board.text()
    assert f"score:confirm:{night.match_id}:1:1" not in buttons(board)


async def test_a_captain_fixes_his_own_typo_until_it_is_confirmed(night: Night) -> None:
    """COMMON-SCORE-3: Edit opens the same form filled with the stored scores; only the side that entered it
    may fix or undo it, each change audited before/after; once confirmed, a change is a dispute."""
    await declare_round_one(night)
    typo = {"home1": "1,234,000", "home2": "2", "away1": "3", "away2": "4"}
    entered = await enter_from_board(night, 1, 2, typo, "h1")
    emulator = night.league.emulator
    other = await emulator.click(entered, f"score:edit:{night.match_id}:1:2", as_member="a1")
    assert other.modal is None and "only they can fix it" in other.text()
    form = await emulator.click(entered, f"score:edit:{night.match_id}:1:2", as_member="h1")
    assert form.modal is not None
    prefilled = {c["component"]["custom_id"]: c["component"].get("value") for c in score_fields(form.modal)}
    assert prefilled == {"home1": "1,234,000", "home2": "2", "away1": "3", "away2": "4"}
    fixed = await emulator.submit_modal(form, typo | {"home1": "12,340,000"}, as_member="h1")
    assert "fixed: H3 12,340,000, H4 2, A3 3, A4 4" in fixed.content
    assert fixed.answer is not None and fixed.answer.pinged == []  # the confirming captain was pinged once already
    async with night.league.db.reading() as session:
        audited = (await session.exec(select(AuditEntry).where(AuditEntry.action == "update"))).all()
    changes = [(a.before or {}).get("score") for a in audited if a.entity == "game_score"]
    assert changes == [1_234_000]
    assert [(a.after or {}).get("score") for a in audited if a.entity == "game_score"] == [12_340_000]

    undone = await emulator.click(fixed, f"score:undo:{night.match_id}:1:2", as_member="h1")
    assert "taken back" in undone.text()
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 0}
    again = await enter_from_board(night, 1, 2, typo | {"home1": "12,340,000"}, "h1")
    await emulator.click(again, f"score:confirm:{night.match_id}:1:2", as_member="a1")
    late = await emulator.click(again, f"score:edit:{night.match_id}:1:2", as_member="h1")
    assert "Rule COMMON-SCORE-3" in late.text() and "dispute" in late.text()


async def test_a_tied_game_is_replayed_from_the_board_and_the_opposing_captain_confirms(night: Night) -> None:
    """TEAM-AMB-4, TEAM-GAME-6 (regression: the replay used to deadlock, with both captains refused): a game
    confirmed level shows its replay on the board; the same form takes every player's replay score at once;
    the other side confirms it, and only then does it count."""
    await declare_round_one(night)
    level = {"home1": "5,000,000", "home2": "5,000,000", "away1": "6,000,000", "away2": "4,000,000"}
    tied = await enter_from_board(night, 1, 1, level, "h1")
    await night.league.emulator.click(tied, f"score:confirm:{night.match_id}:1:1", as_member="a1")
    board = await scoreboard(night)
    # COMMON-AMB-4: the exactly equal 10,000,000 totals are a raw-score tie, replayed by TEAM-AMB-4's default.
    assert "tied: replay, same machine, same players" in board.text()
    assert buttons(board)[f"score:enter:{night.match_id}:1:1"].startswith("Replay R1 G1")
    form = await night.league.emulator.click(board, f"score:enter:{night.match_id}:1:1", as_member="a1")
    assert form.modal is not None and "replay" in form.modal["title"]
    replay = {"home1": "1", "home2": "2", "away1": "3", "away2": "4"}
    entered = await night.league.emulator.submit_modal(form, replay, as_member="a1")
    h1 = night.league.emulator.member("h1").id
    assert "Round 1 game 1 replay entered: H1 1, H2 2, A1 3, A2 4" in entered.content
    assert entered.answer is not None and entered.answer.pinged == [h1]
    refused = await night.league.emulator.click(entered, f"score:confirm:{night.match_id}:1:1", as_member="a1")
    assert "the captain who entered them cannot" in refused.text()
    confirmed = await night.league.emulator.click(entered, f"score:confirm:{night.match_id}:1:1", as_member="h1")
    assert "confirmed by H1" in confirmed.text()
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}
    board = await scoreboard(night)
    assert "(replay) → Tilt Warriors +2 ✅" in board.text()
    async with night.league.db.reading() as session:
        rows = (await session.exec(select(GameScore).where(GameScore.game_number == 1))).all()
    assert sorted(row.status for row in rows).count(ScoreStatus.REPLAY_REPLACES) == 4
    assert all(row.confirmed_at is not None for row in rows)


async def test_the_board_says_who_acts_next_and_pings_only_them(night: Night) -> None:
    """TEAM-LINEUP-2, TEAM-PEN-5: "Next:" names the captain who declares, pinged once in the reply that made it
    due (not the one who acted); a penalty that changes a game's winner is tagged on the board."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    h1, a1 = (night.league.emulator.member(name).id for name in ("h1", "a1"))
    away = await night.league.run(
        f"/lineup match:{night.match_id} p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m2}", as_member="a1"
    )
    assert f"**Next:** <@{h1}> declares round 1." in away.content
    assert away.answer is not None and away.answer.pinged == [h1]
    home = await night.league.run(f"/lineup match:{night.match_id} p1:H1 p2:H2 p3:H3 p4:H4", as_member="h1")
    assert f"<@{h1}> declares round 2" in home.content
    assert home.answer is not None and home.answer.pinged == []  # h1 acted: no ping to himself
    await enter_from_board(night, 1, 1, {"home1": "50", "home2": "30", "away1": "20", "away2": "20"}, "h1")
    await night.run("/match penalty match:MATCH round:1 game:1 offence:slam_tilt member:@h2", "a1")
    board = await scoreboard(night)
    assert "→ Tilt Warriors +2 🚩 H2: slam tilt" in board.text()
    assert f"<@{a1}> confirms round 1 game 1" in board.text()


async def test_lineup_takes_member_mentions(night: Night) -> None:
    """TEAM-LINEUP-7: a player may be named by a member mention, as /checkin takes one."""
    await four_each_checked_in(night)
    m1, m2, _ = night.machines
    a = {name: night.league.emulator.member(name).id for name in ("a1", "a2", "a5")}
    declared = await night.run(f"/lineup match:MATCH p1:<@{a['a1']}> p2:@a2 p3:A3 p4:a4 m1:{m1} m2:{m2}", "a1")
    assert "declared round 1" in declared
    absent = await night.run(f"/lineup match:MATCH p1:<@{a['a5']}> p2:H2 p3:H3 p4:H4", "h1")
    assert "not on Flipper Kings's roster" in absent or "TEAM-LINEUP-7" in absent
    stranger = night.league.emulator.add_member("stranger").id
    unknown = await night.run(f"/lineup match:MATCH p1:<@{stranger}> p2:H2 p3:H3 p4:H4", "h1")
    assert "is not a player in NYC" in unknown


async def test_more_games_awaiting_than_a_row_holds_become_a_menu(night: Night) -> None:
    """Discord allows 5 buttons a row and 5 rows: six games awaiting confirmation are offered in a menu, which
    confirms the game picked."""
    await declare_round_one(night)
    m1, m2, m3 = night.machines
    scores = {"home1": "2", "home2": "2", "away1": "1", "away2": "1"}
    for game in (1, 2):
        await enter_from_board(night, 1, game, scores, "h1")
    await night.run(f"/lineup match:MATCH p1:H1 p2:H3 p3:H2 p4:H4 m1:{m1} m2:{m3}", "h1")
    await night.run("/lineup match:MATCH p1:A1 p2:A3 p3:A2 p4:A4", "a1")
    for game in (1, 2):
        await enter_from_board(night, 2, game, scores, "h1")
    await night.run(f"/lineup match:MATCH p1:A1 p2:A2 p3:A3 p4:A4 m1:{m1} m2:{m1} m3:{m2} m4:{m2}", "a1")
    await night.run("/lineup match:MATCH p1:H1 p2:H2 p3:H3 p4:H4", "h1")
    for game in (1, 2):
        await enter_from_board(night, 3, game, {"home1": "2", "away1": "1"}, "h1")
    board = await scoreboard(night)
    menu = f"board:confirm:{night.match_id}"
    assert menu in buttons(board) and len(board.components) <= 5
    picked = await night.league.emulator.click(board, menu, values=["Confirm R2 G1"], as_member="a1")
    assert "Round 2 game 1 confirmed by A1" in picked.text()


async def test_the_board_buttons_still_answer_after_a_restart(night: Night) -> None:
    """The board's buttons are persistent (DynamicItem): after the bot restarts, Enter scores on the board
    posted before still opens its form, and the scores are stored."""
    await declare_round_one(night)
    board = await scoreboard(night)
    clock = night.league.bot.clock
    assert isinstance(clock, ManualClock)
    await night.league.bot.close()
    async with running_bot(night.league.db, night.league.emulator, sync=False, clock=clock) as restarted:
        form = await restarted.emulator.click(board, f"score:enter:{night.match_id}:1:1", as_member="h1")
        assert form.modal is not None, form.text()
        values = {"home1": "4", "home2": "3", "away1": "2", "away2": "1"}
        entered = await restarted.emulator.submit_modal(form, values, as_member="h1")
        assert "H1 4, H2 3, A1 2, A2 1" in entered.content


async def test_replays_each_captain_entered_are_confirmed_by_the_other(night: Night) -> None:
    """TEAM-MACH-6 / TEAM-PEN-1 (regression: both captains were refused): each captain enters his own player's
    replay; each confirms the other's, and the game is settled."""
    await declare_round_one(night)
    entered = await enter_from_board(night, 1, 1, {"home1": "9", "home2": "9", "away1": "1", "away2": "1"}, "h1")
    await night.league.emulator.click(entered, f"score:confirm:{night.match_id}:1:1", as_member="a1")
    await night.run("/match replay match:MATCH round:1 game:1 member:@h1 score:1", "h1")
    away = await night.league.run(
        f"/match replay match:{night.match_id} round:1 game:1 member:@a1 score:20", as_member="a1"
    )
    for captain in ("h1", "a1"):
        confirmed = await night.league.emulator.click(away, f"score:confirm:{night.match_id}:1:1", as_member=captain)
        assert "confirmed by" in confirmed.text(), confirmed.text()
    assert await match_points(night) == {Side.HOME: 0, Side.AWAY: 2}  # 1 + 9 < 20 + 1
    assert "→ Tilt Warriors +2 ✅" in (await scoreboard(night)).text()


async def test_a_refused_form_comes_back_with_what_was_typed(night: Night) -> None:
    """COMMON-SCORE-1: a score the form cannot read is refused privately, naming the field and its player, and
    nothing is stored; "Fix and send again" reopens the form with everything typed, so one typo costs one field."""
    await declare_round_one(night)
    before = await night.league.row_counts()
    typed = {"home1": "30,000,000", "home2": "20,000,000", "away1": "10.000.00", "away2": "9,000,000"}
    refused = await enter_from_board(night, 1, 1, typed, "h1")
    assert refused.ephemeral and "Away 1 (A1)" in refused.content and "Rule COMMON-SCORE-1" in refused.content
    assert await night.league.row_counts() == before
    assert refused.answer is not None
    (retry,) = [item for row in refused.answer.components for item in row["components"]]
    assert retry["label"] == "Fix and send again"
    form = await night.league.emulator.click(refused, retry["custom_id"], as_member="h1")
    assert form.modal is not None
    prefilled = {c["component"]["custom_id"]: c["component"].get("value") for c in score_fields(form.modal)}
    assert prefilled == typed
    entered = await night.league.emulator.submit_modal(form, typed | {"away1": "10,000,000"}, as_member="h1")
    assert "H1 30,000,000, H2 20,000,000, A1 10,000,000, A2 9,000,000" in entered.content


async def test_one_players_replay_is_undone_rather_than_edited(night: Night) -> None:
    """TEAM-MACH-6: the form fixes a whole game; a single player's replay score is taken back with Undo."""
    await declare_round_one(night)
    entered = await enter_from_board(night, 1, 1, {"home1": "9", "home2": "9", "away1": "1", "away2": "1"}, "h1")
    await night.league.emulator.click(entered, f"score:confirm:{night.match_id}:1:1", as_member="a1")
    replay = await night.league.run(
        f"/match replay match:{night.match_id} round:1 game:1 member:@h1 score:1", as_member="h1"
    )
    edit = await night.league.emulator.click(replay, f"score:edit:{night.match_id}:1:1", as_member="h1")
    assert edit.modal is None and "press Undo" in edit.text()
    undone = await night.league.emulator.click(replay, f"score:undo:{night.match_id}:1:1", as_member="h1")
    assert "taken back" in undone.text()
    assert await match_points(night) == {Side.HOME: 2, Side.AWAY: 0}  # the first scores stand again


async def test_a_check_in_racing_a_score_entry_is_on_the_last_board_sent(
    night: Night, monkeypatch: pytest.MonkeyPatch
) -> None:
    """TEAM-SCHED-2: a score entry builds the board it publishes inside its own transaction, holding the match; a
    teammate who checks in at the same moment waits for it, or it for them, and the last board sent shows both."""
    await declare_round_one(night)
    sent: list[Scoreboard] = []
    send = views._send_scoreboard

    async def recording(bot: Any, channel: object, board: Scoreboard) -> None:
        sent.append(board)
        await send(bot, channel, board)

    monkeypatch.setattr(views, "_send_scoreboard", recording)
    board = await scoreboard(night)
    form = await night.league.emulator.click(board, f"score:enter:{night.match_id}:1:1", as_member="h1")
    assert form.modal is not None, form.text()
    values = {"home1": "1", "home2": "2", "away1": "3", "away2": "4"}
    entered, checked_in = await asyncio.gather(
        night.league.emulator.submit_modal(form, values, as_member="h1"), night.run("/checkin match:MATCH", "h5")
    )
    assert "Round 1 game 1" in entered.text() or "R1 G1" in entered.text(), entered.text()
    assert not checked_in.startswith("⛔"), checked_in
    await night.league.scoreboards_published()
    last = sent[-1]
    late = night.league.emulator.member("h5").display_name
    assert late in {last.names[visit.player_id] for visit in last.night.visits}
    assert {row.score for row in last.scores if (row.round_index, row.game_number) == (1, 1)} == {1, 2, 3, 4}


async def test_two_confirmations_at_once_are_answered_before_the_board_is_edited(night: Night) -> None:
    """TEAM-GAME-1: the board waits for the replies being worked on; the members pressing Confirm read their
    answers first, and the one board edit after them shows both games confirmed."""
    await declare_round_one(night)
    first = await enter_from_board(night, 1, 1, {"home1": "9", "home2": "9", "away1": "1", "away2": "1"}, "h1")
    second = await enter_from_board(night, 1, 2, {"home1": "8", "home2": "8", "away1": "2", "away2": "2"}, "h1")
    emulator = night.league.emulator
    before = len(emulator.outputs)
    replies = await asyncio.gather(
        emulator.click(first, f"score:confirm:{night.match_id}:1:1", as_member="a1"),
        emulator.click(second, f"score:confirm:{night.match_id}:1:2", as_member="a1"),
    )
    await night.league.scoreboards_published()
    sent = emulator.outputs[before:]
    pressed = {reply.interaction_id for reply in replies}
    answered = [i for i, o in enumerate(sent) if o.kind in ("response", "edit") and o.interaction_id in pressed]
    edits = [i for i, o in enumerate(sent) if o.kind == "message_edit"]
    assert answered and edits, [o.kind for o in sent]
    assert max(answered) < min(edits), [o.kind for o in sent]
    board = (await scoreboard(night)).text()
    assert all("confirmed" in reply.text() for reply in replies)
    assert board.count("✅") >= 2, board
