"""The local chat does what a phone does: press buttons, pick from menus, fill the forms the bot opens, see
autocomplete suggestions, keep the files the bot sends, and keep the members it added (issue 15 item 10).

Driven in-process through `LocalChat` and `run_chat` (what `pinleague local --script` runs), not a subprocess.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.local.chat import ChatError, LocalChat, run_chat
from bot.local.screen import render_output
from bot.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
PHONE_NIGHT = ROOT / "examples" / "phone-night.script"
# The script up to the first form: a league, two teams, a match with both lineups declared.
UNTIL_FIRST_FORM = PHONE_NIGHT.read_text(encoding="utf-8").split('@h1 :click "Enter R1 G1"')[0].splitlines()


def _settings() -> Settings:
    return load_settings(discord_token="unused")


@pytest.fixture
async def chat() -> AsyncIterator[LocalChat]:
    chat = LocalChat(_settings(), db_url=None)
    await chat.start()
    try:
        yield chat
    finally:
        await chat.close()


async def _say(chat: LocalChat, line: str) -> str:
    outputs, note = await chat.execute(line)
    return "\n".join([*(render_output(output) for output in outputs), note or ""])


async def test_phone_night_script_plays_a_whole_match_from_the_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """examples/phone-night.script (TEAM-GAME-1, COMMON-SCORE-1, TEAM-DISP-1, TEAM-TB-1..4, TEAM-MATCH-4) runs
    without a chat error or a refusal and ends with both signatures on a final board; the CSVs it asks for are
    saved into the attachments folder."""
    settings = _settings()
    code = await run_chat(settings, script=PHONE_NIGHT, as_json=True, demo=False, db_url=None, attachments=tmp_path)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    assert not [line for line in lines if line["kind"] == "error"], [line for line in lines if line["kind"] == "error"]
    assert code == 0
    refused = [line["content"] for line in lines if "⛔" in line.get("content", "")]
    assert not refused, refused
    boards = [line for line in lines if line.get("embeds") and "Week 1" in line["embeds"][0].get("title", "")]
    final = boards[-1]["embeds"][0]
    assert "Final: Tilt Warriors win" in final["description"]
    assert "Tilt Warriors 8 – 8 Flipper Kings" in final["description"]
    signed = [line["content"] for line in lines if "signed the scoresheet" in line.get("content", "")]
    assert [text.split(" signed")[0] for text in signed] == ["🖊️ H1", "🖊️ A1"]
    saved = [Path(line["path"]) for line in lines if line["kind"] == "saved"]
    assert saved and all(path.parent == tmp_path and path.stat().st_size > 0 for path in saved)


async def test_a_form_is_shown_with_its_fields_and_filled_by_label_or_in_order(chat: LocalChat) -> None:
    """COMMON-SCORE-1: the form lists its fields; an unknown label or a missing required field is a chat error
    listing them, and the form stays open; labels match by a unique beginning, in any case."""
    for line in UNTIL_FIRST_FORM:
        await chat.execute(line)
    opened = await _say(chat, '@h1 :click "enter r1 g1"')
    assert "opens a form: Round 1 game 1 scores" in opened
    assert "1. Home 1 · H1 (required)" in opened and "4. Away 2 · A2 (required)" in opened
    with pytest.raises(ChatError, match=r"no field 'Visitor 1'.*Home 1 · H1 \(required\)"):
        await chat.execute('@h1 :fill "Visitor 1"=5')
    with pytest.raises(ChatError, match=r"'Away 2 · A2' too \(required\)"):
        await chat.execute("@h1 :fill 30,000,000 20,000,000 10,000,000")
    with pytest.raises(ChatError, match="could be any of 'Home 1 · H1', 'Home 2 · H2'"):
        await chat.execute("@h1 :fill home=1")
    with pytest.raises(ChatError, match="no form is open for a1"):
        await chat.execute("@a1 :fill 1 2 3 4")
    refused = await _say(chat, '@h1 :fill "home 1"=30,000,000 "Home 2"=20.000.000 "Away 1"=10,000,000 "away 2"=9M')
    assert "Away 2 (A2): '9M' is shorthand" in refused and "[Fix and send again]" in refused
    with pytest.raises(ChatError, match="no message you can see shows a button 'Fix and send'"):
        await chat.execute('@a1 :click "Fix and send"')  # the refusal is h1's alone (ephemeral)
    reopened = await _say(chat, '@h1 :click "Fix and send"')
    assert "1. Home 1 · H1 (required) = 30,000,000" in reopened and "4. Away 2 · A2 (required) = 9M" in reopened
    entered = await _say(chat, '@h1 :fill "away 2"="9 000 000"')
    assert "H1 30,000,000, H2 20,000,000, A1 10,000,000, A2 9,000,000" in entered
    with pytest.raises(ChatError, match="no form is open for h1"):
        await chat.execute("@h1 :fill 1 2 3 4")  # sent: the form is closed


async def test_a_form_takes_a_file_by_its_path_for_its_photo(chat: LocalChat, tmp_path: Path) -> None:
    """COMMON-SCORE-1: the score form lists its optional photo of the display; `:fill` attaches a file by its
    path, by label (`photo=…`) or in order after the scores; a missing file, or one over Discord's 10 MiB, is a
    chat error and the form stays open; the echo links the photo."""
    for line in UNTIL_FIRST_FORM:
        await chat.execute(line)
    opened = await _say(chat, '@h1 :click "enter r1 g1"')
    assert "5. 📷 Photo of the display (optional) a file: its path" in opened
    with pytest.raises(ChatError, match="is not a readable file"):
        await chat.execute(f"@h1 :fill 4 3 2 1 {tmp_path / 'nowhere.jpg'}")
    huge = tmp_path / "huge.jpg"
    huge.write_bytes(b"\xff" * (10 * 1024 * 1024 + 1))
    with pytest.raises(ChatError, match="over the 10 MiB"):
        await chat.execute(f'@h1 :fill 4 3 2 1 "{huge}"')
    photo = tmp_path / "display one.jpg"
    photo.write_bytes(b"\xff\xd8\xff\0")
    entered = await _say(chat, f'@h1 :fill "home 1"=4 "home 2"=3 "away 1"=2 "away 2"=1 photo="{photo}"')
    assert "H1 4, H2 3, A1 2, A2 1." in entered and "[📷 photo](http" in entered
    assert "/display%20one.jpg)" in entered  # a space would end the link early


async def test_complete_shows_suggestions_and_pick_chooses_in_a_menu(chat: LocalChat) -> None:
    """TEAM-LINEUP-2: :complete shows the option's suggestions with the value a script types; six games awaiting
    confirmation become a menu on the board (Discord's 5 buttons a row), and :pick confirms the game picked."""
    for line in UNTIL_FIRST_FORM:
        await chat.execute(line)
    suggested = await _say(chat, "@a1 :complete /lineup match:1 m2:Med")
    assert "suggestions: Medieval Madness" in suggested and "→ 2" in suggested
    script = PHONE_NIGHT.read_text(encoding="utf-8").splitlines()
    entering = script[len(UNTIL_FIRST_FORM) : script.index('@a1 :pick Confirm "Confirm R1 G1"')]
    for line in entering:
        await chat.execute(line)
    with pytest.raises(ChatError, match=r"no option 'R9 G9'.*'Confirm R1 G1'"):
        await chat.execute('@a1 :pick Confirm "R9 G9"')
    picked = await _say(chat, '@a1 :pick confirm "Confirm R2 G1"')
    assert "Round 2 game 1 confirmed by A1" in picked
    assert "[Confirm R1 G1]" in picked  # five left: buttons again
    with pytest.raises(ChatError, match="no message you can see shows a menu 'Confirm'"):
        await chat.execute('@a1 :pick Confirm "Confirm R1 G1"')


async def test_members_added_in_the_chat_are_kept_with_a_kept_database(tmp_path: Path) -> None:
    """`--db`: members added with :member add, and roles given, are there again when the chat reopens on the
    same database, with the ids the league's rows name them by."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'league.db'}"
    first = LocalChat(_settings(), db_url=url)
    await first.start()
    try:
        await first.execute(":member add zoe Captain")
        await first.execute(":role carol Commissioner")
        zoe = first.emulator.member("zoe").id
    finally:
        await first.close()
    again = LocalChat(_settings(), db_url=url)
    await again.start()
    try:
        listed = await _say(again, ":members")
        assert again.emulator.member("zoe").id == zoe
        assert "zoe: Captain" in listed and "carol: Commissioner" in listed
        shown = await _say(again, "@zoe /league show")
        assert "✖" not in shown
    finally:
        await again.close()
