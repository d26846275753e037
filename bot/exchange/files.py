"""The files the bot hands out (calendars, standings, IFPA results), as `bot.services.exports` and each format's
exports make them and `bot.render.exchange` attaches them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExportFile:
    filename: str
    content: bytes
    items: int  # events or result lines in it


@dataclass(frozen=True)
class StandingsExport:
    files: list[ExportFile]
    waiting: str | None = None  # why no IFPA results file is attached yet
