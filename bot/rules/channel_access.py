"""What the bot needs in each league channel, and what to tell a commissioner when it lacks some. Pure: the
granted permissions (Discord's bit field, as discord.py computes it from roles and overwrites) go in.

The same table gives the invite link's permissions (README, "Running it for real"). The bot never pings roles
or @everyone (its posts allow user mentions only), so it asks for no Mention Everyone permission.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.rules.posts import Channel


@dataclass(frozen=True)
class Need:
    """One Discord permission (its bit), its name as Discord's channel settings show it, and what fails without."""

    bit: int
    name: str
    without: str


VIEW_CHANNEL = Need(1 << 10, "View Channel", "it cannot see the channel at all")
SEND_MESSAGES = Need(1 << 11, "Send Messages", "its posts won't go out")
EMBED_LINKS = Need(1 << 14, "Embed Links", "posts arrive without their tables and cards")
ATTACH_FILES = Need(1 << 15, "Attach Files", "standings and bracket images won't post")
READ_MESSAGE_HISTORY = Need(1 << 16, "Read Message History", "it cannot keep its roll calls and bracket up to date")

# Every post is text with embeds; the announcements also carry the standings and bracket images.
NEEDS: dict[Channel, tuple[Need, ...]] = {
    Channel.ANNOUNCEMENTS: (VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY),
    Channel.SCORES: (VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, READ_MESSAGE_HISTORY),
    Channel.COMMISSIONERS: (VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, READ_MESSAGE_HISTORY),
}


def invite_permissions() -> int:
    """The `permissions=` integer of the invite link: everything any league channel needs."""
    bits = 0
    for needs in NEEDS.values():
        for need in needs:
            bits |= need.bit
    return bits


def invite_names() -> list[str]:
    """The invite's permissions by name, in Discord's bit order."""
    needs = {need.bit: need for needs in NEEDS.values() for need in needs}
    return [needs[bit].name for bit in sorted(needs)]


def invite_link(application_id: int) -> str:
    """The link that adds the bot to a server with what its league channels need, and what that is."""
    url = (
        f"https://discord.com/oauth2/authorize?client_id={application_id}&scope=bot+applications.commands"
        f"&permissions={invite_permissions()}"
    )
    return f"{url} ({', '.join(invite_names())})"


def missing(purposes: Iterable[Channel], granted: int) -> list[Need]:
    """What the bot lacks in a channel serving these purposes (a channel may serve several), in bit order.

    Discord denies everything in a channel one cannot see, and embeds and files where one cannot send: those
    follow from the permission they depend on, so only that one is named (granting it may be the whole fix)."""
    if not granted & VIEW_CHANNEL.bit:
        return [VIEW_CHANNEL]
    wanted = {need.bit: need for purpose in purposes for need in NEEDS[purpose]}
    if not granted & SEND_MESSAGES.bit:
        granted |= EMBED_LINKS.bit | ATTACH_FILES.bit
    return [wanted[bit] for bit in sorted(wanted) if not granted & bit]


def missing_line(channel: str, lacking: list[Need]) -> str:
    """One line for a commissioner: `channel` as it should show (a mention or #name)."""
    names = ", ".join(need.name for need in lacking)
    them = "that permission" if len(lacking) == 1 else "those permissions"
    effects = "; ".join(dict.fromkeys(need.without for need in lacking))
    return f"{channel}: the bot cannot {names} — give it {them} there, or {effects}"


def unknown_line(channel: str) -> str:
    return f"{channel}: the bot cannot find this channel (deleted?) — name another one with `/posts channels`"
