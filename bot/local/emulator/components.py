"""Using message components and filling modals, as Discord's client allows it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from .errors import EmulatorError
from .payloads import ATTACHMENT_SIZE_LIMIT, JSON
from .resolve import Resolver


class ComponentType:
    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3
    TEXT_INPUT = 4
    USER_SELECT = 5
    ROLE_SELECT = 6
    MENTIONABLE_SELECT = 7
    CHANNEL_SELECT = 8
    TEXT_DISPLAY = 10
    LABEL = 18
    FILE_UPLOAD = 19
    RADIO_GROUP = 21
    CHECKBOX_GROUP = 22
    CHECKBOX = 23


ENTITY_SELECTS = (
    ComponentType.USER_SELECT,
    ComponentType.ROLE_SELECT,
    ComponentType.MENTIONABLE_SELECT,
    ComponentType.CHANNEL_SELECT,
)
SELECTS = (ComponentType.STRING_SELECT, *ENTITY_SELECTS)
# A member's upload limit in a channel: 10 MiB without Nitro, on a server without boosts (premium tier 0).
UPLOAD_LIMIT = ATTACHMENT_SIZE_LIMIT


def walk(components: Sequence[JSON]) -> Iterator[JSON]:
    """Every component, depth first: rows, containers and sections hold children, labels one."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        for key in ("accessory", "component"):
            if component.get(key):
                yield from walk([component[key]])


def find_component(components: Sequence[JSON], custom_id: str) -> JSON:
    for component in walk(components):
        if component.get("custom_id") == custom_id:
            return component
    known = ", ".join(c["custom_id"] for c in walk(components) if c.get("custom_id")) or "none"
    raise EmulatorError(f"no component with custom_id {custom_id!r} on the message (custom_ids: {known})")


def click_data(component: JSON, values: Sequence[Any] | None, resolver: Resolver) -> JSON:
    """`data` of a MESSAGE_COMPONENT interaction: a button press or a select menu choice."""
    if component.get("disabled"):
        raise EmulatorError(f"component {component['custom_id']!r} is disabled")
    kind = component["type"]
    data: JSON = {"custom_id": component["custom_id"], "component_type": kind}
    if kind == ComponentType.BUTTON:
        if values:
            raise EmulatorError("a button takes no values")
        return data
    if kind not in SELECTS:
        raise EmulatorError(f"component {component['custom_id']!r} (type {kind}) cannot be clicked")
    data["values"] = _select_values(component, list(values or []), resolver)
    if resolver.resolved:
        data["resolved"] = resolver.resolved
    return data


def modal_submit_data(modal: JSON, answers: Mapping[str, Any], resolver: Resolver) -> JSON:
    """`data` of a MODAL_SUBMIT interaction: the modal's layout with each input's value filled in."""
    inputs = {c["custom_id"]: c for c in walk(modal["components"]) if c.get("custom_id")}
    unknown = set(answers) - set(inputs)
    if unknown:
        raise EmulatorError(f"the modal has no fields {sorted(unknown)} (fields: {', '.join(inputs)})")

    def submitted(component: JSON) -> JSON | None:
        if component["type"] == ComponentType.ACTION_ROW:
            children = [s for c in component.get("components", []) if (s := submitted(c))]
            return {"type": ComponentType.ACTION_ROW, "components": children}
        if component["type"] == ComponentType.LABEL:
            inner = submitted(component["component"])
            return {"type": ComponentType.LABEL, "id": component.get("id"), "component": inner}
        if not component.get("custom_id"):
            return None  # text displays and other decoration carry no value
        return _field_value(component, answers.get(component["custom_id"]), resolver)

    data: JSON = {"custom_id": modal["custom_id"], "components": []}
    for component in modal["components"]:
        if (entry := submitted(component)) is not None:
            data["components"].append(entry)
    if resolver.resolved:
        data["resolved"] = resolver.resolved
    return data


