"""JSON payloads for guild objects, shaped like Discord's (every key discord.py reads)."""

from __future__ import annotations

from typing import Any

from .guild import APPLICATION_ID, BOT_NAME, Channel, Guild, Member, Role, User
from .ids import iso

JSON = dict[str, Any]

# GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED: both privileged intents enabled.
APPLICATION_FLAGS = (1 << 15) | (1 << 19)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def user_payload(user: User) -> JSON:
    payload: JSON = {
        "id": str(user.id),
        "username": user.username,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": None,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "public_flags": 0,
        "primary_guild": None,
        "collectibles": None,
    }
    if user.bot:
        payload["bot"] = True
    return payload


def current_user_payload(user: User) -> JSON:
    """GET /users/@me and READY's `user`: the bot's own account."""
    return user_payload(user) | {"verified": True, "mfa_enabled": False, "flags": 0, "email": None, "locale": "en-US"}


def member_payload(guild: Guild, member: Member, *, with_user: bool = True, with_permissions: bool = False) -> JSON:
    payload: JSON = {
        "roles": [str(role_id) for role_id in member.role_ids],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": iso(member.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "avatar_decoration_data": None,
    }
    if with_user:
        payload["user"] = user_payload(member.user)
    if with_permissions:
        payload["permissions"] = str(guild.permissions_of(member))
    return payload


def role_payload(role: Role) -> JSON:
    payload: JSON = {
        "id": str(role.id),
        "name": role.name,
        "description": None,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.bot_id is not None,
        "mentionable": False,
        "flags": 0,
    }
    if role.bot_id is not None:
        payload["tags"] = {"bot_id": str(role.bot_id)}
    return payload


def channel_payload(guild: Guild, channel: Channel) -> JSON:
    return {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(guild.id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": [
            {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)} for o in channel.overwrites
        ],
        "topic": channel.topic,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": None,
        "flags": 0,
    }


def channel_payload_for(guild: Guild, channel: Channel, member: Member) -> JSON:
    """The partial channel in interactions and `resolved.channels`: adds the member's permissions."""
    return channel_payload(guild, channel) | {"permissions": str(guild.permissions_in(member, channel))}


def guild_payload(guild: Guild) -> JSON:
    """GET /guilds/{id}: the guild without members and channels."""
    general = guild.channels[0].id if guild.channels else None
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": "en-US",
        "features": [],
        "roles": [role_payload(role) for role in guild.roles],
        "emojis": [],
        "stickers": [],
        "application_id": None,
        "system_channel_id": str(general) if general else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "max_members": 500_000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "widget_enabled": False,
        "incidents_data": None,
    }


def guild_create_payload(guild: Guild, *, all_members: bool) -> JSON:
    """GUILD_CREATE: without the GUILD_MEMBERS intent Discord only sends the bot's own member."""
    members = guild.members if all_members else [guild.bot_member]
    return guild_payload(guild) | {
        "joined_at": iso(guild.bot_member.joined_at),
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members),
        "members": [member_payload(guild, member) for member in members],
        "channels": [channel_payload(guild, channel) for channel in guild.channels],
        "threads": [],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def application_payload(owner: User) -> JSON:
    """GET /oauth2/applications/@me."""
    return {
        "id": str(APPLICATION_ID),
        "name": BOT_NAME,
        "icon": None,
        "description": "Pinball league bot (local emulator)",
        "summary": "",
        "type": None,
        "bot_public": False,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": APPLICATION_FLAGS,
        "owner": user_payload(owner),
        "team": None,
        "hook": True,
        "interactions_endpoint_url": None,
        "redirect_uris": [],
        "tags": [],
        "approximate_guild_count": 1,
        "integration_types_config": {"0": {}},
    }
