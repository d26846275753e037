"""Photos of machine displays in the league file, on SQLite and PostgreSQL: a ladder night whose games were
entered from the group board with a photo exports `ladder_game_photo.csv` (the attachment's URL, filename and
content type, the group by its id in the file), imports into an empty database and exports again to the same
bytes; a file from before photos (without the table) still imports, as every older file does."""

from __future__ import annotations

import json
from pathlib import Path

from bot.clock import ManualClock
from bot.exchange.league_file import MANIFEST, export_by_name
from bot.exchange.league_import import import_league
from bot.local.emulator import Attachment
from storage.db import Database
from tests.e2e.harness import running_bot
from tests.e2e.phones import score_fields
from tests.e2e.test_phone_night_groups import LADDER_PLAYERS, MACHINES, NIGHT, board_of, button, ok
from tests.exchange.test_format_files import _round_trip
from tests.exchange.test_league_file import OTHER_GUILD

LADDER_TABLES = {"ladder_group", "ladder_score", "ladder_game_photo"}


async def test_a_ladder_nights_photos_round_trip(db: Database, empty_target: Database, tmp_path: Path) -> None:
    """LADDER-SCORE-1: the photo sent with a group's game is a fact of the league, kept by the league file."""
    async with running_bot(db) as league:
        clock = league.bot.clock
        assert isinstance(clock, ManualClock)
        clock.set(NIGHT)
        league.emulator.quiet_window = 0.001
        await ok(league, '/league create name:"Jersey Ladder" format:ladder commissioner_role:@Commissioner', "owner")
        await ok(league, '/venue add name:"The Break"')
        for machine in MACHINES:
            await ok(league, f'/machine add venue:"The Break" model:"{machine}"')
            await ok(league, f'/ladder normalizer machine:"{machine}" value:20,000,000')
        await ok(league, "/ladder option name:games_per_match value:3")
        for number, name in enumerate(LADDER_PLAYERS):
            league.emulator.add_member(name)
            await ok(league, f"/ladder join skill:{9 - number}", name)
        await ok(league, "/ladder night open")
        for player in LADDER_PLAYERS:
            await ok(league, "/ladder checkin", player)
        await ok(league, f'/ladder games set group:1 games:"{", ".join(MACHINES)}"')
        board = await board_of(league, "Week 1 · group 1")
        form = await league.emulator.click(board, button(board, "Enter Game 1"), as_member="Cat")
        scores = {c["component"]["custom_id"]: f"{n},000" for n, c in enumerate(score_fields(form.modal), start=1)}
        photo = Attachment("afm.jpg", "image/jpeg", b"\xff\xd8\xff\0")
        entered = await league.emulator.submit_modal(form, scores | {"photo": photo}, as_member="Cat")
        assert "📷 photo" in entered.content

        files = await _round_trip(league, empty_target, LADDER_TABLES, tmp_path)
        header, row = files["ladder_game_photo.csv"].decode().splitlines()
        assert header == "id,group_id,slot,url,filename,content_type,uploaded_by,uploaded_at"
        assert row.startswith("1,1,0,http") and ",afm.jpg,image/jpeg," in row
        assert b",ladder_game_photo," in files["audit_entry.csv"]

        # A file written before photos has no such table: it imports as it always did.
        older = {name: data for name, data in files.items() if name != "ladder_game_photo.csv"}
        older["audit_entry.csv"] = b"\n".join(
            line for line in files["audit_entry.csv"].split(b"\n") if b",ladder_game_photo," not in line
        )
        manifest = json.loads(files[MANIFEST])
        manifest["sections"] = {
            section: [name for name in names if name != "ladder_game_photo.csv"]
            for section, names in manifest["sections"].items()
        }
        older[MANIFEST] = json.dumps(manifest).encode()
        report = await import_league(league.db, older, guild_id=OTHER_GUILD + 1, dry_run=True)
        assert report.ok, report.summary()
        exported = await export_by_name(league.db, league.emulator.guild.id, None)
        assert exported["ladder_game_photo.csv"] == files["ladder_game_photo.csv"]
