from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.settings import SettingsError, load_settings


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    for key in (
        "DISCORD_TOKEN", "DATABASE_URL", "DEFAULT_TIMEZONE", "LOG_LEVEL", "DEV_GUILD_ID", "DATA_DIR", "SHARD_COUNT",
        "SHARD_IDS",
    ):  # fmt: skip
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


POSTGRESQL = "postgresql+asyncpg://league:pw@db/league"
# A guild id's shard is (id >> 22) % shard count: these land on shards 0, 1 and 2 of three.
GUILD_ON_SHARD = {shard: (999 + shard) << 22 | 12345 for shard in range(3)}


@pytest.mark.parametrize(
    ("env", "count", "ids", "served"),
    [
        ({}, None, None, {0, 1, 2}),
        ({"SHARD_COUNT": "3"}, 3, None, {0, 1, 2}),  # one process with every shard: SQLite will do
        ({"SHARD_COUNT": "3", "SHARD_IDS": "2, 0", "DATABASE_URL": POSTGRESQL}, 3, (0, 2), {0, 2}),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1", "DATABASE_URL": POSTGRESQL}, 3, (1,), {1}),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,1"}, 2, (0, 1), {0, 1, 2}),
    ],
)
def test_shard_settings(
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    count: int | None,
    ids: tuple[int, ...] | None,
    served: set[int],
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(f"PINLEAGUE_{key}", value)
    settings = load_settings()
    assert (settings.shard_count, settings.shard_ids, settings.sharded) == (count, ids, count is not None)
    assert {shard for shard, guild_id in GUILD_ON_SHARD.items() if settings.serves_guild(guild_id)} == served


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_COUNT": "0"}, "^Bad setting: PINLEAGUE_SHARD_COUNT: Input should be greater than or equal to 1$"),
        ({"SHARD_COUNT": "two"}, "^Bad setting: PINLEAGUE_SHARD_COUNT: Input should be a valid integer"),
        ({"SHARD_IDS": "0"}, "^Bad setting: PINLEAGUE_SHARD_IDS: .*needs PINLEAGUE_SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "PINLEAGUE_SHARD_IDS: .*'0;1' is not a comma-separated list"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,"}, "PINLEAGUE_SHARD_IDS: .*'0,' is not a comma-separated list"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,2,3"}, r"PINLEAGUE_SHARD_IDS: .*shard 2, 3 is outside 0\.\.1 \(PINLEA"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "-1"}, r"PINLEAGUE_SHARD_IDS: .*shard -1 is outside 0\.\.1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1", "DATABASE_URL": POSTGRESQL}, "SHARD_IDS: .*names a shard twice"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "PINLEAGUE_SHARD_IDS: .*share one PostgreSQL.*PINLEAGUE_DATABASE_URL"),
        ({"SHARD_COUNT": "0", "SHARD_IDS": "0"}, "^Bad setting: PINLEAGUE_SHARD_COUNT: [^;]*$"),  # only the count
    ],
)
def test_bad_shard_settings_stop_the_start(monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str) -> None:
    for key, value in env.items():
        monkeypatch.setenv(f"PINLEAGUE_{key}", value)
    with pytest.raises(SettingsError, match=message):
        load_settings()


def test_an_empty_list_of_shards_is_refused() -> None:
    with pytest.raises(SettingsError, match=r"PINLEAGUE_SHARD_IDS: .*names no shard"):
        load_settings(shard_count=2, shard_ids=())


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
