"""The emulated guild: plain dataclasses, name lookups and permission arithmetic."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from .errors import EmulatorError
from .ids import SnowflakeFactory

# The bot's user and application share one fixed id, as they do for applications created today.
APPLICATION_ID = 1146957594624131072
BOT_NAME = "PinLeague"
# Guild objects carry this creation time in their ids, so they are the same on every run.
GUILD_CREATED_AT = datetime(2024, 3, 1, 19, 0, tzinfo=UTC)


class Permission:
    CREATE_INSTANT_INVITE = 1 << 0
    ADMINISTRATOR = 1 << 3
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    USE_APPLICATION_COMMANDS = 1 << 31
    CREATE_PUBLIC_THREADS = 1 << 35
    SEND_MESSAGES_IN_THREADS = 1 << 38
    # What Discord reports for administrators and owners: every bit it can represent.
    ALL = (1 << 53) - 1


EVERYONE_PERMISSIONS = (
    Permission.CREATE_INSTANT_INVITE
    | Permission.ADD_REACTIONS
    | Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.CONNECT
    | Permission.SPEAK
    | Permission.CHANGE_NICKNAME
    | Permission.USE_APPLICATION_COMMANDS
)
# What a typical invite link grants a league bot on top of @everyone.
BOT_PERMISSIONS = (
    EVERYONE_PERMISSIONS
    | Permission.MANAGE_MESSAGES
    | Permission.CREATE_PUBLIC_THREADS
    | Permission.SEND_MESSAGES_IN_THREADS
)


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0
    bot_id: int | None = None  # set for the role Discord creates and manages for a bot

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass
class Member:
    user: User
    role_ids: list[int]
    joined_at: datetime
    nick: str | None = None

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    @property
    def display_name(self) -> str:
        return self.nick or self.user.global_name or self.user.username

    @property
    def mention(self) -> str:
        return self.user.mention


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (type 0) or a member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0


@dataclass
class Channel:
    id: int
    name: str
    position: int
    type: int = 0  # GUILD_TEXT
    topic: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)

    @property
    def mention(self) -> str:
        return f"#{self.name}"


Named = TypeVar("Named", Member, Role, Channel)
_MENTION = re.compile(r"<(?:@!?|@&|#)(\d+)>")


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    new_id: SnowflakeFactory = field(repr=False)  # the factory that made `id`, so new ids never collide
    roles: list[Role] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)

    @property
    def everyone(self) -> Role:
        return self.role_by_id(self.id)

    @property
    def owner(self) -> Member:
        return next(m for m in self.members if m.id == self.owner_id)

    @property
    def bot_member(self) -> Member:
        return next(m for m in self.members if m.user.bot)

    def member(self, text: str) -> Member:
        """A member by username, display name, '@name', '<@id>' or id (case-insensitive)."""
        return _lookup(self.members, text, "member", lambda m: (m.name, m.display_name))

    def role(self, text: str) -> Role:
        return _lookup(self.roles, text, "role", lambda r: (r.name,))

    def channel(self, text: str) -> Channel:
        return _lookup(self.channels, text, "channel", lambda c: (c.name,))

    def member_by_id(self, member_id: int) -> Member | None:
        return next((m for m in self.members if m.id == member_id), None)

    def role_by_id(self, role_id: int) -> Role:
        return next(r for r in self.roles if r.id == role_id)

    def channel_by_id(self, channel_id: int) -> Channel | None:
        return next((c for c in self.channels if c.id == channel_id), None)

    def permissions_of(self, member: Member) -> int:
        """Guild-level permissions as Discord computes them."""
        if member.id == self.owner_id:
            return Permission.ALL
        granted = self.everyone.permissions
        for role_id in member.role_ids:
            granted |= self.role_by_id(role_id).permissions
        return Permission.ALL if granted & Permission.ADMINISTRATOR else granted

    def permissions_in(self, member: Member, channel: Channel) -> int:
        """Permissions in the channel, in Discord's order: the @everyone overwrite, then the member's roles'
        overwrites together (denies, then allows), then the member's own; administrators keep everything."""
        granted = self.permissions_of(member)
        if granted == Permission.ALL:
            return granted
        overwrites = {(o.type, o.id): o for o in channel.overwrites}
        if everyone := overwrites.get((0, self.id)):
            granted = (granted & ~everyone.deny) | everyone.allow
        roles = [o for o in (overwrites.get((0, role_id)) for role_id in member.role_ids) if o]
        denied, allowed = 0, 0
        for overwrite in roles:
            denied, allowed = denied | overwrite.deny, allowed | overwrite.allow
        granted = (granted & ~denied) | allowed
        if own := overwrites.get((1, member.id)):
            granted = (granted & ~own.deny) | own.allow
        return granted

    def set_overwrite(self, channel: Channel, target: Role | Member, *, allow: int = 0, deny: int = 0) -> None:
        """Replace the channel's overwrite for a role or a member (allow = deny = 0 removes it)."""
        kind = 1 if isinstance(target, Member) else 0
        channel.overwrites = [o for o in channel.overwrites if (o.type, o.id) != (kind, target.id)]
        if allow or deny:
            channel.overwrites.append(Overwrite(target.id, kind, allow, deny))

    def add_role(self, name: str, permissions: int = 0, bot_id: int | None = None) -> Role:
        if any(r.name.casefold() == name.casefold() for r in self.roles):
            raise EmulatorError(f"role {name!r} already exists")
        position = max((r.position for r in self.roles), default=0) + 1
        role = Role(self.new_id(), name, permissions, position, bot_id)
        self.roles.append(role)
        return role

    def add_member(self, username: str, roles: Iterable[str] = (), *, bot: bool = False) -> Member:
        if any(m.name.casefold() == username.casefold() for m in self.members):
            raise EmulatorError(f"member {username!r} already exists")
        user_id = APPLICATION_ID if bot else self.new_id()
        # Like most accounts, members have a display name besides their username: "alice" shows as "Alice".
        user = User(user_id, username, None if bot else username.capitalize(), bot=bot)
        joined_at = GUILD_CREATED_AT + timedelta(hours=len(self.members))
        member = Member(user, [self.role(name).id for name in roles], joined_at)
        self.members.append(member)
        return member

    def add_channel(self, name: str, topic: str | None = None) -> Channel:
        channel = Channel(self.new_id(), name, position=len(self.channels), topic=topic)
        self.channels.append(channel)
        return channel


