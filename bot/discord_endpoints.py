"""Where discord.py sends its traffic: Discord itself, a rate-limit proxy, or the local emulator."""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def point_discord_at(api_url: str, gateway_url: str | yarl.URL) -> tuple[str, yarl.URL]:
    """Route discord.py's REST and gateway traffic; returns the previous (api_url, gateway_url).

    Both are class attributes read when a request or connection is made, so call this before
    `client.start()`. Restore with `point_discord_at(*previous)`.
    """
    previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return previous
