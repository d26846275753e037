"""Discord's limits on message components and modals, and who a new message pings: refused or computed as
Discord does, so a bot that passes here passes there."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .components import SELECTS, ComponentType, walk
from .errors import ApiError
from .payloads import JSON

ROWS_PER_MESSAGE = 5
BUTTONS_PER_ROW = 5
OPTIONS_PER_SELECT = 25
MODAL_COMPONENTS = 5
CUSTOM_ID_LENGTH = 100
BUTTON_LABEL_LENGTH = 80
MODAL_TITLE_LENGTH = 45
MODAL_LABEL_LENGTH = 45
USER_MENTION = re.compile(r"<@!?(\d+)>")


def validate_message_components(components: Sequence[JSON], *, layout: bool) -> None:
    """Classic messages: at most 5 action rows, each of at most 5 buttons or one select menu. Components V2
    layouts (`layout`) have limits of their own, not checked here."""
    if layout:
        return
    if len(components) > ROWS_PER_MESSAGE:
        raise ApiError.invalid_form("components", f"Must be {ROWS_PER_MESSAGE} or fewer in length.")
    for index, row in enumerate(components):
        children = row.get("components") or []
        where = f"components.{index}.components"
        if row.get("type") != ComponentType.ACTION_ROW or not children:
            raise ApiError.invalid_form(f"components.{index}", "An action row with components is required here")
        selects = [c for c in children if c.get("type") in SELECTS]
        if selects and len(children) > 1:
            raise ApiError.invalid_form(where, "A select menu must be alone in its action row")
        if len(children) > BUTTONS_PER_ROW:
            raise ApiError.invalid_form(where, f"Must be {BUTTONS_PER_ROW} or fewer in length.")
        for number, child in enumerate(children):
            _check_child(child, f"{where}.{number}")
    _check_unique_ids(components, "components")


def validate_modal(modal: JSON) -> None:
    """A modal: a title of at most 45 characters and at most 5 components, labels of at most 45."""
    if len(modal.get("title") or "") > MODAL_TITLE_LENGTH:
        raise ApiError.invalid_form("data.title", f"Must be {MODAL_TITLE_LENGTH} or fewer in length.")
    components = modal.get("components") or []
    if len(components) > MODAL_COMPONENTS:
        raise ApiError.invalid_form("data.components", f"Must be {MODAL_COMPONENTS} or fewer in length.")
    for index, component in enumerate(components):
        if component.get("type") == ComponentType.LABEL and len(component.get("label") or "") > MODAL_LABEL_LENGTH:
            raise ApiError.invalid_form(
                f"data.components.{index}.label", f"Must be {MODAL_LABEL_LENGTH} or fewer in length."
            )
    _check_unique_ids(components, "data.components")


def pinged_users(fields: JSON) -> tuple[int, ...]:
    """The users a new message notifies: those mentioned in its content (never in embeds) that its
    `allowed_mentions` lets through; without `allowed_mentions`, Discord lets every user mention through."""
    mentioned = dict.fromkeys(int(user) for user in USER_MENTION.findall(fields.get("content") or ""))
    allowed = fields.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return tuple(mentioned)
    permitted = {int(user) for user in allowed.get("users") or []}
    return tuple(user for user in mentioned if user in permitted)


def _check_child(child: JSON, where: str) -> None:
    if len(child.get("custom_id") or "") > CUSTOM_ID_LENGTH:
        raise ApiError.invalid_form(f"{where}.custom_id", f"Must be {CUSTOM_ID_LENGTH} or fewer in length.")
    if child.get("type") == ComponentType.BUTTON and len(child.get("label") or "") > BUTTON_LABEL_LENGTH:
        raise ApiError.invalid_form(f"{where}.label", f"Must be {BUTTON_LABEL_LENGTH} or fewer in length.")
    if child.get("type") == ComponentType.STRING_SELECT:
        options = child.get("options") or []
        if not 1 <= len(options) <= OPTIONS_PER_SELECT:
            raise ApiError.invalid_form(f"{where}.options", f"Must be between 1 and {OPTIONS_PER_SELECT} in length.")


def _check_unique_ids(components: Sequence[JSON], where: str) -> None:
    ids = [c["custom_id"] for c in walk(components) if c.get("custom_id")]
    if len(ids) != len(set(ids)):
        raise ApiError.invalid_form(where, "Component custom id cannot be duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED")
