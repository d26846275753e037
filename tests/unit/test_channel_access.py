"""What the bot needs in each league channel: the table behind `/posts channels`, the start-up check and the
README's invite link."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.rules import channel_access as access
from bot.rules.posts import Channel

README = Path(__file__).resolve().parents[2] / "README.md"
EVERYTHING = (1 << 53) - 1


def test_the_readme_invite_link_grants_what_the_table_needs() -> None:
    text = README.read_text(encoding="utf-8")
    [link] = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", text)
    assert "scope=bot+applications.commands" in link
    [integer] = re.findall(r"permissions=(\d+)", link)
    assert int(integer) == access.invite_permissions()
    names = access.invite_names()
    assert f"{', '.join(names[:-1])} and {names[-1]}" in " ".join(text.split())


def test_the_bits_are_discords() -> None:
    expected = discord.Permissions(
        view_channel=True, send_messages=True, embed_links=True, attach_files=True, read_message_history=True
    )
    assert access.invite_permissions() == expected.value


def test_only_the_announcements_need_attach_files() -> None:
    without_files = EVERYTHING & ~access.ATTACH_FILES.bit
    assert access.missing([Channel.ANNOUNCEMENTS], without_files) == [access.ATTACH_FILES]
    assert access.missing([Channel.SCORES, Channel.COMMISSIONERS], without_files) == []
    assert access.missing([Channel.SCORES, Channel.ANNOUNCEMENTS], without_files) == [access.ATTACH_FILES]


def test_what_follows_from_a_missing_permission_is_not_named() -> None:
    assert access.missing([Channel.ANNOUNCEMENTS], 0) == [access.VIEW_CHANNEL]
    view_only = access.VIEW_CHANNEL.bit
    assert access.missing([Channel.ANNOUNCEMENTS], view_only) == [access.SEND_MESSAGES, access.READ_MESSAGE_HISTORY]


def test_the_line_names_the_permission_the_fix_and_what_fails() -> None:
    line = access.missing_line("#announcements", [access.ATTACH_FILES])
    assert line == (
        "#announcements: the bot cannot Attach Files — give it that permission there, or standings and bracket "
        "images won't post"
    )
    both = access.missing_line("#scores", [access.SEND_MESSAGES, access.READ_MESSAGE_HISTORY])
    assert "cannot Send Messages, Read Message History — give it those permissions there, or its posts" in both
