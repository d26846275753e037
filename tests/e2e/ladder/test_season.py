"""examples/ladder-season.script, run as a person runs it: `pinleague local --script … --json`.

Thirteen players, ten weeks: a late join refused (LADDER-REG-1), absences on premakeups and ghosts
(LADDER-PMU-6, LADDER-GHOST-1), a third No-Show dropping a player when his group starts game 3 with his
money forfeited (LADDER-ATT-5, LADDER-PAY-4), the A/B split after week 5 (LADDER-DIV-1/2), then the final
standings per division (LADDER-STAND-2) and the payouts (LADDER-PAY-2), in under a minute.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "examples" / "ladder-season.script"


def test_the_ladder_season_plays_through_to_standings_and_payouts(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PINLEAGUE_")}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "local", "--script", str(SCRIPT), "--json"],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path,
    )  # fmt: skip
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    outputs = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    refusals = [o["content"] for o in outputs if (o.get("content") or "").startswith("⛔")]
    assert refusals == ["⛔ Registration closed: no new players after week 2.\n-# Rule LADDER-REG-1"]
    assert not [o for o in outputs if o["kind"] == "error" or "Something went wrong" in (o.get("content") or "")]
    assert elapsed < 60, f"the season took {elapsed:.1f} s"

    embeds = [e for o in outputs for e in o.get("embeds") or []]
    finals = [e for e in embeds if " final" in e.get("title", "")]
    assert [e["title"].split("week ")[1] for e in finals] == [f"{week} final" for week in range(1, 11)]

    drop = [o["content"] for o in outputs if "third No-Show" in (o.get("content") or "")]
    assert len(drop) == 1 and "Max" in drop[0] and "game 3" in drop[0]

    week5 = {f["name"]: f["value"] for f in finals[4]["fields"]}
    split = week5["🔀 Division split (LADDER-DIV-1)"].splitlines()
    assert [len(line.split(": ")[1].split(", ")) for line in split] == [6, 6]  # n = 12 after the drop
    assert "Max" not in week5["🔀 Division split (LADDER-DIV-1)"]
    assert week5["➡️ Week 6 groups"].count("Division A") == 2  # [3, 3] per division (LADDER-AMB-11)

    standings = next(e for e in embeds if "standings" in e.get("title", ""))
    tables = {f["name"]: f["value"] for f in standings["fields"]}
    assert {"Division A", "Division B"} <= set(tables)
    assert tables["Division A"].count("★") == 2  # clamp(6 // 3, 2, 6) playoff places (LADDER-AMB-19)
    assert "10 of 10 weeks played" in standings["description"]

    playoffs = next(e for e in embeds if "playoff places" in e.get("title", ""))
    places = {f["name"]: f["value"] for f in playoffs["fields"]}
    assert "Final standings" in playoffs["description"]
    for division in ("Division A", "Division B"):  # LADDER-PO-1/2: 2 seeds, then the 4 alternates in order
        seeds, alternates = places[division].split("\nAlternates: ")
        assert len(seeds.splitlines()) == 2 and len(alternates.split(", ")) == 4
        assert seeds.splitlines()[0][3:] in tables[division].splitlines()[2]

    payouts = next(e for e in embeds if "payouts" in e.get("title", ""))
    money = {f["name"]: f["value"] for f in payouts["fields"]}
    assert money["Weekly pots (LADDER-PAY-2)"].count("Week ") == 10
    assert "Week 1: pot $39.00" in money["Weekly pots (LADDER-PAY-2)"]  # 13 × $6, half (LADDER-PAY-1)
    max_line = next(line for line in money["Season money"].splitlines() if line.startswith("Max"))
    assert max_line.split()[1:] == ["$18.00", "$0.00", "$18.00"]  # three weeks paid, all forfeited
