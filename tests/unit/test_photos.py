"""What a game's photo of the display may be (bot/rules/photos.py): a picture, named in every refusal by the
form's field and the file, with the fix."""

from __future__ import annotations

import pytest

from bot.rules.photos import Photo, check_photo, photo_link
from bot.rules.refusals import InvalidInput

URL = "https://cdn.discordapp.com/ephemeral-attachments/1/2/display.jpg?ex=1&is=2&hm=3&"


@pytest.mark.parametrize(
    ("content_type", "kept"),
    [
        ("image/jpeg", "image/jpeg"),
        ("image/PNG", "image/png"),
        ("image/heic", "image/heic"),
        ("image/webp; charset=binary", "image/webp"),
    ],
)
def test_pictures_are_kept_with_their_type(content_type: str, kept: str) -> None:
    assert check_photo(Photo(URL, "display.jpg", content_type)) == Photo(URL, "display.jpg", kept)


@pytest.mark.parametrize(
    ("photo", "said"),
    [
        (Photo(URL, "notes.txt", "text/plain"), "Photo of the display: 'notes.txt' (text/plain) is not a photo"),
        (Photo(URL, "clip.mp4", "video/mp4"), "'clip.mp4' (video/mp4) is not a photo"),
        (Photo(URL, "scan", ""), "'scan' (no file type) is not a photo"),
        (Photo("ftp://example.org/a.jpg", "a.jpg", "image/jpeg"), "the upload of 'a.jpg' did not arrive"),
        (Photo("https://x/" + "a" * 2048, "a.jpg", "image/jpeg"), "the upload of 'a.jpg' did not arrive"),
    ],
)
def test_anything_else_is_refused_naming_the_field_and_the_fix(photo: Photo, said: str) -> None:
    with pytest.raises(InvalidInput, match="Photo of the display") as refused:
        check_photo(photo)
    assert said in refused.value.message


def test_a_link_cannot_be_ended_early_by_the_filename() -> None:
    assert photo_link(None) == ""
    link = photo_link(Photo("https://cdn/1/IMG (2) copy.jpg", "IMG (2) copy.jpg", "image/jpeg"))
    assert link == "[📷 photo](https://cdn/1/IMG%20%282%29%20copy.jpg)"