def _field_value(component: JSON, answer: Any, resolver: Resolver) -> JSON:
    kind, custom_id = component["type"], component["custom_id"]
    entry: JSON = {"type": kind, "custom_id": custom_id}
    if kind == ComponentType.TEXT_INPUT:
        text = "" if answer is None else str(answer)
        if not text and component.get("required", True):
            raise EmulatorError(f"modal field {custom_id!r} is required")
        low, high = component.get("min_length", 0), component.get("max_length", 4000)
        if text and not low <= len(text) <= high:
            raise EmulatorError(f"modal field {custom_id!r} must be {low}–{high} characters long")
        entry["value"] = text
    elif kind == ComponentType.FILE_UPLOAD:
        entry["values"] = _upload_values(component, _picked(answer), resolver)
    elif kind in SELECTS or kind == ComponentType.CHECKBOX_GROUP:
        entry["values"] = _select_values(component, _picked(answer), resolver)
    elif kind == ComponentType.RADIO_GROUP:
        if answer is None and component.get("required", True):
            raise EmulatorError(f"modal field {custom_id!r} is required")
        entry["value"] = None if answer is None else _option_value(component, answer)
    elif kind == ComponentType.CHECKBOX:
        entry["value"] = bool(answer)
    else:
        raise EmulatorError(f"modal field {custom_id!r} has a type the emulator cannot fill: {kind}")
    return entry


def _picked(answer: Any) -> list[Any]:
    """One value (text, a path, an Attachment) or several, as a list; nothing (None, or empty text) is none."""
    if answer is None or answer == "":
        return []
    return list(answer) if isinstance(answer, list | tuple) else [answer]


def _upload_values(component: JSON, picked: list[Any], resolver: Resolver) -> list[str]:
    """The files attached to a file upload, as Discord's client lets them through: at least one when `required`
    (the default), else none or between `min_values` and `max_values` (both default to 1), each within the
    member's upload limit in the channel. Discord's file upload takes files of any type: the bot checks them."""
    custom_id = component["custom_id"]
    required = component.get("required", True)
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not picked:
        if required:
            raise EmulatorError(f"modal field {custom_id!r} is required: attach {max(low, 1)} file(s)")
        return []
    if not max(low, 1) <= len(picked) <= high:
        raise EmulatorError(f"{custom_id!r} takes {max(low, 1)}–{high} files, got {len(picked)}")
    ids = [resolver.attachment(raw) for raw in picked]
    for key in ids:
        sent = resolver.resolved["attachments"][key]
        if sent["size"] > UPLOAD_LIMIT:
            raise EmulatorError(
                f"{sent['filename']!r} is {sent['size']:,} bytes: over the {UPLOAD_LIMIT // (1024 * 1024)} MiB a "
                f"member may upload in this channel ({custom_id!r})"
            )
    return ids


def _select_values(component: JSON, picked: list[Any], resolver: Resolver) -> list[str]:
    custom_id = component["custom_id"]
    # In modals a select may be optional (`required`); on messages `min_values` alone decides.
    low = component.get("min_values", 1 if component.get("required", True) else 0)
    high = component.get("max_values", 1)
    if not low <= len(picked) <= high:
        raise EmulatorError(f"{custom_id!r} takes {low}–{high} values, got {len(picked)}")
    kind = component["type"]
    if kind in ENTITY_SELECTS:
        pick = {
            ComponentType.USER_SELECT: resolver.user,
            ComponentType.ROLE_SELECT: resolver.role,
            ComponentType.MENTIONABLE_SELECT: resolver.mentionable,
            ComponentType.CHANNEL_SELECT: lambda raw: resolver.channel(raw, component.get("channel_types") or ()),
        }[kind]
        return [pick(raw) for raw in picked]
    return [_option_value(component, raw) for raw in picked]


def _option_value(component: JSON, raw: Any) -> str:
    """The value of the option picked by its value or its label."""
    options = component.get("options", [])
    text = str(raw)
    match = next((o for o in options if text in (o["value"], o["label"])), None)
    if match is None:
        labels = ", ".join(o["label"] for o in options)
        raise EmulatorError(f"{component['custom_id']!r} has no option {text!r} (options: {labels})")
    return str(match["value"])
