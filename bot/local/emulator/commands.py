"""Synced application commands, and turning what a person types into interaction data.

Discord's client only lets a person pick commands and options that exist, with values of the
right type; everything it would refuse raises EmulatorError here.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any

from .errors import ApiError, EmulatorError
from .guild import APPLICATION_ID, Guild, Member, Permission
from .payloads import JSON
from .resolve import Resolver


class OptionType(IntEnum):
    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


SUBCOMMAND_TYPES = (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP)
CHAT_INPUT = 1
_NAME = re.compile(r"^[-_\w]{1,32}$")
_OPTION_TOKEN = re.compile(r"^([-_\w]+):(.*)$", re.DOTALL)
_MAX_SAFE_INTEGER = 2**53
MAX_COMMAND_SIZE = 8000


class CommandRegistry:
    """What the bot PUT, per scope (None = global), with ids that survive a re-sync like Discord's."""

    def __init__(self, new_id: Callable[[], int]) -> None:
        self._new_id = new_id
        self._scopes: dict[int | None, list[JSON]] = {}
        self._ids: dict[tuple[int | None, str, int], int] = {}

    @property
    def synced(self) -> bool:
        return bool(self._scopes)

    def replace(self, guild_id: int | None, commands: list[JSON]) -> list[JSON]:
        for index, command in enumerate(commands):
            _validate_command(command, str(index))
        if sum(1 for c in commands if c.get("type", CHAT_INPUT) == CHAT_INPUT) > 100:
            raise ApiError.invalid_form("_errors", "Maximum number of application commands reached (100)")
        stored = []
        for command in commands:
            kind = command.get("type", CHAT_INPUT)
            command_id = self._ids.setdefault((guild_id, command["name"], kind), self._new_id())
            stored.append(
                {
                    "default_member_permissions": None,
                    "nsfw": False,
                    "contexts": None,
                    "integration_types": [0],
                    "options": [],
                    **command,
                    "id": str(command_id),
                    "application_id": str(APPLICATION_ID),
                    "version": str(self._new_id()),
                    "type": kind,
                    **({"guild_id": str(guild_id)} if guild_id is not None else {}),
                }
            )
        self._scopes[guild_id] = stored
        return stored

    def in_scope(self, guild_id: int | None) -> list[JSON]:
        return self._scopes.get(guild_id, [])

    def as_dict(self) -> dict[str, Any]:
        return {
            "global": self.in_scope(None),
            "guilds": {guild_id: commands for guild_id, commands in self._scopes.items() if guild_id is not None},
        }

    def find(self, name: str, guild_id: int) -> tuple[JSON, int | None]:
        """A chat-input command visible in the guild; guild commands shadow global ones of the same name."""
        for scope in (guild_id, None):
            for command in self.in_scope(scope):
                if command["name"] == name and command["type"] == CHAT_INPUT:
                    return command, scope
        known = sorted({c["name"] for scope in (guild_id, None) for c in self.in_scope(scope)})
        hint = ", ".join(f"/{n}" for n in known) if known else "none: has the bot synced its commands?"
        raise EmulatorError(f"unknown command /{name} (known: {hint})")


@dataclass
class Invocation:
    command: JSON
    guild_id: int | None  # set only for guild-scoped commands: discord.py looks the command up by it
    path: list[str]  # command, then group and subcommand names
    options: list[JSON]
    resolved: JSON = field(default_factory=dict)

    @property
    def label(self) -> str:
        return "/" + " ".join(self.path)

    def data(self) -> JSON:
        data: JSON = {
            "id": self.command["id"],
            "name": self.command["name"],
            "type": CHAT_INPUT,
            "options": self.options,
        }
        if self.resolved:
            data["resolved"] = self.resolved
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


