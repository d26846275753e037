"""A local emulator of the Discord API (REST + gateway on loopback) for the real discord.py client."""

from .emulator import Emulator
from .errors import EmulatorError
from .guild import Channel, Guild, Member, Role, User
from .records import Attachment, InteractionResult, Output
from .redirect import point_discord_at

__all__ = [
    "Attachment",
    "Channel",
    "Emulator",
    "EmulatorError",
    "Guild",
    "InteractionResult",
    "Member",
    "Output",
    "Role",
    "User",
    "point_discord_at",
]
