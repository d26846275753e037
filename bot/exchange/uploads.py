"""Files that fit Discord's upload limit: sent as they are when small enough, zipped when not.

A request to Discord may carry at most 10 MiB; the reply's text and the form's framing travel with the files,
so a file must leave them room. CSV compresses about tenfold, so a league's whole audit trail fits zipped long
after the plain file stops fitting; one too big even zipped is refused with the options that make it smaller.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePosixPath

from bot.rules.refusals import InvalidInput

UPLOAD_LIMIT = 10 * 1024 * 1024
BODY_ALLOWANCE = 64 * 1024  # the reply's text, embeds and multipart framing


def fitting(filename: str, content: bytes, *, limit: int = UPLOAD_LIMIT, narrow_with: str) -> tuple[str, bytes]:
    """The file as it is if it fits in one request of `limit` bytes, else a .zip holding it; `narrow_with` says
    how to ask for less when even the zip is too big."""
    room = limit - BODY_ALLOWANCE
    if len(content) <= room:
        return filename, content
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        archive.writestr(filename, content)
    zipped = buffer.getvalue()
    if len(zipped) > room:
        raise InvalidInput(
            f"`{filename}` is {_mib(len(zipped))} even zipped, over Discord's {_mib(limit)} upload limit: "
            f"ask for less with {narrow_with}."
        )
    return str(PurePosixPath(filename).with_suffix(".zip")), zipped


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"
