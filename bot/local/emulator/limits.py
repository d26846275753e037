"""Discord's limits on message components, modals, autocomplete choices, allowed mentions and files, and who a
new message pings: refused or computed as Discord does, so a bot that passes here passes there."""

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
LABEL_DESCRIPTION_LENGTH = 100
FILE_UPLOAD_VALUES = 10  # a file upload takes 0 to 10 files
MODAL_TOP_LEVEL = (ComponentType.ACTION_ROW, ComponentType.LABEL, ComponentType.TEXT_DISPLAY)
LABEL_CHILDREN = (
    ComponentType.TEXT_INPUT,
    *SELECTS,
    ComponentType.FILE_UPLOAD,
    ComponentType.RADIO_GROUP,
    ComponentType.CHECKBOX_GROUP,
    ComponentType.CHECKBOX,
)
MODAL_ONLY = (ComponentType.TEXT_INPUT, ComponentType.LABEL, *LABEL_CHILDREN[1 + len(SELECTS) :])
OPTION_LABEL_LENGTH = 100
CHOICES_PER_AUTOCOMPLETE = 25
CHOICE_NAME_LENGTH = 100
FILES_PER_MESSAGE = 10
MENTION_IDS = 100
MENTION_TYPES = ("roles", "users", "everyone")
USER_MENTION = re.compile(r"<@!?(\d+)>")


def validate_message_components(components: Sequence[JSON], *, layout: bool) -> None:
    """Classic messages: at most 5 action rows, each of at most 5 buttons or one select menu. Components V2
    layouts (`layout`) have limits of their own, not checked here."""
    if layout:
        return
    if len(components) > ROWS_PER_MESSAGE:
        raise _too_long("components", ROWS_PER_MESSAGE)
    for index, row in enumerate(components):
        children = row.get("components") or []
        where = f"components.{index}.components"
        if row.get("type") != ComponentType.ACTION_ROW or not children:
            raise ApiError.invalid_form(f"components.{index}", "An action row with components is required here")
        selects = [c for c in children if c.get("type") in SELECTS]
        if selects and len(children) > 1:
            raise ApiError.invalid_form(where, "A select menu must be alone in its action row")
        if len(children) > BUTTONS_PER_ROW:
            raise _too_long(where, BUTTONS_PER_ROW)
        for number, child in enumerate(children):
            _check_child(child, f"{where}.{number}")
    _check_unique_ids(components, "components")


def validate_modal(modal: JSON) -> None:
    """A modal: a title of at most 45 characters and at most 5 components, labels of at most 45 (descriptions of
    at most 100); a file upload only inside a Label, taking 0 to 10 files, at least one when it is required."""
    if len(modal.get("title") or "") > MODAL_TITLE_LENGTH:
        raise _too_long("data.title", MODAL_TITLE_LENGTH)
    components = modal.get("components") or []
    if len(components) > MODAL_COMPONENTS:
        raise _too_long("data.components", MODAL_COMPONENTS)
    for index, component in enumerate(components):
        where = f"data.components.{index}"
        _check_modal_component(component, where)
        # A label on a Label, or on a text input in an action row (the older layout).
        labelled = [(where, component)] if component.get("type") == ComponentType.LABEL else []
        labelled += [
            (f"{where}.components.{number}", child)
            for number, child in enumerate(component.get("components") or [])
            if child.get("type") == ComponentType.TEXT_INPUT
        ]
        for path, item in labelled:
            if len(item.get("label") or "") > MODAL_LABEL_LENGTH:
                raise _too_long(f"{path}.label", MODAL_LABEL_LENGTH)
    _check_unique_ids(components, "data.components")


def _check_modal_component(component: JSON, where: str) -> None:
    """What may sit where in a modal: rows, text displays and labels at the top; a label holds one input."""
    kind = component.get("type")
    if kind not in MODAL_TOP_LEVEL:
        raise _not_one_of(f"{where}.type", MODAL_TOP_LEVEL)
    if kind == ComponentType.ACTION_ROW:
        for number, child in enumerate(component.get("components") or []):
            if child.get("type") != ComponentType.TEXT_INPUT:  # the older layout: text inputs only
                raise _not_one_of(f"{where}.components.{number}.type", (ComponentType.TEXT_INPUT,))
    if kind != ComponentType.LABEL:
        return
    if len(component.get("description") or "") > LABEL_DESCRIPTION_LENGTH:
        raise _too_long(f"{where}.description", LABEL_DESCRIPTION_LENGTH)
    child = component.get("component") or {}
    if child.get("type") not in LABEL_CHILDREN:
        raise _not_one_of(f"{where}.component.type", LABEL_CHILDREN)
    if not 1 <= len(child.get("custom_id") or "") <= CUSTOM_ID_LENGTH:
        raise _bad_length(f"{where}.component.custom_id", 1, CUSTOM_ID_LENGTH)
    if child["type"] == ComponentType.FILE_UPLOAD:
        _check_file_upload(child, f"{where}.component")