def split_line(line: str) -> tuple[str, list[str]]:
    """'/league create name:"Tuesday Night"' → ('league', ['create', 'name:Tuesday Night'])."""
    lexer = shlex.shlex(line.strip(), posix=True)
    lexer.whitespace_split = True
    lexer.quotes = '"'  # apostrophes stay literal: "don't" is a word, not an open quote
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError as exc:
        raise EmulatorError(f"cannot read {line!r}: {exc}") from None
    if not tokens or not tokens[0].startswith("/") or len(tokens[0]) == 1:
        raise EmulatorError(f"a command starts with '/name', got {line!r}")
    return tokens[0][1:], tokens[1:]


def parse_line(
    line: str,
    registry: CommandRegistry,
    resolver: Resolver,
    *,
    focused: str | None = None,
    autocomplete: bool = False,
    respect_default_permissions: bool = True,
) -> Invocation:
    """Parse a typed line; for autocomplete the focused option defaults to the last one typed."""
    name, tokens = split_line(line)
    command, scope = registry.find(name, resolver.guild.id)
    path, leaf = [name], command
    while tokens and _subcommands(leaf) and not _OPTION_TOKEN.match(tokens[0]):
        leaf = _child(leaf, tokens.pop(0), path)
        path.append(leaf["name"])
    values: dict[str, Any] = {}
    last: str | None = None
    for token in tokens:
        match = _OPTION_TOKEN.match(token)
        if match:
            last = match.group(1)
            if last in values:
                raise EmulatorError(f"option {last!r} given twice")
            values[last] = match.group(2)
        elif last is not None and values[last] == "":
            values[last] = token  # 'name: value' typed with a space
        elif last is not None and _option(leaf, last, path)["type"] == OptionType.STRING:
            values[last] += " " + token  # an unquoted text value with spaces: keep reading it
        else:
            raise EmulatorError(f"expected name:value, got {token!r} (quote values with spaces or ':')")
    if autocomplete and focused is None:
        focused = last
    return build_invocation(
        command,
        scope,
        path,
        values,
        resolver,
        focused=focused,
        autocomplete=autocomplete,
        respect_default_permissions=respect_default_permissions,
    )


def build_invocation(
    command: JSON,
    scope: int | None,
    path: list[str],
    values: Mapping[str, Any],
    resolver: Resolver,
    *,
    focused: str | None = None,
    autocomplete: bool = False,
    respect_default_permissions: bool = True,
) -> Invocation:
    """Options for `path` (command, group, subcommand) from values that are text or emulator objects."""
    if respect_default_permissions:
        _check_can_see(command, resolver.guild, resolver.member)
    leaf = command
    for depth, name in enumerate(path[1:], start=1):
        leaf = _child(leaf, name, path[:depth])
    if _subcommands(leaf):
        names = ", ".join(o["name"] for o in leaf["options"])
        raise EmulatorError(f"/{' '.join(path)} needs a subcommand: {names}")
    # Discord sends no resolved data with autocomplete: resolve into a scratch copy.
    picks = replace(resolver, resolved={}) if autocomplete else resolver
    known = {o["name"] for o in leaf.get("options", [])}
    for name in values:
        if name not in known:
            listed = ", ".join(sorted(known)) or "none"
            raise EmulatorError(f"unknown option {name!r} for /{' '.join(path)} (options: {listed})")
    if autocomplete and (focused is None or not _option(leaf, focused, path).get("autocomplete")):
        raise EmulatorError(f"option {focused!r} of /{' '.join(path)} has no autocomplete")
    leaf_options = []
    for schema in leaf.get("options", []):
        name = schema["name"]
        if name == focused and autocomplete:
            leaf_options.append(
                {"type": schema["type"], "name": name, "value": str(values.get(name, "")), "focused": True}
            )
        elif name in values:
            value = _convert(schema, values[name], picks)
            leaf_options.append({"type": schema["type"], "name": name, "value": value})
        elif schema.get("required") and not autocomplete:
            raise EmulatorError(f"/{' '.join(path)} is missing required option {name!r}")
    return Invocation(command, scope, path, _nest(leaf_options, path, command), {} if autocomplete else picks.resolved)


