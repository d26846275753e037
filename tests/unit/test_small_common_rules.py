"""Small common rules word for word: the bot's invite link and a channel's missing permissions, the rulings
offered as precedents (COMMON-RULING-1), when a one-event season is over and the next may start
(COMMON-SEASON-1), and the several refusals of one request at the edge of a message."""

from __future__ import annotations

import pytest

from bot.rules.channel_access import ATTACH_FILES, EMBED_LINKS, invite_link, missing_line
from bot.rules.disputes import PrecedentView, similar
from bot.rules.refusals import PermissionDenied, Refusal, Refusals
from bot.rules.seasons import SeasonProgress, SeasonStage, check_next_season, regular_season_over


def test_the_invite_link_asks_for_the_channels_permissions_by_name() -> None:
    assert invite_link(123) == (
        "https://discord.com/oauth2/authorize?client_id=123&scope=bot+applications.commands&permissions=117760 "
        "(View Channel, Send Messages, Embed Links, Attach Files, Read Message History)"
    )


def test_a_channel_lacking_two_permissions_says_what_fails_without_each() -> None:
    assert missing_line("#scores", [EMBED_LINKS, ATTACH_FILES]) == (
        "#scores: the bot cannot Embed Links, Attach Files — give it those permissions there, or posts arrive "
        "without their tables and cards; standings and bracket images won't post"
    )


def precedent(id: int, *, family: str | None = None, rule: str | None = None, kind: str = "other") -> PrecedentView:
    return PrecedentView(id, kind, rule, family, "situation", "ruling")


def test_common_ruling_1_a_shared_machine_and_a_shared_rule_count_the_same() -> None:
    """COMMON-RULING-1: among equals the newest first; a ruling on another machine shares nothing by that."""
    found = similar(
        [precedent(1, family="godzilla"), precedent(2, rule="TEAM-MACH-3"), precedent(3, family="deadpool")],
        kind="score",
        rule_id="TEAM-MACH-3",
        machine_families=["godzilla"],
    )
    assert [p.id for p in found] == [2, 1]


def test_common_season_1_a_season_of_one_event_is_over_once_it_is_final() -> None:
    assert regular_season_over(SeasonProgress(regular=1, begun=1, final=1, postseason=None))
    assert not regular_season_over(SeasonProgress(regular=0, begun=0, final=0, postseason=None))


def test_common_season_1_the_next_season_refused_says_how_to_start_it_anyway() -> None:
    with pytest.raises(Refusal) as caught:
        check_next_season(SeasonStage.ACTIVE, shown="Spring 2027", override=False)
    assert str(caught.value) == (
        "COMMON-SEASON-1: Spring 2027 is not complete yet, so nothing was started. Finish it first, or run "
        "`/season new override:true` to start the next season anyway."
    )


def test_common_role_1_a_permission_refusal_cites_its_rule() -> None:
    assert str(PermissionDenied("Only a commissioner can do that.")) == (
        "COMMON-ROLE-1: Only a commissioner can do that."
    )


@pytest.mark.parametrize(
    ("length", "kept"), [(Refusals.MESSAGE_BUDGET - 4, True), (Refusals.MESSAGE_BUDGET - 3, False)]
)
def test_several_refusals_fill_a_message_to_its_budget_exactly(length: int, kept: bool) -> None:
    """The heading, then a line per refusal, each with its line break, up to the budget and no further."""
    first = Refusal("x" * length)
    text = Refusals("H", [first, Refusal("y")]).message
    more = "• …and {} more: fix these, then send it again to see the rest."
    assert text == ("H\n• " + first.message + "\n" + more.format(1) if kept else "H\n" + more.format(2))
