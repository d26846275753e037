"""PNG images for posts: a table, a rank race chart, a trend line, a text panel (the bracket). Pure: data in, PNG out.

Sized for a phone: at least 800 px wide, text at 28 px and up (Pillow's bundled font, scaled). Every image
keeps what it drew (`cells`, `series`, `lines`) so tests can check it against the data the embed shows.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

WIDTH = 1000
MARGIN = 40
TITLE_SIZE = 40
TEXT_SIZE = 30
ROW_HEIGHT = 48
BACKGROUND = (250, 250, 247)
INK = (25, 25, 30)
MUTED = (110, 110, 120)
STRIPE = (233, 237, 245)
PALETTE = [
    (31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189), (140, 86, 75),
    (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207),
]  # fmt: skip


@dataclass(frozen=True)
class Picture:
    png: bytes
    width: int
    height: int
    cells: tuple[tuple[str, ...], ...] = ()  # a table's header and rows, as drawn
    series: tuple[tuple[str, tuple[int, ...]], ...] = ()  # a chart's lines: (label, values)
    lines: tuple[str, ...] = ()  # a text panel's lines


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


@cache
def _has_glyph(char: str) -> bool:
    """Whether the bundled font draws `char` (it lacks accents, dashes and emoji: those come out as boxes)."""
    font = _font(TEXT_SIZE)
    return char.isspace() or bytes(font.getmask(char)) != bytes(font.getmask("\uffff"))


def drawable(text: str) -> str:
    """`text` in characters the font has: accents dropped (é → e), dashes as hyphens, emoji left out."""
    out = []
    for char in text:
        if _has_glyph(char):
            out.append(char)
        elif unicodedata.category(char) == "Pd":
            out.append("-")
        else:
            out.extend(c for c in unicodedata.normalize("NFKD", char) if _has_glyph(c) and not unicodedata.combining(c))
    return "".join(out).strip()


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]], *, widths: Sequence[float]) -> Picture:
    """A striped table; `widths` are the columns' shares of the width (text columns left, others right)."""
    height = MARGIN * 2 + TITLE_SIZE + 20 + ROW_HEIGHT * (len(rows) + 1)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), drawable(title), font=_font(TITLE_SIZE), fill=INK)
    inner = WIDTH - 2 * MARGIN
    edges = [MARGIN + round(inner * sum(widths[:n]) / sum(widths)) for n in range(len(widths) + 1)]
    top = MARGIN + TITLE_SIZE + 20
    font = _font(TEXT_SIZE)
    for index, row in enumerate([header, *rows]):
        y = top + index * ROW_HEIGHT
        if index % 2 == 0 and index:
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW_HEIGHT), fill=STRIPE)
        for column, text in enumerate(row):
            left, right = edges[column] + 8, edges[column + 1] - 8
            text = _fit(draw, text, font, right - left)
            colour = MUTED if index == 0 else INK
            if column == 1 or len(row) == 1:
                draw.text((left, y + 8), text, font=font, fill=colour)
            else:
                draw.text((right, y + 8), text, font=font, fill=colour, anchor="ra")
    cells = tuple(tuple(row) for row in [header, *rows])
    return Picture(_png(image), WIDTH, height, cells=cells)


