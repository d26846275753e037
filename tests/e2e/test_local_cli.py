"""The `pinleague` command as a person runs it: scripts through the local chat, and `run` with no token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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