def _check_file_upload(upload: JSON, where: str) -> None:
    """min_values 0 to 10 (at least 1 when `required`, the default), max_values 1 to 10, min at most max; both
    default to 1 (the discord-api-docs component reference, File Upload)."""
    required = upload.get("required", True)
    low, high = upload.get("min_values"), upload.get("max_values")
    if low is not None and not (1 if required else 0) <= low <= FILE_UPLOAD_VALUES:
        if low > FILE_UPLOAD_VALUES:
            raise _int_above(f"{where}.min_values", FILE_UPLOAD_VALUES)
        raise _int_below(f"{where}.min_values", 1 if required else 0)
    if high is not None and not 1 <= high <= FILE_UPLOAD_VALUES:
        if high > FILE_UPLOAD_VALUES:
            raise _int_above(f"{where}.max_values", FILE_UPLOAD_VALUES)
        raise _int_below(f"{where}.max_values", 1)
    if (1 if low is None else low) > (1 if high is None else high):
        raise ApiError.invalid_form(
            f"{where}.min_values", "min_values must be less than or equal to max_values.", "BASE_TYPE_BAD_VALUE"
        )


def validate_choices(choices: Sequence[JSON]) -> None:
    """An autocomplete answer: at most 25 choices, each named in 1 to 100 characters."""
    if len(choices) > CHOICES_PER_AUTOCOMPLETE:
        raise _too_long("data.choices", CHOICES_PER_AUTOCOMPLETE)
    for index, choice in enumerate(choices):
        if not 1 <= len(choice.get("name") or "") <= CHOICE_NAME_LENGTH:
            raise _bad_length(f"data.choices.{index}.name", 1, CHOICE_NAME_LENGTH)


def validate_file_count(count: int) -> None:
    if count > FILES_PER_MESSAGE:
        raise _too_long("attachments", FILES_PER_MESSAGE)


def validate_allowed_mentions(allowed: JSON | None) -> None:
    """`parse` takes only Discord's three kinds; at most 100 user and role ids, each list exclusive with its kind
    in `parse`."""
    if allowed is None:
        return
    parse = allowed.get("parse") or []
    for index, kind in enumerate(parse):
        if kind not in MENTION_TYPES:
            choices = ", ".join(f"'{known}'" for known in MENTION_TYPES)
            raise ApiError.invalid_form(
                f"allowed_mentions.parse.{index}", f"Value must be one of {{{choices}}}.", "BASE_TYPE_CHOICES"
            )
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if len(ids) > MENTION_IDS:
            raise _too_long(f"allowed_mentions.{kind}", MENTION_IDS)
        if ids and kind in parse:
            raise ApiError.invalid_form(
                "allowed_mentions",
                f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            )


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
    if child.get("type") in MODAL_ONLY:  # text inputs, labels, file uploads…: modals only
        raise _not_one_of(f"{where}.type", (ComponentType.BUTTON, *SELECTS))
    if len(child.get("custom_id") or "") > CUSTOM_ID_LENGTH:
        raise _too_long(f"{where}.custom_id", CUSTOM_ID_LENGTH)
    if child.get("type") == ComponentType.BUTTON and len(child.get("label") or "") > BUTTON_LABEL_LENGTH:
        raise _too_long(f"{where}.label", BUTTON_LABEL_LENGTH)
    if child.get("type") == ComponentType.STRING_SELECT:
        options = child.get("options") or []
        if not 1 <= len(options) <= OPTIONS_PER_SELECT:
            raise _bad_length(f"{where}.options", 1, OPTIONS_PER_SELECT)
        for number, option in enumerate(options):
            if not 1 <= len(option.get("label") or "") <= OPTION_LABEL_LENGTH:
                raise _bad_length(f"{where}.options.{number}.label", 1, OPTION_LABEL_LENGTH)


def _check_unique_ids(components: Sequence[JSON], where: str) -> None:
    ids = [c["custom_id"] for c in walk(components) if c.get("custom_id")]
    if len(ids) != len(set(ids)):
        raise ApiError.invalid_form(where, "Component custom id cannot be duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED")


def _not_one_of(field: str, kinds: Sequence[int]) -> ApiError:
    choices = ", ".join(str(kind) for kind in kinds)
    return ApiError.invalid_form(field, f"Value must be one of ({choices}).", "BASE_TYPE_CHOICES")


def _int_above(field: str, limit: int) -> ApiError:
    return ApiError.invalid_form(field, f"int value should be less than or equal to {limit}.", "NUMBER_TYPE_MAX")


def _int_below(field: str, limit: int) -> ApiError:
    return ApiError.invalid_form(field, f"int value should be greater than or equal to {limit}.", "NUMBER_TYPE_MIN")


def _too_long(field: str, limit: int) -> ApiError:
    return ApiError.invalid_form(field, f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")


def _bad_length(field: str, low: int, high: int) -> ApiError:
    return ApiError.invalid_form(field, f"Must be between {low} and {high} in length.", "BASE_TYPE_BAD_LENGTH")
