"""Replies for imports and exports: the import report as a private message that fits Discord's 2,000 characters."""

from __future__ import annotations

import io

import discord

from bot.exchange.files import ExportFile
from bot.exchange.problems import ImportReport

MESSAGE_LIMIT = 2000


ROSTER_NEXT_STEP = "Next: check each roster with `/roster show` and put it in force with `/roster submit`."


def import_report(report: ImportReport, *, next_step: str | None = None) -> str:
    """Every problem with its file and line, as many as fit; the rest counted, to be fixed and re-run."""
    if report.ok:
        done = f"📥 {report.summary()}."
        return f"{done}\n{next_step}" if next_step and not report.dry_run else done
    ordered = sorted(report.problems, key=lambda p: (p.file, p.line or 0))
    head = f"⛔ {len(ordered)} problem(s); nothing was imported. Fix these rows and attach the file again:"
    lines = [head]
    for shown, problem in enumerate(ordered):
        line = f"• {problem}"
        rest = len(ordered) - shown
        if sum(len(x) + 1 for x in lines) + len(line) + 40 > MESSAGE_LIMIT:
            lines.append(f"…and {rest} more (run with dry_run to check again)")
            break
        lines.append(line)
    return "\n".join(lines)


def export_file(export: ExportFile) -> discord.File:
    """An exported file as a Discord attachment."""
    return discord.File(io.BytesIO(export.content), filename=export.filename)


def calendar_ready(calendar: ExportFile) -> str:
    if not calendar.items:
        return "📅 Nothing to put in a calendar yet: the season has no schedule for that choice."
    return (
        f"📅 {calendar.items} event(s) in `{calendar.filename}`. Open it, or import it into your calendar app; "
        "times show in your own time zone."
    )
