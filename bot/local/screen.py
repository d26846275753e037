"""How the bot's outputs read in the local chat's terminal: messages with their embeds, buttons and menus,
forms with the fields to fill, autocomplete suggestions."""

from __future__ import annotations

from typing import Any

from bot.local import controls
from bot.local.emulator import Output
from bot.local.emulator.components import ComponentType
from bot.local.emulator.records import embed_text


def render_output(output: Output) -> str:
    """An output as a person would read it in a terminal."""
    where = f"#{output.channel}" + (" (only you)" if output.ephemeral else "")
    if output.kind == "autocomplete":
        # A script types the value, which differs from the readable name for ids (match:12).
        offered = [_choice_text(choice) for choice in output.choices or []]
        return f"bot ▸ suggestions: {', '.join(offered) or 'none'}"
    if output.kind == "modal":
        modal = output.modal or {}
        fields = [f"  {line}" for line in controls.describe_form(modal)]
        return "\n".join([f"bot ▸ opens a form: {modal.get('title', '')} (:fill it)", *fields])
    if output.kind == "deferred":
        return f"bot ▸ {where}: is thinking…"
    if output.kind == "message_delete":
        return f"bot ▸ {where}: deleted a message"
    lines = [f"bot ▸ {where}{' (edited)' if output.kind in ('edit', 'message_edit') else ''}:"]
    if output.content:
        lines.extend(f"  {line}" for line in output.content.splitlines())
    for embed in output.embeds:
        lines.extend(f"  ┃ {line}" for line in embed_text(embed).splitlines())
    lines.extend(f"  {_row_text(row)}" for row in output.components)
    lines.extend(f"  📎 {attachment.filename}" for attachment in output.attachments)
    return "\n".join(lines)


def _row_text(row: dict[str, Any]) -> str:
    """A row of buttons as [Label] [Label], a menu as [▾ placeholder: option | option]."""
    items = []
    for component in row.get("components", []):
        if component["type"] == ComponentType.BUTTON:
            items.append(f"[{component.get('label') or component.get('custom_id')}]")
        else:
            options = " | ".join(o["label"] for o in component.get("options", []))
            items.append(f"[▾ {component.get('placeholder', '')}{': ' + options if options else ''}]")
    return " ".join(items)


def _choice_text(choice: dict[str, Any]) -> str:
    return choice["name"] if str(choice["value"]) == choice["name"] else f"{choice['name']} → {choice['value']}"
