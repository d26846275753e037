"""examples/field-season.script, run as a person runs it: `pinleague local --script … --json`.

Twelve members, eight nights, then the finals: a guest (FIELD-ATT-3), an opponent's ball played twice
(FIELD-PEN-2), a tie that stops the night closing until its playoff (FIELD-SCORE-3), a member refused entry
to the finals (FIELD-FIN-1), the bracket played out best of three (FIELD-FIN-4/5/7), payouts (FIELD-PAY-2)
and the IFPA results (FIELD-IFPA-1/2).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "examples" / "field-season.script"


def test_the_field_season_plays_through_its_finals(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PINLEAGUE_")}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "local", "--script", str(SCRIPT), "--json"],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    outputs = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert not [o for o in outputs if o["kind"] == "error" or "Something went wrong" in (o.get("content") or "")]
    refusals = [o["content"].splitlines()[-1] for o in outputs if (o.get("content") or "").startswith("⛔")]
    assert refusals == ["-# Rule FIELD-SCORE-3", "-# Rule FIELD-FIN-1"]

    closed = [o for o in outputs if (o.get("content") or "").startswith("🏁 Night closed")]
    assert [o["embeds"][0]["title"].split(",")[0] for o in closed] == [f"🎯 Week {n}" for n in range(1, 9)]
    penalties = [o["content"] for o in outputs if (o.get("content") or "").startswith("🚩")]
    assert "recorded, no score penalty" in penalties[0] and "machine score 0" in penalties[1]

    finals = outputs[-1]["embeds"][0]
    fields = {field["name"]: field["value"] for field in finals["fields"]}
    assert finals["description"] == "11 entrants paid. Pool $70.00: $49.00 / $21.00"
    assert fields["Finals"].startswith("🏆 Champion:")
    ifpa = [line.split() for line in fields["IFPA results (FIELD-IFPA-1)"].strip("`\n").splitlines()]
    assert [int(row[0]) for row in ifpa] == [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 12]
    assert ifpa[-1][1:] == ["Lp12", "(league)"] and "Visitor" not in fields["IFPA results (FIELD-IFPA-1)"]
