"""Post images (bot/render/images.py): real PNGs, phone-sized, whose pixels follow the data drawn."""

from __future__ import annotations

import io

from PIL import Image

from bot.render import images

HEADER = ("#", "Team", "W-L", "Pct", "MP", "Tie")
WIDTHS = (0.8, 4.2, 1.3, 1.4, 1.0, 1.3)


def _image(picture: images.Picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.png))
    assert image.format == "PNG" and image.size == (picture.width, picture.height)
    return image


def test_a_table_is_a_phone_sized_png_of_exactly_its_cells() -> None:
    rows = [("1", "Flipper Kings", "3-0", "1.000", "40", ""), ("2", "Ball Busters", "0-3", ".000", "8", "")]
    picture = images.table("East · after week 3", HEADER, rows, widths=WIDTHS)
    image = _image(picture)
    assert image.width >= 800 and picture.cells == (HEADER, *rows)
    other = images.table("East · after week 3", HEADER, [rows[1], rows[0]], widths=WIDTHS)
    assert other.png != picture.png and other.height == picture.height  # same size, different pixels


def test_the_rank_race_draws_one_line_per_team() -> None:
    ranks = {"Flipper Kings": [2, 1, 1], "Ball Busters": [1, 2, 2]}
    picture = images.rank_race("East · rank by week", [1, 2, 3], ranks)
    image = _image(picture)
    assert image.width >= 800 and picture.series == (("Flipper Kings", (2, 1, 1)), ("Ball Busters", (1, 2, 2)))
    swapped = images.rank_race(
        "East · rank by week", [1, 2, 3], {"Flipper Kings": [1, 1, 1], "Ball Busters": [2, 2, 2]}
    )
    assert swapped.png != picture.png
    colours = {colour for _, colour in image.getcolors(maxcolors=100_000) or []}
    assert images.PALETTE[0] in colours and images.PALETTE[1] in colours


def test_text_the_font_cannot_draw_is_spelled_with_what_it_can() -> None:
    """Pillow's bundled font has no accents, dashes or emoji: they would come out as empty boxes."""
    assert images.drawable("🏆 Champion: Café Tilt — 12–4") == "Champion: Cafe Tilt - 12-4"
    assert images.drawable("Flipper Kings · 1.000") == "Flipper Kings · 1.000"
