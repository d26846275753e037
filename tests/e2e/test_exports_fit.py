"""Exports that fit Discord's upload limit (issue 17 item 5): `/admin audit export:True` grows about 41 KB per
match, past 10 MiB after some 250 matches. A 300-match league's trail arrives zipped, whole, under the limit
that the emulator enforces (413 beyond it), and a trail too big even zipped is refused with the filters that
make it smaller."""

from __future__ import annotations

import csv
import io
import json
import random
import zipfile
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert
from sqlmodel import select

from bot.exchange.uploads import UPLOAD_LIMIT, fitting
from bot.rules.refusals import InvalidInput
from storage.db import Database
from storage.models import AuditEntry, League
from tests.e2e.harness import RunningBot, running_bot

MATCHES = 300
ENTRIES_PER_MATCH = 24  # check-ins, lineups, scores, confirmations, signatures
SNAPSHOT = {f"field_{n}": "x" * 40 for n in range(18)}  # ~850 bytes of JSON before and after: ~41 KB a match


async def seed_audit_trail(league: RunningBot) -> int:
    """A season of 300 matches' audit entries, written straight to storage (the commands would take minutes)."""
    await league.run("/league create name:Big format:team timezone:America/New_York", as_member="owner")
    async with league.db.writing() as session:
        league_id = (await session.exec(select(League.id))).one()
        start = datetime(2027, 1, 1, tzinfo=UTC)
        rows = [
            {
                "guild_id": league.emulator.guild.id,
                "league_id": league_id,
                "actor_id": league.emulator.member("alice").id,
                "command": "/score",
                "action": "update",
                "entity": "game_score",
                "entity_id": match * ENTRIES_PER_MATCH + n,
                "before": SNAPSHOT,
                "after": SNAPSHOT | {"field_0": f"match {match} entry {n}"},
                "at": start + timedelta(minutes=match * ENTRIES_PER_MATCH + n),
            }
            for match in range(MATCHES)
            for n in range(ENTRIES_PER_MATCH)
        ]
        await session.exec(insert(AuditEntry), params=rows)  # type: ignore[call-overload]
    return len(rows)


async def test_a_300_match_audit_export_arrives_zipped_under_the_upload_limit(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db) as league:
        seeded = await seed_audit_trail(league)
        exported = await league.run("/admin audit export:True", as_member="owner")

        [attachment] = [a for output in exported.outputs for a in output.attachments]
        assert attachment.filename == "audit-big.zip", exported.text()
        assert attachment.size < UPLOAD_LIMIT
        with zipfile.ZipFile(io.BytesIO(attachment.data)) as archive:
            [name] = archive.namelist()
            plain = archive.read(name)
        assert name == "audit-big.csv"
        assert len(plain) > UPLOAD_LIMIT, "the plain CSV would not have fitted: the zip is what made it fit"
        rows = list(csv.DictReader(io.StringIO(plain.decode())))
        entries = await league.audit()
        assert len(rows) == len(entries) >= seeded, "every entry is in the export"
        newest = json.loads(rows[0]["after"])["field_0"]
        assert newest == f"match {MATCHES - 1} entry {ENTRIES_PER_MATCH - 1}"


def test_a_file_that_fits_is_sent_as_it_is_and_one_too_big_even_zipped_is_refused() -> None:
    assert fitting("audit.csv", b"id,at\n1,today\n", narrow_with="`since:`") == ("audit.csv", b"id,at\n1,today\n")
    incompressible = random.Random(17).randbytes(256 * 1024)  # zip cannot shrink it
    with pytest.raises(InvalidInput) as refused:
        fitting("audit.csv", incompressible, limit=128 * 1024, narrow_with="`since:` or `until:`")
    assert "even zipped, over Discord's 0.1 MiB upload limit: ask for less with `since:` or `until:`" in str(
        refused.value
    )