def _nest(leaf_options: list[JSON], path: list[str], command: JSON) -> list[JSON]:
    """Wrap leaf options in their subcommand (and group) the way Discord nests them."""
    nodes = []
    node = command
    for name in path[1:]:
        node = next(o for o in node["options"] if o["name"] == name)
        nodes.append(node)
    options = leaf_options
    for node in reversed(nodes):
        options = [{"type": node["type"], "name": node["name"], "options": options}]
    return options


def _subcommands(node: JSON) -> bool:
    return any(o["type"] in SUBCOMMAND_TYPES for o in node.get("options", []))


def _child(node: JSON, name: str, path: list[str]) -> JSON:
    for option in node.get("options", []):
        if option["name"] == name and option["type"] in SUBCOMMAND_TYPES:
            return option
    names = ", ".join(o["name"] for o in node.get("options", []))
    raise EmulatorError(f"unknown subcommand {name!r} for /{' '.join(path)} (subcommands: {names})")


def _option(node: JSON, name: str, path: list[str]) -> JSON:
    for option in node.get("options", []):
        if option["name"] == name:
            return option
    raise EmulatorError(f"unknown option {name!r} for /{' '.join(path)}")


def _check_can_see(command: JSON, guild: Guild, member: Member) -> None:
    """Discord hides a command from members lacking its default_member_permissions (admins see all)."""
    required = command.get("default_member_permissions")
    if required is None:
        return
    granted = guild.permissions_of(member)
    needed = int(required)
    if granted & Permission.ADMINISTRATOR or (needed and granted & needed == needed):
        return
    raise EmulatorError(
        f"{member.name} cannot use /{command['name']}: Discord hides it from members without "
        f"permissions {needed} (set Emulator.respect_default_permissions = False to model an override)"
    )


def _convert(schema: JSON, raw: Any, resolver: Resolver) -> Any:
    kind = OptionType(schema["type"])
    name = schema["name"]
    if isinstance(raw, str) and raw == "":
        raise EmulatorError(f"option {name!r} needs a value")
    if schema.get("choices"):
        return _choice(schema, raw)
    if kind is OptionType.STRING:
        text = str(raw)
        low, high = schema.get("min_length", 0), schema.get("max_length", 6000)
        if not low <= len(text) <= high:
            raise EmulatorError(f"option {name!r} must be {low}–{high} characters long")
        return text
    if kind in (OptionType.INTEGER, OptionType.NUMBER):
        return _number(schema, raw, kind)
    if kind is OptionType.BOOLEAN:
        return _boolean(name, raw)
    if kind is OptionType.USER:
        return resolver.user(raw)
    if kind is OptionType.ROLE:
        return resolver.role(raw)
    if kind is OptionType.MENTIONABLE:
        return resolver.mentionable(raw)
    if kind is OptionType.CHANNEL:
        return resolver.channel(raw, schema.get("channel_types") or ())
    if kind is OptionType.ATTACHMENT:
        return resolver.attachment(raw)
    raise EmulatorError(f"option {name!r} has a type the emulator cannot fill: {kind}")


def _choice(schema: JSON, raw: Any) -> Any:
    text = str(raw)
    for choice in schema["choices"]:
        if text.casefold() == choice["name"].casefold() or text == str(choice["value"]):
            return choice["value"]
    names = ", ".join(c["name"] for c in schema["choices"])
    raise EmulatorError(f"option {schema['name']!r} must be one of: {names}")


def _number(schema: JSON, raw: Any, kind: OptionType) -> int | float:
    name = schema["name"]
    try:
        if isinstance(raw, bool):
            raise ValueError
        value: int | float = int(raw) if kind is OptionType.INTEGER else float(raw)
    except (TypeError, ValueError):
        expected = "an integer" if kind is OptionType.INTEGER else "a number"
        raise EmulatorError(f"option {name!r} must be {expected}, got {raw!r}") from None
    low = schema.get("min_value", -_MAX_SAFE_INTEGER)
    high = schema.get("max_value", _MAX_SAFE_INTEGER)
    if not low <= value <= high:
        raise EmulatorError(f"option {name!r} must be between {low} and {high}, got {value}")
    return value


