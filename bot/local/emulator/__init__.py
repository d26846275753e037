"""A local emulator of the Discord API (REST + gateway on loopback) for the real discord.py client.

emu = Emulator()                      # guild "Pinball Club": owner, alice, bob, carol, dan, erin
await emu.start()
point_discord_at(emu.api_url, emu.gateway_url)
task = asyncio.create_task(bot.start(emu.token))
await emu.wait_until_ready()
result = await emu.run('/league create name:"Tuesday Night"', as_member="alice")
result.content, result.ephemeral, result.outputs
"""

from bot.discord_endpoints import point_discord_at

from .emulator import Emulator
from .errors import EmulatorError
from .guild import Channel, Guild, Member, Role, User
from .records import Attachment, InteractionResult, Output

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
