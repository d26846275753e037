"""What a person reaches with a thumb in Discord, reached by name in the local chat: buttons and select menus
on messages (by label or placeholder), and the fields of a form the bot opened (by label or in order).

Names match case-insensitively, exactly or by a prefix only one candidate has, so `:click "Enter R1 G2"` finds
"Enter R1 G2 · A1 / A2 v H1 / H2" and `:fill home=…` finds "Home 1 · H1" when it is the only Home field.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.local.emulator import Emulator, Output
from bot.local.emulator.components import SELECTS, ComponentType, walk
from bot.local.emulator.records import MESSAGE_KINDS

T = TypeVar("T")
_LEADING_SYMBOLS = re.compile(r"^[^\w\"']+")


class ChatError(Exception):
    """A line the chat could not carry out; shown to the person, never fatal."""


def by_name(wanted: str, candidates: Iterable[T], name: Callable[[T], str], what: str) -> T | None:
    """The candidate called `wanted` (exactly, else by a unique prefix; case-insensitive), or None."""
    pool = list(candidates)
    key = wanted.casefold()
    exact = [c for c in pool if name(c).casefold() == key]
    if exact:
        return exact[0]
    prefixed = [c for c in pool if name(c).casefold().startswith(key)]
    if len(prefixed) > 1:
        names = ", ".join(repr(name(c)) for c in prefixed)
        raise ChatError(f"{wanted!r} could be any of {names}: type more of the {what}")
    return prefixed[0] if prefixed else None


def visible_messages(emulator: Emulator, member: str) -> list[Output]:
    """The messages `member` sees, newest first, each as it looks now (others' ephemeral replies left out)."""
    viewer, seen, visible = emulator.member(member), set(), []
    for output in reversed(emulator.outputs):
        if output.message_id is None or output.message_id in seen:
            continue
        seen.add(output.message_id)
        origin = emulator.interactions.get(output.interaction_id or 0)
        if output.kind in MESSAGE_KINDS and (not output.ephemeral or (origin and origin.member is viewer)):
            visible.append(output)
    return visible


def newest_with(
    emulator: Emulator,
    member: str,
    wanted: str,
    items: Callable[[Output], list[dict[str, Any]]],
    name: str,
    what: str,
) -> tuple[Output, dict[str, Any]]:
    """The newest message `member` sees with an item (button, menu) whose `name` key is `wanted`: named exactly
    on any message first, so an exact label is never shadowed by a newer message's longer one."""
    messages = visible_messages(emulator, member)
    for output in messages:
        if exact := [i for i in items(output) if str(i.get(name, "")).casefold() == wanted.casefold()]:
            return output, exact[0]
    for output in messages:
        if found := by_name(wanted, items(output), lambda i: str(i.get(name, "")), what):
            return output, found
    raise ChatError(f"no message you can see shows a {what} {wanted!r}")


def buttons(components: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The message's buttons that send an interaction (link buttons have no custom_id)."""
    return [c for c in walk(components) if c["type"] == ComponentType.BUTTON and c.get("custom_id")]


def menus(components: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in walk(components) if c["type"] in SELECTS]


def picked_values(menu: dict[str, Any], wanted: Sequence[str]) -> list[str]:
    """The values of the options named in `wanted`; a member, role or channel menu takes the names as given."""
    if menu["type"] != ComponentType.STRING_SELECT:
        return list(wanted)
    options = menu.get("options", [])
    values = []
    for text in wanted:
        option = by_name(text, options, lambda o: str(o["label"]), "option") or next(
            (o for o in options if o["value"] == text), None
        )
        if option is None:
            labels = ", ".join(repr(o["label"]) for o in options)
            raise ChatError(f"the menu {menu.get('placeholder', '')!r} has no option {text!r} (options: {labels})")
        values.append(str(option["value"]))
    return values


@dataclass(frozen=True)
class FormField:
    custom_id: str
    label: str
    required: bool
    value: str | None  # pre-filled
    options: tuple[str, ...]  # a menu's option labels; empty for a text field
    file: bool = False  # a file upload: filled with a file's path (a form's photo of the display)

    @property
    def name(self) -> str:
        """The label as typed to name it: without a leading emoji ("📷 Photo of the display" is "Photo…")."""
        return _LEADING_SYMBOLS.sub("", self.label) or self.label


def form_fields(modal: dict[str, Any]) -> list[FormField]:
    """The fillable fields of a modal in order: text inputs, menus and file uploads, in Label components or
    action rows."""
    fields: list[FormField] = []
    for component in modal.get("components", []):
        if component["type"] == ComponentType.LABEL:
            placed = [(component["component"], component.get("label"))]
        else:  # an action row of inputs, each with its own label
            placed = [(c, c.get("label")) for c in component.get("components", [])]
        fields.extend(_field(inner, str(label or inner["custom_id"])) for inner, label in placed if _fillable(inner))
    return fields


def _fillable(component: dict[str, Any]) -> bool:
    kinds = (ComponentType.TEXT_INPUT, *SELECTS, ComponentType.FILE_UPLOAD)
    return bool(component.get("custom_id")) and component["type"] in kinds


def _field(inner: dict[str, Any], label: str) -> FormField:
    options = tuple(str(o["label"]) for o in inner.get("options", []))
    defaults = [str(o["label"]) for o in inner.get("options", []) if o.get("default")]
    value = inner.get("value") or (defaults[0] if defaults else None)
    upload = inner["type"] == ComponentType.FILE_UPLOAD
    return FormField(inner["custom_id"], label, inner.get("required", True), value, options, upload)


def describe_form(modal: dict[str, Any]) -> list[str]:
    """One line per field: what to fill, whether it is required, and what it holds already."""
    lines = []
    for number, field in enumerate(form_fields(modal), start=1):
        line = f"{number}. {field.label} ({'required' if field.required else 'optional'})"
        if field.options:
            line += f" one of: {', '.join(field.options)}"
        if field.file:
            line += " a file: its path"
        if field.value:
            line += f" = {field.value}"
        lines.append(line)
    return lines


def fill(modal: dict[str, Any], words: Sequence[str]) -> dict[str, str]:
    """The values to submit: `LABEL=VALUE` words by label, or plain words in the fields' order. Fields not
    named keep what the form holds already, as they do on a phone."""
    fields = form_fields(modal)
    listing = "; ".join(describe_form(modal)) or "none"
    labelled = ["=" in word for word in words]
    if any(labelled) and not all(labelled):
        raise ChatError('give every value by its label ("Home 1 · H1"=45,210,330) or every value in order, not both')
    values = {f.custom_id: f.value for f in fields if f.value}
    if all(labelled) and words:
        for word in words:
            label, _, value = word.partition("=")
            field = by_name(label.strip(), fields, lambda f: f.name, "field's label")
            if field is None:
                raise ChatError(f"the form has no field {label.strip()!r}; its fields: {listing}")
            values[field.custom_id] = value
    else:
        if len(words) > len(fields):
            raise ChatError(f"the form has {len(fields)} fields, you gave {len(words)} values; its fields: {listing}")
        values |= {field.custom_id: word for field, word in zip(fields, words, strict=False)}
    missing = [f.label for f in fields if f.required and not values.get(f.custom_id)]
    if missing:
        raise ChatError(f"fill {', '.join(repr(m) for m in missing)} too (required); the form's fields: {listing}")
    return {f.custom_id: _option(f, values[f.custom_id]) for f in fields if values.get(f.custom_id)}


def _option(field: FormField, value: str | None) -> str:
    """A menu field's option by its label or a prefix of it; a text field's value as typed."""
    if not field.options or value is None:
        return value or ""
    option = by_name(value, field.options, str, "option")
    if option is None:
        raise ChatError(f"{field.label!r} has no option {value!r} (options: {', '.join(field.options)})")
    return option
