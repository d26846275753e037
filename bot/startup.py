"""Start-up failures a self-hoster meets, each turned into one line that names the cause and the fix.

`StartupError` carries that line; `bot.cli` prints it and exits non-zero, keeping the traceback for the debug log.
"""

from __future__ import annotations

import errno
import tempfile
from pathlib import Path

import yarl

DEVELOPER_PORTAL = "https://discord.com/developers/applications"
SHARDING_REQUIRED = 4011  # the gateway's close code for a connection that would hold too many guilds


class StartupError(Exception):
    """The bot cannot start; the message is one line: what is wrong and how to fix it."""


def check_folder(path: Path, key: str = "PINLEAGUE_DATA_DIR") -> None:
    """The folder a setting names (the data folder, the backup folder) must be one pinleague can write to; a
    missing one is created."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise StartupError(f"{key}={path}: {_folder_problem(path, exc, key)}") from exc


def _folder_problem(path: Path, exc: OSError, key: str) -> str:
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        blocking = next((p for p in (path, *path.parents) if p.exists() and not p.is_dir()), path)
        return f"{blocking} is a file, not a folder; point {key} at a folder (created if missing)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (
            "this user may not write there (permission denied); give it write access (chown or chmod) "
            f"or point {key} at a folder it owns"
        )
    if exc.errno == errno.EROFS:
        return f"the file system is read-only; point {key} at a writable folder (a mounted volume)"
    return f"{exc.strerror or exc}; point {key} at a folder pinleague may write to"


def discord_failure(exc: BaseException, api_url: str) -> str | None:
    """The line for a failure to log in or connect to Discord, or None for anything else."""
    import aiohttp  # only a bot that has started has these to fail with; the other commands need neither
    import discord

    host = yarl.URL(api_url).host or api_url
    if isinstance(exc, discord.LoginFailure):
        return (
            f"Discord refused the token: copy it again from {DEVELOPER_PORTAL} (Bot tab) into PINLEAGUE_DISCORD_TOKEN"
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return (
            "Discord refused a privileged intent the bot asked for: turn it on under Bot → Privileged Gateway "
            f"Intents at {DEVELOPER_PORTAL}"
        )
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        return (
            f"cannot look up {host} (DNS): check this machine's network and DNS, or PINLEAGUE_DISCORD_API_URL "
            "if you route through a proxy"
        )
    if isinstance(exc, aiohttp.ClientError):
        reason = getattr(exc, "os_error", None) or exc
        return (
            f"cannot reach Discord at {host} ({type(reason).__name__}: {reason}): check this machine's network "
            "and firewall, or PINLEAGUE_DISCORD_API_URL / PINLEAGUE_DISCORD_GATEWAY_URL if you route through a proxy"
        )
    if isinstance(exc, discord.ConnectionClosed) and exc.code == SHARDING_REQUIRED:
        return (
            "Discord requires sharding: the bot is in more guilds than one gateway connection may hold (2,500); set "
            "PINLEAGUE_SHARD_COUNT (README, Shards)"
        )
    if isinstance(exc, discord.GatewayNotFound):
        return "Discord's gateway is not answering (an outage on Discord's side): try again in a few minutes"
    if isinstance(exc, discord.HTTPException):
        return f"Discord answered {exc.status} {exc.text or exc.response.reason}: try again later"
    return None
