"""The emulated guild's members and roles, kept in a JSON file beside a kept SQLite database (`--db`).

The league's rows name members by their Discord ids, so a chat reopened on the same database needs the same
members with the same ids. They belong to the emulated server, not to the league, so they live beside the
database rather than in it: no table, no migration, and deleting the database file's siblings resets both.
The guild's ids come from a fixed sequence, so adding the members again in the same order gives them the same
ids; the file records each id and a mismatch is an error rather than a league pointing at the wrong people.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot.local.controls import ChatError
from bot.local.emulator import Emulator


def members_file(db_url: str) -> Path | None:
    """Where the members of a chat on `db_url` are kept: beside a SQLite file; None for other databases."""
    scheme, _, rest = db_url.partition(":///")
    database = Path(rest.partition("?")[0])
    if not scheme.startswith("sqlite") or database.name in ("", ":memory:"):
        return None
    return database.with_name(f"{database.name}.members.json")


def save(emulator: Emulator, path: Path, added: list[str]) -> None:
    """Every member's roles, and in order the members the chat added (`:member add`)."""
    guild = emulator.guild
    members = {
        m.name: {"id": m.id, "roles": [guild.role_by_id(r).name for r in m.role_ids]}
        for m in guild.members
        if not m.user.bot
    }
    path.write_text(json.dumps({"added": added, "members": members}, indent=2), encoding="utf-8")


def restore(emulator: Emulator, path: Path) -> list[str]:
    """Add the kept members again and give everyone their kept roles; the names the chat had added."""
    if not path.exists():
        return []
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        added, members = list(kept["added"]), dict(kept["members"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ChatError(f"cannot read the kept members in {path} ({exc}); fix or delete that file") from None
    for name in added:
        emulator.add_member(name, roles=members[name]["roles"])
    for name, facts in members.items():
        member = emulator.member(name)
        if member.id != facts["id"]:
            raise ChatError(f"{name} came back with another id than the database knows; {path} was edited")
        for role in {r.name for r in emulator.guild.roles if r.id in member.role_ids} - set(facts["roles"]):
            emulator.revoke_role(name, role)
        for role in facts["roles"]:
            emulator.grant_role(name, role)
    return added
