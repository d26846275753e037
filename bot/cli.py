"""The `pinleague` command: run the bot, chat with it locally, manage the database."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.settings import Settings, SettingsError, load_settings
from bot.startup import StartupError, check_folder, discord_failure

log = logging.getLogger("bot.cli")

NO_TOKEN_HELP = """\
No Discord token is configured, so pinleague starts its local Discord emulator instead, with a demo
league, and you can type commands as members of an emulated server. Type :help for the chat's own
commands.

To connect a real Discord bot:
  1. Create an application at https://discord.com/developers/applications, add a Bot, copy its token.
  2. Invite it with the scopes `bot` and `applications.commands`.
  3. Put PINLEAGUE_DISCORD_TOKEN=<token> in a .env file here (see .env.example), then run this again.
"""


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    _setup_logging(settings, quiet=args.command == "local" or (args.command in (None, "run") and not settings.token))
    try:
        return asyncio.run(_dispatch(args, settings))
    except KeyboardInterrupt:
        return 130
    except StartupError as exc:
        log.debug("start-up failed", exc_info=True)
        print(f"pinleague cannot start: {exc}", file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pinleague", description="A Discord bot that runs pinball leagues.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot (default); without a token, the local chat on a demo league")
    local = sub.add_parser("local", help="chat with the bot through the local Discord emulator")
    local.add_argument("--script", type=Path, help="run the lines of FILE instead of reading the terminal")
    local.add_argument("--json", action="store_true", help="print one JSON object per bot output")
    local.add_argument("--demo", action="store_true", help="start with a demo league already set up")
    local.add_argument("--db", help="database URL to keep (default: a fresh temporary SQLite file)")
    local.add_argument("--attachments", type=Path, metavar="DIR", help="save the files the bot sends into DIR")
    db = sub.add_parser("db", help="database maintenance")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    db_sub.add_parser("upgrade", help="apply migrations up to the newest")
    db_sub.add_parser("current", help="print the database's migration revision")
    revision = db_sub.add_parser("revision", help="(developers) write a migration from model changes")
    revision.add_argument("-m", "--message", required=True)
    ukpl = sub.add_parser(
        "ukpl-replay",
        help="recompute the UK Pinball League's meets from their raw scores, under its documented rules and "
        "under the rules of each era",
    )
    ukpl.add_argument("--data", type=Path, help="the UKPL data folder (default: ../shared/data/ukpl)")
    ukpl.add_argument("--limit", type=int, help="replay only the first N meets")
    from bot.ukpl_ratings import add_command as add_ukpl_ratings

    add_ukpl_ratings(sub)
    from bot.exchange.cli import add_commands

    add_commands(sub)
    return parser


async def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    if args.command == "ukpl-replay":
        from bot import ukpl_replay

        return ukpl_replay.run(args.data or ukpl_replay.DEFAULT_DATA, args.limit)
    if args.command == "ukpl-ratings":
        from bot import ukpl_ratings

        return ukpl_ratings.run(args.data or ukpl_ratings.DEFAULT_DATA, args.limit)
    if args.command == "db":
        return await _database_command(args, settings)
    from bot.exchange import cli as exchange

    if args.command in exchange.COMMANDS:
        return await exchange.run(args, settings)
    if args.command == "local":
        from bot.local.chat import run_chat

        options = {"as_json": args.json, "demo": args.demo, "db_url": args.db, "attachments": args.attachments}
        return await run_chat(settings, script=args.script, **options)
    if settings.token is None:
        from bot.local.chat import run_chat

        print(NO_TOKEN_HELP + _demo_database_note(settings))
        return await run_chat(settings, script=None, as_json=False, demo=True, db_url=None)
    return await _run_bot(settings)


def _demo_database_note(settings: Settings) -> str:
    note = "The demo league lives in a temporary SQLite database, deleted when you quit."
    if settings.database_url:
        shown = make_url(settings.database_url).render_as_string(hide_password=True)
        note += (
            f" PINLEAGUE_DATABASE_URL ({shown}) is used only with a token; to chat on that database instead, run "
            '`pinleague local --db "$PINLEAGUE_DATABASE_URL"`.'
        )
    return note + "\n"


async def _run_bot(settings: Settings) -> int:
    from bot import daily_backup
    from bot.memory import limit_malloc_arenas
    from bot.runtime import migrated_database

    limit_malloc_arenas()  # before the database threads start
    _check_storage(settings)
    daily_backup.check(settings)
    async with migrated_database(settings.resolved_database_url) as db:
        # The bot and discord.py are imported once the database answers: a start that fails on storage says so
        # without loading them.
        from bot.client import bot_class
        from bot.clock import SystemClock
        from bot.discord_endpoints import point_discord_at

        point_discord_at(settings.discord_api_url, settings.discord_gateway_url)
        log.info("database: %s", make_url(settings.resolved_database_url).render_as_string(hide_password=True))
        clock = SystemClock()
        backups = daily_backup.DailyBackup.from_settings(settings, db, clock)
        bot = bot_class(settings)(settings, db, clock, backups=backups)
        try:
            async with bot:
                await bot.start(settings.token or "")
        except Exception as exc:
            problem = discord_failure(exc, settings.discord_api_url)
            if problem is None:
                raise
            raise StartupError(problem) from exc
    return 0


def _check_storage(settings: Settings) -> None:
    if settings.database_url is None:  # the SQLite file lives in the data folder
        check_folder(settings.data_dir)


async def _database_command(args: argparse.Namespace, settings: Settings) -> int:
    from bot.runtime import migrated_database, reached_database
    from storage.migrate import current_revision, write_revision

    _check_storage(settings)
    if args.db_command == "upgrade":
        async with migrated_database(settings.resolved_database_url) as db:
            print(f"database at {await current_revision(db)}")
    elif args.db_command == "current":
        async with reached_database(settings.resolved_database_url) as db:
            print(await current_revision(db) or "empty (no migrations applied)")
    else:
        async with reached_database(settings.resolved_database_url) as db:
            await write_revision(db, args.message)
    return 0


def _setup_logging(settings: Settings, *, quiet: bool) -> None:
    level = logging.getLevelNamesMapping()[settings.log_level]
    if quiet:  # the local chat owns the terminal: only warnings from the bot interrupt it
        level = max(level, logging.WARNING)
    # discord.py's own log format, set up without importing discord.py: the database and file commands need
    # none of it, and a second of imports is most of their run.
    logging.basicConfig(
        level=level, format="[{asctime}] [{levelname:<8}] {name}: {message}", datefmt="%Y-%m-%d %H:%M:%S", style="{"
    )
