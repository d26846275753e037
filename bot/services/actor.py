"""Who is acting: the plain facts a service needs about the member behind a command."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    guild_id: int
    user_id: int
    display_name: str
    role_ids: frozenset[int]
    is_admin: bool  # guild owner, Administrator or Manage Server
    command: str  # e.g. "/venue add", recorded in the audit log
