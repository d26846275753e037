"""`pinleague import-csv`, `export`, `import`, `backup` and `restore` as a commissioner runs them in a shell."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from storage.db import Database
from tests.storage import helpers as make

MACHINES = """venue,model,variant,players,balls,address
Ace Arcade,Godzilla,Premium,4,3,12 Flipper Street
ace arcade,Medieval Madness,,2,5,
Barcade,Twilight Zone,,,,
"""
ROSTERS = """team,discord_id,name,role,ifpa_number,ifpa_rank,adult
Tilt Warriors,100000000000000001,Ann,captain,1234,850,yes
Tilt Warriors,100000000000000002,Ben,starter,,,yes
"""
BROKEN_ROSTERS = """team,discord_id,name,role,ifpa_number,ifpa_rank,adult
Tilt Warriors,100000000000000003,Cat,goalie,,,yes
Nobody FC,100000000000000004,Dan,starter,,,yes
Tilt Warriors,@dan,Dan,starter,,,yes
Tilt Warriors,100000000000000005,Eve,starter,99999999,,maybe
"""


def _pinleague(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PINLEAGUE_")}
    env["PINLEAGUE_DATABASE_URL"] = f"sqlite+aiosqlite:///{database}"
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=120, env=env, cwd=database.parent
    )


def _count(database: Path, table: str) -> int:
    with sqlite3.connect(database) as connection:
        return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


async def test_spreadsheets_league_file_and_backup_from_the_shell(sqlite_db: Database, tmp_path: Path) -> None:
    """COMMON-MACH-2 and COMMON-PLAYER-1 checked per row; the broken roster file is reported row by row and
    changes nothing; the export imports under another server; the backup restores."""
    league = await make.insert(sqlite_db, make.league(guild_id=111, timezone="America/New_York"))
    await make.insert(sqlite_db, make.season(league.id))
    await make.insert(sqlite_db, make.team(league.id, match_weekday=1))
    await sqlite_db.dispose()
    database = tmp_path / "league.db"
    (tmp_path / "machines.csv").write_text(MACHINES)
    (tmp_path / "rosters.csv").write_text(ROSTERS)
    (tmp_path / "broken.csv").write_text(BROKEN_ROSTERS)

    done = _pinleague(database, "import-csv", "machines", str(tmp_path / "machines.csv"))
    assert done.returncode == 0, done.stderr
    assert "Flipper Kings: imported 2 venue, 3 machine" in done.stdout
    done = _pinleague(database, "import-csv", "rosters", str(tmp_path / "rosters.csv"))
    assert done.returncode == 0 and "imported 2 player, 2 roster_entry" in done.stdout, done.stdout + done.stderr

    entries = _count(database, "roster_entry")
    done = _pinleague(database, "import-csv", "rosters", str(tmp_path / "broken.csv"), "--dry-run")
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "5 problem(s); nothing was imported:",
        "  broken.csv:2: `role` 'goalie' is not one of captain, starter, reserve",
        "  broken.csv:3: Flipper Kings has no team named 'Nobody FC'; create it with /team create",
        "  broken.csv:4: `discord_id` '@dan' is not a Discord user id (17–20 digits; Copy User ID in Discord)",
        "  broken.csv:5: IFPA number 99999999 is not valid: it is a whole number from 1 to 9,999,999. "
        "(rule COMMON-PLAYER-1)",
        "  broken.csv:5: `adult` 'maybe' is not yes or no",
    ]
    assert _count(database, "roster_entry") == entries

    done = _pinleague(database, "export", str(tmp_path / "out.zip"))
    assert done.returncode == 0 and "wrote" in done.stdout, done.stderr
    done = _pinleague(database, "import", str(tmp_path / "out.zip"), "--guild", "222", "--dry-run")
    assert done.returncode == 0 and "would import" in done.stdout, done.stdout + done.stderr
    done = _pinleague(database, "import", str(tmp_path / "out.zip"), "--guild", "222")
    assert done.returncode == 0 and "Flipper Kings: imported" in done.stdout, done.stdout + done.stderr
    assert _count(database, "league") == 2 and _count(database, "machine") == 6

    done = _pinleague(database, "import", str(tmp_path / "missing.zip"))
    assert done.returncode == 2 and "missing.zip" in done.stderr and "Traceback" not in done.stderr

    done = _pinleague(database, "backup", str(tmp_path / "backup.db"))
    assert done.returncode == 0 and "integrity ok" in done.stdout, done.stderr
    done = _pinleague(tmp_path / "fresh.db", "restore", str(tmp_path / "backup.db"))
    assert done.returncode == 0, done.stderr
    assert _count(tmp_path / "fresh.db", "machine") == 6
