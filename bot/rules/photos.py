"""A photo of the machine's display, sent with a game's scores (as Monday Night Pinball keeps one per game):
what the bot accepts and keeps of it. Discord's file upload takes any file; the bot keeps pictures only."""

from __future__ import annotations

from dataclasses import dataclass

from bot.rules.refusals import InvalidInput

FIELD = "Photo of the display"  # the form field's label, named in every refusal
# What phones and cameras save, and Discord shows inline.
PHOTO_TYPES = ("image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/heif")
URL_LENGTH = 2048
FILENAME_LENGTH = 255
TYPE_LENGTH = 100


@dataclass(frozen=True)
class Photo:
    url: str
    filename: str
    content_type: str


def check_photo(photo: Photo) -> Photo:
    """The photo, if it is a picture the board can link to; else a refusal naming the field, the file and the fix."""
    kind = photo.content_type.split(";", 1)[0].strip().lower()
    if kind not in PHOTO_TYPES:
        said = f"'{photo.filename[:60]}' ({kind or 'no file type'})"
        raise InvalidInput(
            f"{FIELD}: {said} is not a photo. Attach a picture of the machine's display (JPEG, PNG, WebP, GIF or "
            "HEIC), or leave the field empty."
        )
    if not photo.url.startswith(("https://", "http://")) or len(photo.url) > URL_LENGTH:
        raise InvalidInput(f"{FIELD}: the upload of '{photo.filename[:60]}' did not arrive; attach it again.")
    return Photo(photo.url, photo.filename[:FILENAME_LENGTH], kind[:TYPE_LENGTH])


def photo_link(photo: Photo | None) -> str:
    """ "[📷 photo](url)" for a board or an echo, or nothing; what would end the link early (a space, a
    parenthesis) percent-encoded."""
    if photo is None:
        return ""
    url = photo.url.replace(" ", "%20").replace("(", "%28").replace(")", "%29")
    return f"[📷 photo]({url})"
