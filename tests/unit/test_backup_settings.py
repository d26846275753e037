"""Bad daily-backup settings stop `pinleague run` with one line naming the setting and the fix, before the
database is reached."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.cli import main

CLOSED = "127.0.0.1:1"  # nothing listens: a check that let the start go on would fail on this, not hang


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    for key in [key for key in os.environ if key.startswith("PINLEAGUE_")]:
        monkeypatch.delenv(key)
    monkeypatch.setenv("PINLEAGUE_DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("PINLEAGUE_DISCORD_API_URL", f"http://{CLOSED}/api/v10")
    monkeypatch.setenv("PINLEAGUE_DISCORD_GATEWAY_URL", f"ws://{CLOSED}/")
    monkeypatch.setenv("PINLEAGUE_DATA_DIR", str(tmp_path / "data"))


def one_line(capsys: pytest.CaptureFixture[str], code: int, expected: int = 1) -> str:
    output = capsys.readouterr()
    lines = (output.out + output.err).strip().splitlines()
    assert code == expected and len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("BACKUP_TIME", "3am", "PINLEAGUE_BACKUP_TIME: Value error, must be a time of day in UTC like 03:30, not '3am"),
        ("BACKUP_TIME", "24:00", "PINLEAGUE_BACKUP_TIME: Value error, must be a time of day in UTC like 03:30"),
        ("BACKUP_KEEP", "0", "PINLEAGUE_BACKUP_KEEP: Input should be greater than or equal to 1"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_setting(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], key: str, value: str, message: str
) -> None:
    monkeypatch.setenv(f"PINLEAGUE_{key}", value)
    assert message in one_line(capsys, main(["run"]), expected=2)


def test_a_backup_folder_under_a_regular_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    blocking = tmp_path / "not-a-folder"
    blocking.write_text("a file where a folder should be")
    monkeypatch.setenv("PINLEAGUE_BACKUP_TIME", "03:30")
    monkeypatch.setenv("PINLEAGUE_BACKUP_DIR", str(blocking / "backups"))
    line = one_line(capsys, main(["run"]))
    assert line == (
        f"pinleague cannot start: PINLEAGUE_BACKUP_DIR={blocking / 'backups'}: {blocking} is a file, not a folder; "
        "point PINLEAGUE_BACKUP_DIR at a folder (created if missing)"
    )
    assert not (tmp_path / "data" / "pinleague.db").exists()  # stopped before the database


def test_a_backup_time_with_postgresql_says_to_use_pg_dump(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PINLEAGUE_BACKUP_TIME", "03:30")
    monkeypatch.setenv("PINLEAGUE_DATABASE_URL", f"postgresql+asyncpg://postgres@{CLOSED}/x")
    line = one_line(capsys, main(["run"]))
    assert line.startswith("pinleague cannot start: PINLEAGUE_BACKUP_TIME is set but the database is PostgreSQL")
    assert "pg_dump" in line and "connection refused" not in line