def build_guild(name: str, seed: int = 2, created_at: datetime = GUILD_CREATED_AT) -> Guild:
    """The default emulated guild: a pinball league's server with a few members and channels.

    Its ids are the same on every run; another `seed` (0–31) gives another guild with ids of its own. The ids
    carry `created_at`, whose milliseconds decide the guild's shard: (id >> 22) % shard count."""
    ids = SnowflakeFactory(seed, created_at)
    guild_id = ids()
    owner = User(ids(), "owner", "Owner")
    guild = Guild(guild_id, name, owner.id, ids)
    guild.roles.append(Role(guild_id, "@everyone", EVERYONE_PERMISSIONS, position=0))
    guild.add_role("Captain")
    guild.add_role("Commissioner")
    guild.add_role("Admin", Permission.ADMINISTRATOR)
    guild.add_role(BOT_NAME, BOT_PERMISSIONS, bot_id=APPLICATION_ID)
    guild.members.append(Member(owner, [guild.role("Admin").id], GUILD_CREATED_AT))
    guild.add_member(BOT_NAME, [BOT_NAME], bot=True)
    guild.add_member("alice", ["Commissioner"])
    guild.add_member("bob", ["Captain"])
    for username in ("carol", "dan", "erin"):
        guild.add_member(username)
    guild.add_channel("general", "League chat")
    guild.add_channel("scores", "Scores and results")
    guild.add_channel("announcements", "Schedules and standings")
    guild.add_channel("commissioners", "For league commissioners")
    return guild


def _lookup(items: Sequence[Named], text: str, kind: str, names: Callable[[Named], tuple[str, ...]]) -> Named:
    wanted = text.strip()
    mention = _MENTION.fullmatch(wanted)
    if mention or wanted.isdigit():
        wanted_id = int(mention.group(1) if mention else wanted)
        found = next((item for item in items if item.id == wanted_id), None)
    else:
        key = _name_key(wanted)
        found = next((item for item in items if key in map(_name_key, names(item))), None)
    if found is None:
        known = ", ".join(names(item)[0] for item in items)
        raise EmulatorError(f"no {kind} {text!r} in the guild (known: {known})")
    return found


def _name_key(name: str) -> str:
    return name.lstrip("@#").casefold()
