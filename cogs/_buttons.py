"""Persistent buttons every format's boards use: a button whose custom id carries the ids it acts on, so it
still answers after a restart (each format's cog registers its own in `cog_load`)."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

_ID_FIELD = re.compile(r"\{(\w+)\}")
BUTTON_LABEL_LENGTH = 80  # Discord's limit
BUTTONS_PER_ROW = 5  # Discord's limit; a message has at most 5 rows
MAX_OPTIONS = 25  # options in a select menu


class IdButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A persistent button whose custom id carries numbers. A subclass gives its `template`, the custom id with
    `{name}` for each number (e.g. "match:sign:{match}"), its `label` and `style`; it is built from those numbers,
    in the template's order, with another label where it needs one (the board's name their game). The base
    itself is never registered: its own template matches nothing."""

    id_format: ClassVar[str]
    id_fields: ClassVar[tuple[str, ...]]
    label: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]

    def __init_subclass__(cls, *, template: str, label: str, style: discord.ButtonStyle) -> None:
        # The literal parts are letters and colons: nothing in them needs escaping.
        super().__init_subclass__(template=_ID_FIELD.sub(lambda field: rf"(?P<{field[1]}>\d+)", template))
        cls.id_format, cls.id_fields = template, tuple(_ID_FIELD.findall(template))
        cls.label, cls.style = label, style

    def __init__(self, *ids: int, disabled: bool = False, label: str | None = None, row: int | None = None) -> None:
        custom_id = self.id_format.format(**dict(zip(self.id_fields, ids, strict=True)))
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=(label or self.label)[:BUTTON_LABEL_LENGTH],
            style=self.style,
            custom_id=custom_id,
            disabled=disabled,
            row=row,
        )
        super().__init__(button)
        self.ids = ids

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(*(int(match[name]) for name in cls.id_fields))