def rank_race(title: str, weeks: Sequence[int], ranks: Mapping[str, Sequence[int]]) -> Picture:
    """Each team's rank after each week, 1 at the top: who climbed and who fell."""
    teams = list(ranks)
    worst = max([len(teams), *(r for values in ranks.values() for r in values)], default=1)
    legend_rows = (len(teams) + 1) // 2
    plot_top = MARGIN + TITLE_SIZE + 30
    plot_height = max(300, 70 * worst)
    height = plot_top + plot_height + 60 + legend_rows * ROW_HEIGHT + MARGIN
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), drawable(title), font=_font(TITLE_SIZE), fill=INK)
    font = _font(TEXT_SIZE - 4)
    left, right = MARGIN + 70, WIDTH - MARGIN - 20
    bottom = plot_top + plot_height

    def x(index: int) -> float:
        return left + (right - left) * (index / max(1, len(weeks) - 1)) if len(weeks) > 1 else (left + right) / 2

    def y(rank: int) -> float:
        return plot_top + (bottom - plot_top) * ((rank - 1) / max(1, worst - 1)) if worst > 1 else plot_top

    for rank in range(1, worst + 1):
        draw.line((left, y(rank), right, y(rank)), fill=STRIPE, width=2)
        draw.text((left - 20, y(rank)), f"{rank}", font=font, fill=MUTED, anchor="rm")
    for index, week in enumerate(weeks):
        draw.text((x(index), bottom + 28), f"Wk {week}", font=font, fill=MUTED, anchor="mt")
    for number, team in enumerate(teams):
        colour = PALETTE[number % len(PALETTE)]
        points = [(x(i), y(rank)) for i, rank in enumerate(ranks[team])]
        if len(points) > 1:
            draw.line(points, fill=colour, width=6)
        for px, py in points:
            draw.ellipse((px - 8, py - 8, px + 8, py + 8), fill=colour)
        column, row = number % 2, number // 2
        lx = MARGIN + column * (WIDTH - 2 * MARGIN) // 2
        ly = bottom + 70 + row * ROW_HEIGHT
        draw.rectangle((lx, ly + 8, lx + 28, ly + 32), fill=colour)
        draw.text((lx + 40, ly + 4), _fit(draw, team, font, (WIDTH - 2 * MARGIN) // 2 - 50), font=font, fill=INK)
    series = tuple((team, tuple(ranks[team])) for team in teams)
    return Picture(_png(image), WIDTH, height, series=series)


def text_panel(title: str, lines: Sequence[str]) -> Picture:
    """Lines of text under a title (the bracket, round by round); lines starting with '#' are headings."""
    font, heading = _font(TEXT_SIZE), _font(TEXT_SIZE + 4)
    height = MARGIN * 2 + TITLE_SIZE + 20 + ROW_HEIGHT * len(lines)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), drawable(title), font=_font(TITLE_SIZE), fill=INK)
    for index, line in enumerate(lines):
        y = MARGIN + TITLE_SIZE + 20 + index * ROW_HEIGHT
        if line.startswith("#"):
            draw.text((MARGIN, y + 6), drawable(line.lstrip("# ")), font=heading, fill=INK)
        else:
            draw.text((MARGIN + 24, y + 8), _fit(draw, line, font, WIDTH - 2 * MARGIN - 24), font=font, fill=INK)
    return Picture(_png(image), WIDTH, height, lines=tuple(lines))


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont | ImageFont.ImageFont, room: int) -> str:
    """`text` in drawable characters, shortened with an ellipsis until it fits in `room` pixels."""
    text = drawable(text)
    if draw.textlength(text, font=font) <= room:
        return text
    while text and draw.textlength(text + "…", font=font) > room:
        text = text[:-1]
    return text + "…"


def trend(title: str, labels: Sequence[str], values: Sequence[float]) -> Picture:
    """One value over time (a player's rating after each night), its lowest and highest marked on the axis."""
    plot_top = MARGIN + TITLE_SIZE + 30
    plot_height = 360
    bottom = plot_top + plot_height
    height = bottom + 60 + MARGIN
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), drawable(title), font=_font(TITLE_SIZE), fill=INK)
    font = _font(TEXT_SIZE - 4)
    left, right = MARGIN + 90, WIDTH - MARGIN - 20
    low, high = min(values, default=0.0), max(values, default=0.0)
    span = (high - low) or 1.0

    def x(index: int) -> float:
        return left + (right - left) * (index / max(1, len(values) - 1)) if len(values) > 1 else (left + right) / 2

    def y(value: float) -> float:
        return bottom - (bottom - plot_top) * ((value - low) / span)

    for value in (low, high):
        draw.line((left, y(value), right, y(value)), fill=STRIPE, width=2)
        draw.text((left - 16, y(value)), f"{value:.1f}", font=font, fill=MUTED, anchor="rm")
    if labels:  # the first and the last, kept inside the picture
        draw.text((x(0), bottom + 28), drawable(labels[0]), font=font, fill=MUTED, anchor="lt")
        draw.text((x(len(labels) - 1), bottom + 28), drawable(labels[-1]), font=font, fill=MUTED, anchor="rt")
    points = [(x(i), y(value)) for i, value in enumerate(values)]
    if len(points) > 1:
        draw.line(points, fill=PALETTE[0], width=6)
    for px, py in points:
        draw.ellipse((px - 8, py - 8, px + 8, py + 8), fill=PALETTE[0])
    return Picture(_png(image), WIDTH, height, series=((title, tuple(round(value) for value in values)),))
