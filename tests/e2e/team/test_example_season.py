"""examples/team-season.script, run as a person runs it: `pinleague local --script … --json`.

Six teams, five weeks: a short-handed match (TEAM-SHORT-2, TEAM-SHORT-5), a forfeit played out
(TEAM-FORF-1), a late roster change refused (TEAM-ROSTER-7), then the standings and the playoff bracket.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "examples" / "team-season.script"


def test_the_example_season_plays_through_to_a_playoff_bracket(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PINLEAGUE_")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "local", "--script", str(SCRIPT), "--json"],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    outputs = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    refusals = [o["content"] for o in outputs if (o.get("content") or "").startswith("⛔")]
    late_change = (
        "⛔ Roster changes for today closed at 4:00 PM; earliest effective date is Thu 2027-03-18. To make this "
        "change take effect then (or later), send it again with `effective:2027-03-18`."
    )
    assert refusals == [f"{late_change}\n-# Rule TEAM-ROSTER-7"]
    assert not [o for o in outputs if o["kind"] == "error" or "Something went wrong" in (o.get("content") or "")]

    boards = [o for o in outputs if o["kind"] in ("message", "message_edit") and o["embeds"]]
    finals = {o["embeds"][0]["title"] for o in boards if "✅ Final" in o["embeds"][0].get("description", "")}
    assert len(finals) == 15  # every regular-season match ended signed and final

    standings = next(o for o in outputs if "standings" in (o["embeds"][0]["title"] if o["embeds"] else ""))
    table = standings["embeds"][0]["fields"][0]["value"]
    assert "15 of 15 regular-season matches final" in standings["embeds"][0]["description"]
    assert table.index("Tilt Warriors") < table.index("Drain Masters") < table.index("Multiball Mob")

    bracket = outputs[-1]["embeds"][0]
    assert "playoffs" in bracket["title"]
    assert "(1) Tilt Warriors vs (4) Flipper Kings" in bracket["fields"][0]["value"]
