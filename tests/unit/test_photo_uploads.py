"""The photo of the display sent with a game's scores (bot/rules/photos.py), at the edges: a file type with
parameters, long file names in the refusal, plain-http links and the longest link kept."""

from __future__ import annotations

import pytest

from bot.rules.photos import URL_LENGTH, Photo, check_photo
from bot.rules.refusals import InvalidInput

LONG_NAME = "display-" + "x" * 52 + "-tail.heic"  # 70 characters; the refusal shows 60


def refused(photo: Photo) -> str:
    with pytest.raises(InvalidInput) as caught:
        check_photo(photo)
    return caught.value.message


@pytest.mark.parametrize(
    ("content_type", "kept"),
    [("image/jpeg; charset=binary; name=x", "image/jpeg"), (" IMAGE/PNG ", "image/png")],
)
def test_a_picture_is_known_by_its_type_whatever_parameters_follow(content_type: str, kept: str) -> None:
    photo = check_photo(Photo("https://cdn.example/a.jpg", "a.jpg", content_type))
    assert photo.content_type == kept


def test_a_file_that_is_not_a_picture_is_refused_naming_it_cut_to_60_characters() -> None:
    assert refused(Photo("https://cdn.example/f", LONG_NAME, "application/pdf")) == (
        f"Photo of the display: '{LONG_NAME[:60]}' (application/pdf) is not a photo. Attach a picture of the machine's "
        "display (JPEG, PNG, WebP, GIF or HEIC), or leave the field empty."
    )


@pytest.mark.parametrize(
    "url",
    ["http://cdn.example/a.png", "https://cdn.example/" + "a" * (URL_LENGTH - len("https://cdn.example/"))],
)
def test_a_link_by_http_or_of_the_longest_length_is_kept(url: str) -> None:
    assert check_photo(Photo(url, "a.png", "image/png")).url == url


@pytest.mark.parametrize("url", ["ftp://cdn.example/a.png", "https://cdn.example/" + "a" * URL_LENGTH])
def test_an_upload_that_did_not_arrive_is_refused_naming_the_file(url: str) -> None:
    assert refused(Photo(url, LONG_NAME, "image/heic")) == (
        f"Photo of the display: the upload of '{LONG_NAME[:60]}' did not arrive; attach it again."
    )
