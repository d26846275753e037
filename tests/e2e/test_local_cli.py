"""The `pinleague` command as a person runs it: scripts through the local chat, and `run` with no token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

SCRIPT = Path(__file__).parent / "scripts" / "setup.txt"


def _pinleague(*args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PINLEAGUE_")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=Path(__file__).parent,  # no .env here
    )


def test_script_prints_one_json_object_per_bot_output() -> None:
    done = _pinleague("local", "--script", str(SCRIPT), "--json")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    summary = [(line["kind"], line.get("ephemeral"), (line.get("content") or "")[:40]) for line in lines]
    assert summary == [
        ("response", False, "🏁 **Script League** is set up as a **tea"),
        ("response", True, "📍 Venue **Ace Arcade** added. Add its ma"),
        ("response", True, "🎰 **Godzilla (Premium)** (#1) added at A"),
        ("response", True, "🛡️ Team **Flipper Kings** created with h"),
        ("response", True, "⛔ Only commissioners of Script League ca"),
        ("response", True, "🙋 **Bob** is registered in Script League"),
        ("response", True, ""),
        ("error", None, ""),
    ], done.stderr
    shown = lines[6]["embeds"][0]
    assert shown["title"] == "Script League"
    assert any("Godzilla (Premium)" in field["value"] for field in shown["fields"])
    assert "nme" in lines[7]["message"]
    assert done.returncode == 1  # the script had an error line
    assert "discord." not in done.stdout + done.stderr  # discord.py's gateway log stays out of the chat


def test_run_without_a_token_opens_the_local_chat_on_a_demo_league() -> None:
    done = _pinleague(
        "run", stdin='/league show\n/roster show team:"Tilt Warriors"\n:as bob\n/team create name:Sneaky\n'
    )
    assert done.returncode == 0, done.stderr
    assert "No Discord token is configured" in done.stdout
    assert "PINLEAGUE_DISCORD_TOKEN" in done.stdout
    assert "Demo league ready" in done.stdout
    assert "Demo Team League" in done.stdout and "Flipper Kings" in done.stdout
    assert "Tilt Warriors roster" in done.stdout and "In force on" in done.stdout  # the demo's rosters were accepted
    assert "now acting as bob" in done.stdout
    assert "⛔ Only commissioners" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_scheduled_posts_follow_the_local_chat_clock(tmp_path: Path) -> None:
    """`:clock` moves the emulated time and whatever fell due by then is posted: the roll call the day before."""
    today = datetime.now(ZoneInfo("America/New_York")).date()
    start = today + timedelta(days=2)  # so the day before the match is after today, whatever the hour
    tuesday = start + timedelta(days=(1 - start.weekday()) % 7)  # the demo teams play on Tuesdays
    script = tmp_path / "posts.txt"
    script.write_text(
        f"/schedule generate weeks:1 start:{start}\n"
        "/posts channels announcements:#announcements\n"
        "/posts set kind:roster_cutoff enabled:false\n"
        f":clock {tuesday - timedelta(days=1)} 11:59 America/New_York\n"
        f":clock {tuesday - timedelta(days=1)} 12:00 America/New_York\n"
    )
    done = _pinleague("local", "--demo", "--script", str(script), "--json")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    posted = [line for line in lines if line["kind"] == "message" and line["channel"] == "announcements"]
    assert len(posted) == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert posted[0]["embeds"][0]["title"].startswith("🙋 Roll call: ")
    assert [c["label"] for c in posted[0]["components"][0]["components"]] == ["In", "Maybe", "Out"]
