"""`pinleague export|import|import-csv|backup|restore`: the league file, spreadsheets and backups from a shell.

Run next to the bot or with it stopped (restore: stopped). Every command migrates the database first, like
the bot does at start. Exit status: 0 done, 1 the file had problems (all printed), 2 the command could not run.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

from sqlmodel import select

from bot.backup import BackupError, backup, restore
from bot.clock import SystemClock
from bot.exchange.league_file import export_by_name, read_files, write_files
from bot.exchange.league_import import import_league
from bot.exchange.problems import ImportReport
from bot.rules.refusals import Refusal
from bot.services.actor import Actor
from bot.services.spreadsheets import KINDS, SpreadsheetService
from bot.settings import Settings
from storage.db import Database
from storage.migrate import upgrade
from storage.models import League

COMMANDS = ("export", "import", "import-csv", "backup", "restore")
DRY_RUN = "check every row and list every problem with its file and line; write nothing"


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = sub.add_parser("export", help="write a league file (a directory, or a .zip)")
    export.add_argument("target", type=Path, help="directory to write, or a path ending in .zip")
    _league_options(export)
    imported = sub.add_parser("import", help="import a league file into this database, all or nothing")
    imported.add_argument("source", type=Path, help="a league file: its directory or its .zip")
    imported.add_argument("--guild", type=int, help="the Discord server id to import it into (default: the file's)")
    imported.add_argument(
        "--dry-run", action="store_true", help="check everything and list every problem; write nothing"
    )
    csv_import = sub.add_parser("import-csv", help="import rosters or machines from a spreadsheet saved as CSV")
    csv_import.add_argument("kind", choices=KINDS)
    csv_import.add_argument("source", type=Path, help="the CSV file (columns: see docs/league-file.md)")
    csv_import.add_argument(
        "--dry-run", action="store_true", help="check every row and list every problem; write nothing"
    )
    _league_options(csv_import)
    backed = sub.add_parser("backup", help="online backup of the SQLite database (PostgreSQL: use pg_dump)")
    backed.add_argument("target", type=Path, help="the backup file to write")
    restored = sub.add_parser("restore", help="replace the SQLite database with a backup (stop the bot first)")
    restored.add_argument("source", type=Path, help="a backup made with `pinleague backup`")


def _league_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--guild", type=int, help="the Discord server id (default: the only server with a league)")
    parser.add_argument("--league", help="the league's name (needed when the server runs several)")


async def run(args: argparse.Namespace, settings: Settings) -> int:
    db = Database(settings.resolved_database_url)
    try:
        await upgrade(db)
        return await _run(args, db)
    except (Refusal, BackupError) as exc:
        print(f"⛔ {exc}", file=sys.stderr)
        return 2
    except (OSError, zipfile.BadZipFile) as exc:  # a path that is not there, not readable, not a zip
        print(f"⛔ {exc}", file=sys.stderr)
        return 2
    finally:
        await db.dispose()


async def _run(args: argparse.Namespace, db: Database) -> int:
    if args.command == "backup":
        print((await backup(db, args.target)).summary())
        return 0
    if args.command == "restore":
        print((await restore(db, args.source)).summary())
        return 0
    if args.command == "import":
        report = await import_league(db, read_files(args.source), guild_id=args.guild, dry_run=args.dry_run)
        return _print(report)
    guild = args.guild if args.guild is not None else await _only_guild(db)
    if args.command == "export":
        files = await export_by_name(db, guild, args.league)
        write_files(files, args.target)
        print(f"wrote {len(files)} files to {args.target}")
        return 0
    actor = Actor(guild_id=guild, user_id=0, display_name="pinleague CLI", role_ids=frozenset(), is_admin=True,
                  command="pinleague import-csv")  # fmt: skip
    service = SpreadsheetService(db, SystemClock())
    report = await service.import_csv(
        actor, args.league, kind=args.kind, content=args.source.read_bytes(), file=args.source.name,
        dry_run=args.dry_run,
    )  # fmt: skip
    return _print(report)


async def _only_guild(db: Database) -> int:
    async with db.reading() as session:
        guilds = sorted(set((await session.exec(select(League.guild_id))).all()))
    if len(guilds) != 1:
        found = ", ".join(map(str, guilds)) or "none"
        raise BackupError(f"give --guild: the database holds leagues of {len(guilds)} servers ({found})")
    return guilds[0]


def _print(report: ImportReport) -> int:
    print(report.summary())
    return 0 if report.ok else 1
