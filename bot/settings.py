"""Runtime settings, read once at start from the environment and `.env`.

Built in `bot.cli` and passed down; nothing reads settings at import time.
"""

from __future__ import annotations

from datetime import time
from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.rules.refusals import Refusal
from bot.rules.zones import region_zone

DISCORD_API_URL = "https://discord.com/api/v10"
DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(Exception):
    """A setting has a value the bot cannot start with; the message names the key and the fix."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="PINLEAGUE_", env_file=".env", env_file_encoding="utf-8", env_ignore_empty=True, extra="ignore"
    )

    discord_token: SecretStr | None = Field(default=None, description="Bot token from the Discord developer portal")
    data_dir: Path = Field(default=Path("data"), description="Where the SQLite database and backups live")
    database_url: str | None = Field(default=None, description="SQLAlchemy async URL; default SQLite in data_dir")
    shard_count: int | None = Field(default=None, ge=1, description="Discord shards over all processes")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, description="The shards this process connects, comma-separated; default all of them"
    )
    default_timezone: str = Field(default="America/New_York", description="Region zone (Area/City) for new leagues")
    log_level: str = "INFO"
    discord_api_url: str = DISCORD_API_URL
    discord_gateway_url: str = DISCORD_GATEWAY_URL
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this guild only (instant)")
    metrics_port: int | None = Field(default=None, ge=0, le=65535, description="Serve /metrics and /healthz here")
    metrics_host: str = Field(default="127.0.0.1", description="Address the metrics port listens on")
    backup_time: time | None = Field(default=None, description="Daily SQLite backup at this UTC time; None = none")
    backup_dir: Path | None = Field(default=None, description="Where daily backups go; default data_dir/backups")
    backup_keep: int = Field(default=7, ge=1, le=3650, description="How many daily backups are kept")

    @field_validator("backup_time", mode="before")
    @classmethod
    def _time_of_day(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        try:
            hours, minutes = (int(part) for part in value.strip().split(":"))
            return time(hours, minutes)
        except ValueError:
            raise ValueError(f"must be a time of day in UTC like 03:30, not {value.strip()!r}") from None

    @field_validator("default_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            return region_zone(value, option="default_timezone")
        except Refusal as refusal:
            raise ValueError(refusal.message) from None

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.upper() not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}")
        return value.upper()

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, value: str | None) -> str | None:
        if value is None or value.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
            return value
        raise ValueError("must start with sqlite+aiosqlite:// or postgresql+asyncpg://")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if not isinstance(value, str):
            return value
        try:
            return tuple(int(part) for part in value.split(","))
        except ValueError:
            raise ValueError(f"{value!r} is not a comma-separated list of shard numbers, e.g. 0,1") from None

    @field_validator("shard_ids")
    @classmethod
    def _within_count(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        if value is None:
            return None
        if "shard_count" not in info.data:
            return value  # the count itself is wrong, and says so
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("needs PINLEAGUE_SHARD_COUNT, the number of shards over all processes")
        if not value:
            raise ValueError("names no shard; list this process's shards, e.g. 0,1, or leave it empty for all")
        outside = sorted({shard for shard in value if not 0 <= shard < count})
        if outside:
            shown = ", ".join(map(str, outside))
            raise ValueError(f"shard {shown} is outside 0..{count - 1} (PINLEAGUE_SHARD_COUNT={count})")
        if len(set(value)) != len(value):
            raise ValueError("names a shard twice; list each of this process's shards once")
        on_postgresql = str(info.data.get("database_url", "postgresql+asyncpg://")).startswith("postgresql+asyncpg://")
        if set(value) != set(range(count)) and not on_postgresql:
            # The other shards' processes must see the same leagues and the same claims.
            raise ValueError(
                "the other shards run in other processes, which must share one PostgreSQL database: set "
                "PINLEAGUE_DATABASE_URL=postgresql+asyncpg://…"
            )
        return tuple(sorted(value))

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    def serves_guild(self, guild_id: int) -> bool:
        """Whether this process connects the shard of `guild_id`: Discord's rule, (guild_id >> 22) % shard count."""
        if self.shard_count is None:
            return True
        shard = (guild_id >> 22) % self.shard_count
        return self.shard_ids is None or shard in self.shard_ids

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{self.data_dir / 'pinleague.db'}"

    @property
    def resolved_backup_dir(self) -> Path:
        return self.backup_dir or self.data_dir / "backups"

    @property
    def token(self) -> str | None:
        return self.discord_token.get_secret_value() if self.discord_token else None


def load_settings(**overrides: object) -> Settings:
    """Read settings; turn pydantic's error into one readable start-up message."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(
            f"PINLEAGUE_{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in exc.errors()
        )
        raise SettingsError(f"Bad setting: {problems}") from None
