"""Discord's limits on what a bot sends: components, modals, autocomplete choices, allowed mentions, files.

Each check raises the 400 Discord answers (code 50035, an errors tree naming the field), so a body Discord
would refuse is refused here too and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .components import SELECTS, ComponentType
from .errors import ApiError
from .payloads import JSON

MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_CUSTOM_ID = 100
MAX_SELECT_OPTIONS = 25
MAX_OPTION_LABEL = 100
MAX_BUTTON_LABEL = 80
MAX_MODAL_COMPONENTS = 5
MAX_MODAL_TITLE = 45
MAX_INPUT_LABEL = 45
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_FILES = 10
MAX_MENTION_IDS = 100
MENTION_TYPES = ("roles", "users", "everyone")

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def too_long(field: str, limit: int) -> ApiError:
    return ApiError.invalid_form(field, f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")


def bad_length(field: str, low: int, high: int) -> ApiError:
    return ApiError.invalid_form(field, f"Must be between {low} and {high} in length.", "BASE_TYPE_BAD_LENGTH")


def validate_components(components: Sequence[JSON], *, components_v2: bool = False) -> None:
    """A message's components: up to 5 action rows (layouts of the components-v2 kind have their own limits),
    each holding up to 5 buttons or one select; custom_ids unique and at most 100 characters."""
    if not components_v2 and len(components) > MAX_ROWS:
        raise too_long("components", MAX_ROWS)
    custom_ids: set[str] = set()
    for index, component in enumerate(components):
        _validate_component(component, f"components.{index}", custom_ids)


def _validate_component(component: JSON, where: str, custom_ids: set[str]) -> None:
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if custom_id is not None:
        if len(custom_id) > MAX_CUSTOM_ID:
            raise too_long(f"{where}.custom_id", MAX_CUSTOM_ID)
        if custom_id in custom_ids:
            raise ApiError.invalid_form(
                f"{where}.custom_id", "Component custom id cannot be duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED"
            )
        custom_ids.add(custom_id)
    children = component.get("components") or []
    if kind == ComponentType.ACTION_ROW:
        if any(child.get("type") in SELECTS for child in children) and len(children) > 1:
            raise ApiError.invalid_form(
                f"{where}.components",
                "The specified component exceeds the maximum width",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            )
        if len(children) > MAX_ROW_WIDTH:
            raise too_long(f"{where}.components", MAX_ROW_WIDTH)
    if kind == ComponentType.BUTTON and len(component.get("label") or "") > MAX_BUTTON_LABEL:
        raise too_long(f"{where}.label", MAX_BUTTON_LABEL)
    if kind == ComponentType.STRING_SELECT:
        options = component.get("options") or []
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            raise bad_length(f"{where}.options", 1, MAX_SELECT_OPTIONS)
        for number, option in enumerate(options):
            if not 1 <= len(option.get("label") or "") <= MAX_OPTION_LABEL:
                raise bad_length(f"{where}.options.{number}.label", 1, MAX_OPTION_LABEL)
    for number, child in enumerate(children):
        _validate_component(child, f"{where}.components.{number}", custom_ids)
    for key in ("accessory", "component"):
        if component.get(key):
            _validate_component(component[key], f"{where}.{key}", custom_ids)


def validate_modal(modal: JSON) -> None:
    """A MODAL callback's data: a title of up to 45 characters, up to 5 top-level components, input labels of up
    to 45 characters (on the text input in an action row, or on its Label)."""
    for key in ("custom_id", "title", "components"):
        if not modal.get(key):
            raise ApiError.invalid_form(f"data.{key}", "This field is required", "BASE_TYPE_REQUIRED")
    if len(modal["title"]) > MAX_MODAL_TITLE:
        raise too_long("data.title", MAX_MODAL_TITLE)
    if len(modal["components"]) > MAX_MODAL_COMPONENTS:
        raise too_long("data.components", MAX_MODAL_COMPONENTS)
    for index, component in enumerate(modal["components"]):
        where = f"data.components.{index}"
        labelled = [(where, component)] if component.get("type") == ComponentType.LABEL else []
        labelled += [
            (f"{where}.components.{number}", child)
            for number, child in enumerate(component.get("components") or [])
            if child.get("type") == ComponentType.TEXT_INPUT
        ]
        for path, item in labelled:
            if len(item.get("label") or "") > MAX_INPUT_LABEL:
                raise too_long(f"{path}.label", MAX_INPUT_LABEL)
    validate_components(modal["components"], components_v2=True)


def validate_choices(choices: Sequence[JSON]) -> None:
    """An AUTOCOMPLETE_RESULT: up to 25 choices, each named in 1–100 characters."""
    if len(choices) > MAX_CHOICES:
        raise too_long("data.choices", MAX_CHOICES)
    for index, choice in enumerate(choices):
        if not 1 <= len(choice.get("name") or "") <= MAX_CHOICE_NAME:
            raise bad_length(f"data.choices.{index}.name", 1, MAX_CHOICE_NAME)


def validate_file_count(count: int) -> None:
    if count > MAX_FILES:
        raise too_long("attachments", MAX_FILES)


def validate_allowed_mentions(allowed: JSON | None) -> None:
    if allowed is None:
        return
    parse = allowed.get("parse") or []
    for index, value in enumerate(parse):
        if value not in MENTION_TYPES:
            raise ApiError.invalid_form(
                f"allowed_mentions.parse.{index}",
                "Value must be one of {" + ", ".join(f"'{kind}'" for kind in MENTION_TYPES) + "}.",
                "BASE_TYPE_CHOICES",
            )
    for kind in ("users", "roles"):
        ids = allowed.get(kind) or []
        if len(ids) > MAX_MENTION_IDS:
            raise too_long(f"allowed_mentions.{kind}", MAX_MENTION_IDS)
        if ids and kind in parse:
            raise ApiError.invalid_form(
                "allowed_mentions",
                f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            )


def mentioned(content: str, allowed: JSON | None) -> tuple[list[int], list[int], bool]:
    """Who the content pings under `allowed_mentions` (None: everything it names): user ids, role ids and
    whether @everyone/@here."""
    parse = MENTION_TYPES if allowed is None else tuple(allowed.get("parse") or ())

    def picked(pattern: re.Pattern[str], kind: str) -> list[int]:
        named = list(dict.fromkeys(int(found) for found in pattern.findall(content)))
        if kind in parse:
            return named
        listed = {int(i) for i in (allowed or {}).get(kind) or []}
        return [i for i in named if i in listed]

    everyone = "everyone" in parse and ("@everyone" in content or "@here" in content)
    return picked(_USER_MENTION, "users"), picked(_ROLE_MENTION, "roles"), everyone
