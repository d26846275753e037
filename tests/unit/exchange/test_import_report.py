"""The import report as a Discord message: every problem that fits in 2,000 characters, the rest counted."""

from __future__ import annotations

from bot.exchange.problems import ImportReport
from bot.render.exchange import MESSAGE_LIMIT, import_report


def test_a_long_report_fits_one_message_and_counts_what_it_left_out() -> None:
    report = ImportReport(dry_run=True)
    for line in range(200, 1, -1):
        report.add("rosters.csv", line, f"`discord_id` 'member{line}' is not a Discord user id")
    text = import_report(report)
    assert len(text) <= MESSAGE_LIMIT
    lines = text.splitlines()
    assert lines[0].startswith("⛔ 199 problem(s); nothing was imported")
    assert lines[1] == "• rosters.csv:2: `discord_id` 'member2' is not a Discord user id"  # in line order
    shown = len(lines) - 2
    assert lines[-1] == f"…and {199 - shown} more (run with dry_run to check again)"


def test_a_clean_dry_run_says_nothing_was_written() -> None:
    report = ImportReport(dry_run=True, counts={"venue": 1, "machine": 3}, league_name="NYC")
    assert import_report(report, next_step="ignored on a dry run") == (
        "📥 NYC: would import 1 venue, 3 machine (dry run: nothing was written)."
    )