def _boolean(name: str, raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    words = {"true": True, "yes": True, "false": False, "no": False}
    try:
        return words[str(raw).casefold()]
    except KeyError:
        raise EmulatorError(f"option {name!r} must be true/false/yes/no, got {raw!r}") from None


def _validate_command(command: JSON, where: str) -> None:
    """The checks Discord applies on PUT, so a schema it would reject fails here too."""
    kind = command.get("type", CHAT_INPUT)
    name = command.get("name", "")
    if not _NAME.match(name) or (kind == CHAT_INPUT and name != name.lower()):
        raise ApiError.invalid_form(
            f"{where}.name", f"Command name {name!r} is invalid", "APPLICATION_COMMAND_INVALID_NAME"
        )
    if kind == CHAT_INPUT and not 1 <= len(command.get("description", "")) <= 100:
        raise ApiError.invalid_form(
            f"{where}.description", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
        )
    _validate_options(command.get("options") or [], f"{where}.options", SUBCOMMAND_TYPES)
    if _size(command) > MAX_COMMAND_SIZE:
        raise ApiError.invalid_form(
            where, f"Command exceeds maximum size ({MAX_COMMAND_SIZE})", "APPLICATION_COMMAND_TOO_LARGE"
        )


def _size(node: JSON) -> int:
    """What Discord counts towards a command's 8,000 characters: names, descriptions and choices, nested."""
    own = len(node.get("name", "")) + len(node.get("description", ""))
    choices = sum(len(c["name"]) + len(str(c["value"])) for c in node.get("choices") or [])
    return own + choices + sum(_size(option) for option in node.get("options") or [])


def _validate_options(options: list[JSON], where: str, nestable: tuple[OptionType, ...]) -> None:
    """`nestable`: the subcommand types allowed here (a group holds subcommands, a subcommand holds neither)."""
    if len(options) > 25:
        raise ApiError.invalid_form(where, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    subcommands = [option["type"] in SUBCOMMAND_TYPES for option in options]
    in_group = nestable == (OptionType.SUB_COMMAND,)  # a group holds subcommands only
    if not all(subcommands) and (any(subcommands) or in_group):
        raise ApiError.invalid_form(
            where,
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
        )
    seen_optional = False
    names = set()
    for index, option in enumerate(options):
        here = f"{where}.{index}"
        if option["name"] in names or not _NAME.match(option["name"]):
            raise ApiError.invalid_form(
                f"{here}.name",
                "Option names must be unique and valid",
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
            )
        names.add(option["name"])
        if option.get("required"):
            if seen_optional:
                raise ApiError.invalid_form(
                    f"{here}.required",
                    "Required options must be placed before non-required options",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                )
        else:
            seen_optional = True
        if not 1 <= len(option.get("description", "")) <= 100:
            raise ApiError.invalid_form(
                f"{here}.description", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
            )
        if option["type"] in SUBCOMMAND_TYPES and option["type"] not in nestable:
            raise ApiError.invalid_form(
                f"{here}.type", "Sub-commands nest at most two levels deep", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"
            )
        if len(option.get("choices") or []) > 25:
            raise ApiError.invalid_form(f"{here}.choices", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for number, choice in enumerate(option.get("choices") or []):
            if not 1 <= len(choice.get("name", "")) <= 100:
                raise ApiError.invalid_form(
                    f"{here}.choices.{number}.name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
                )
            if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
                raise ApiError.invalid_form(
                    f"{here}.choices.{number}.value", "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH"
                )
        if option.get("choices") and option.get("autocomplete"):
            raise ApiError.invalid_form(
                f"{here}.autocomplete", "Autocomplete cannot be set with choices", "AUTOCOMPLETE_WITH_CHOICES"
            )
        if option["type"] in SUBCOMMAND_TYPES:
            inner = (OptionType.SUB_COMMAND,) if option["type"] == OptionType.SUB_COMMAND_GROUP else ()
            _validate_options(option.get("options") or [], f"{here}.options", inner)
