"""/help's embed: within Discord's limits however much is due, and worded for the member's part in the league."""

from __future__ import annotations

import pytest

from bot import formats
from bot.render.help import help_embed
from bot.services.help import Due, LeagueHelp, Role, Situation

LONG_NAME = "Tilt Warriors of the Very Long Team Name Society"


def view(*, due: int, role: Role = Role.PLAYER, official: bool = False, fmt: str = "team") -> LeagueHelp:
    items = tuple(Due(f"{LONG_NAME} at {LONG_NAME}: game {n} " + "x" * (n % 400), "`/score`") for n in range(due))
    return LeagueHelp("NYC", official, Situation(role, "captain of Flipper Kings", items), formats.named(fmt).guide)


@pytest.mark.parametrize("fmt", formats.names())
def test_hundreds_of_items_fit_discords_limits_and_are_counted(fmt: str) -> None:
    embed = help_embed(view(due=500, role=Role.CAPTAIN, official=True, fmt=fmt))
    assert len(embed) <= 6000 and len(embed.description or "") <= 4096 and len(embed.fields) <= 25
    assert all(len(field.value or "") <= 1024 and len(field.name or "") <= 256 for field in embed.fields)
    shown = [line for line in (embed.description or "").splitlines() if line.startswith("• ")]
    assert shown and all(len(line) <= 300 for line in shown)
    assert (embed.description or "").endswith(f"…and {500 - len(shown)} more")


def test_everything_due_is_shown_when_it_fits() -> None:
    embed = help_embed(view(due=3))
    assert "more" not in (embed.description or "") and (embed.description or "").count("\n• ") == 3


def test_nothing_due_says_so_and_the_next_step() -> None:
    description = help_embed(view(due=0)).description or ""
    assert description.endswith("Nothing is due for you right now. `/standings` shows the league table.")


def test_a_captain_sees_the_captains_and_the_players_commands() -> None:
    names = [field.name for field in help_embed(view(due=0, role=Role.CAPTAIN)).fields]
    assert names == ["As a captain", "As a player", "How a night goes", "Every command"]


def test_an_official_who_does_not_play_gets_no_way_in() -> None:
    """COMMON-ROLE-1: a commissioner need not be a player; the newcomer's commands are not theirs."""
    embed = help_embed(view(due=0, role=Role.NEWCOMER, official=True))
    assert (embed.description or "").startswith("You are one of NYC's officials.\n")
    assert [field.name for field in embed.fields] == ["As an official", "How a night goes", "Every command"]
