from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.settings import SettingsError, load_settings


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    for key in ("DISCORD_TOKEN", "DATABASE_URL", "DEFAULT_TIMEZONE", "LOG_LEVEL", "DEV_GUILD_ID", "DATA_DIR"):
        monkeypatch.delenv(f"PINLEAGUE_{key}", raising=False)


def test_defaults_need_nothing() -> None:
    settings = load_settings()
    assert settings.token is None
    assert settings.resolved_database_url == "sqlite+aiosqlite:///data/pinleague.db"
    assert settings.discord_api_url == "https://discord.com/api/v10"


def test_reads_dotenv_and_treats_empty_as_unset(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("PINLEAGUE_DISCORD_TOKEN=abc\nPINLEAGUE_DEV_GUILD_ID=\nPINLEAGUE_LOG_LEVEL=debug\n")
    settings = load_settings()
    assert settings.token == "abc" and settings.dev_guild_id is None and settings.log_level == "DEBUG"


def test_token_is_not_printed() -> None:
    assert "s3cret" not in repr(load_settings(discord_token="s3cret"))


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("PINLEAGUE_DEFAULT_TIMEZONE", "Mars/Base", "PINLEAGUE_DEFAULT_TIMEZONE: .*not an IANA time zone"),
        ("PINLEAGUE_DEFAULT_TIMEZONE", "EST", "PINLEAGUE_DEFAULT_TIMEZONE: .*no daylight saving.*America/New_York"),
        ("PINLEAGUE_LOG_LEVEL", "LOUD", "PINLEAGUE_LOG_LEVEL: .*must be one of"),
        ("PINLEAGUE_DATABASE_URL", "mysql://x", "PINLEAGUE_DATABASE_URL: .*sqlite\\+aiosqlite"),
        ("PINLEAGUE_DEV_GUILD_ID", "abc", "PINLEAGUE_DEV_GUILD_ID"),
    ],
)
def test_bad_values_are_one_clear_error(monkeypatch: pytest.MonkeyPatch, key: str, value: str, message: str) -> None:
    monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError, match=message):
        load_settings()


def test_manual_clock_moves_only_forward() -> None:
    start = datetime(2026, 3, 7, 12, 0, tzinfo=UTC)
    clock = ManualClock(start)
    assert clock.advance(timedelta(hours=26)) == start + timedelta(hours=26)
    with pytest.raises(ValueError, match="forward"):
        clock.advance(timedelta(seconds=-1))
    with pytest.raises(ValueError, match="forward"):
        clock.set(start)
    with pytest.raises(ValueError, match="zone"):
        clock.set(datetime(2027, 1, 1))
