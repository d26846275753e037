"""The emulator refuses components and modals Discord refuses, and pings whom Discord would ping."""

from __future__ import annotations

import pytest

from bot.local.emulator.errors import ApiError
from bot.local.emulator.limits import pinged_users, validate_message_components, validate_modal


def button(custom_id: str, label: str = "Go") -> dict[str, object]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def row(*items: dict[str, object]) -> dict[str, object]:
    return {"type": 1, "components": list(items)}


def text_field(custom_id: str) -> dict[str, object]:
    return {"type": 18, "label": "Home 1 · Alice", "component": {"type": 4, "custom_id": custom_id, "style": 1}}


def test_five_rows_of_five_buttons_pass() -> None:
    validate_message_components([row(*(button(f"b{r}{n}") for n in range(5))) for r in range(5)], layout=False)


@pytest.mark.parametrize(
    "components",
    [
        [row(button(f"b{r}")) for r in range(6)],  # six rows
        [row(*(button(f"b{n}") for n in range(6)))],  # six buttons in a row
        [row(button("same"), button("same"))],  # a custom id twice
        [row(button("long", "x" * 81))],  # a label over 80 characters
        [row({"type": 3, "custom_id": "menu", "options": [{"label": "a", "value": "a"}]}, button("b"))],
        [row({"type": 3, "custom_id": "menu", "options": []})],  # a menu with no options
    ],
)
def test_components_discord_refuses_are_refused(components: list[dict[str, object]]) -> None:
    with pytest.raises(ApiError):
        validate_message_components(components, layout=False)


def test_a_modal_holds_five_fields_with_short_labels() -> None:
    validate_modal({"custom_id": "m", "title": "Round 1 game 2 scores", "components": [text_field("a")]})
    with pytest.raises(ApiError):
        validate_modal({"custom_id": "m", "title": "t", "components": [text_field(f"f{n}") for n in range(6)]})
    with pytest.raises(ApiError):
        validate_modal({"custom_id": "m", "title": "x" * 46, "components": [text_field("a")]})


def test_only_the_users_allowed_are_pinged() -> None:
    content = "<@1> confirms; <@!2> and <@3> watch"
    assert pinged_users({"content": content}) == (1, 2, 3)  # Discord's default: every user mention
    assert pinged_users({"content": content, "allowed_mentions": {"parse": []}}) == ()
    assert pinged_users({"content": content, "allowed_mentions": {"parse": [], "users": ["1"]}}) == (1,)
    assert pinged_users({"content": "", "embeds": [{"description": "<@1>"}]}) == ()
