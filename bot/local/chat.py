"""`pinleague local`: the real bot against the local Discord emulator, driven from a terminal or a script.

Lines starting with `/` are slash commands typed by the acting member; `@name /command …` types one as
someone else; lines starting with `:` control the emulated world (see HELP); `#` starts a comment.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import shlex
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from bot.client import LeagueBot
from bot.clock import ManualClock
from bot.discord_endpoints import point_discord_at
from bot.local import controls, kept_members
from bot.local.controls import ChatError
from bot.local.demo import DEMO_ACTOR, DEMO_SETUP
from bot.local.emulator import Emulator, EmulatorError, InteractionResult, Output
from bot.local.screen import render_output
from bot.runtime import migrated_database
from bot.settings import Settings

HELP = """\
  /command option:value …     type a slash command as the acting member (quote values with spaces)
  @name /command … | @name :click LABEL    one command or click as another member
  :as NAME                     act as NAME from now on          :in CHANNEL   type in that channel
  :members                     list members and their roles      :channels     list channels
  :member add NAME [ROLE …]    add a member (roles: Commissioner, Captain, Admin, or any you add)
  :role NAME ROLE / :unrole NAME ROLE    give or take a role
  :click LABEL                 press the button LABEL on the newest message you see that has it
  :pick MENU OPTION …          pick OPTIONs in the menu whose placeholder is MENU, on the newest message with it
  :fill LABEL=VALUE … | :fill VALUE …    fill and send the form the bot opened for you: by field label, or
                               in the fields' order; fields you leave out keep what the form shows;
                               a file upload (📷 photo) takes a file's path: :fill … photo=~/display.jpg
  :complete /command option:partial      show the suggestions the bot offers while typing that option
  (labels, menus, options and fields match by any unique beginning, in any case: :click "Enter R1 G2")
  :clock                       show the emulated time
  :clock +2h30m | +3d | YYYY-MM-DD HH:MM [ZONE]   move the clock forward (scheduled posts follow it)
  :help   :quit"""

_DURATION = re.compile(r"^\+(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$")


class LocalChat:
    """One emulated Discord server with the real bot connected to it."""

    def __init__(self, settings: Settings, *, db_url: str | None, attachments: Path | None = None) -> None:
        self._temp = None if db_url else tempfile.TemporaryDirectory(prefix="pinleague-local-")
        self.db_url = db_url or f"sqlite+aiosqlite:///{Path(self._temp.name) / 'local.db'}"  # type: ignore[union-attr]
        self._members_file = kept_members.members_file(db_url) if db_url else None
        self._added_members: list[str] = []
        self.attachments = attachments
        self._saved_attachments: set[int] = set()
        self._open_forms: dict[str, Output] = {}  # member name → the form the bot opened for them last
        self.settings = settings
        self.clock = ManualClock()
        self.emulator = Emulator(guild_name="Pinball Club")
        self.acting = DEMO_ACTOR
        self.channel = "general"
        self._bot: LeagueBot | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._database = AsyncExitStack()  # the migrated database, closed after the bot

    async def start(self) -> None:
        if self._members_file is not None:  # before the bot connects, so its GUILD_CREATE lists them
            self._added_members = kept_members.restore(self.emulator, self._members_file)
        await self.emulator.start()
        point_discord_at(self.emulator.api_url, self.emulator.gateway_url)
        db = await self._database.enter_async_context(migrated_database(self.db_url))
        settings = self.settings.model_copy(update={"dev_guild_id": self.emulator.guild.id})
        # The emulator starts with no commands, so this bot always syncs.
        self._bot = LeagueBot(settings, db, self.clock, force_sync=True, guild_ready_timeout=0.05)
        self._bot.report_interactions_done(self.emulator.interaction_done)
        self._bot_task = asyncio.create_task(self._bot.start(self.emulator.token))
        ready = asyncio.create_task(self.emulator.wait_until_ready(timeout=30))
        done, _ = await asyncio.wait({ready, self._bot_task}, return_when=asyncio.FIRST_COMPLETED)
        if self._bot_task in done:
            ready.cancel()
            self._bot_task.result()  # raises why the bot stopped
            raise ChatError("the bot stopped before it was ready")
        ready.result()
        await self._bot.wait_until_ready()  # its gateway session is known once it has read READY
        assert self._bot.ws is not None and self._bot.ws.session_id is not None
        self.emulator.reports_done_from(self._bot.ws.session_id)

    async def close(self) -> None:
        if self._bot is not None:
            await self._bot.close()
        if self._bot_task is not None:
            await asyncio.gather(self._bot_task, return_exceptions=True)
        await self.emulator.stop()
        await self._database.aclose()
        if self._temp is not None:
            self._temp.cleanup()

    async def execute(self, line: str) -> tuple[list[Output], str | None]:
        """Carry out one line: the bot's outputs, and the chat's own note (for `:` lines)."""
        line = line.strip()
        if not line or line.startswith("#"):
            return [], None
        member = self.acting
        if line.startswith("@"):
            name, _, line = line[1:].partition(" ")
            member, line = name, line.strip()
        word, _, rest = line.partition(" ")
        actions = {":click": self._click, ":pick": self._pick, ":fill": self._fill, ":complete": self._complete}
        if word in actions:
            seen = len(self.emulator.outputs)
            try:
                result = await actions[word](rest.strip(), member)
            except EmulatorError as exc:
                raise ChatError(str(exc)) from None
            return await self._settled(result.outputs, seen), None
        if line.startswith(":clock ") and self._bot is not None:
            # Scheduled posts follow the emulated clock: whatever fell due by the new time goes out now.
            note, seen = self._control(line[1:]), len(self.emulator.outputs)
            await self._bot.posts.catch_up()
            return self.emulator.outputs[seen:], note
        if line.startswith(":"):
            return [], self._control(line[1:])
        if not line.startswith("/"):
            raise ChatError("commands start with / (or : for the chat's own commands; :help lists them)")
        seen = len(self.emulator.outputs)
        try:
            result = await self.emulator.run(line, as_member=member, channel=self.channel)
        except EmulatorError as exc:
            raise ChatError(str(exc)) from None
        return await self._settled(result.outputs, seen), None

    async def _settled(self, outputs: list[Output], seen: int) -> list[Output]:
        """An interaction's outputs and then the scoreboard edits it caused, which the bot publishes after
        replying (as they appear in Discord a moment after the reply). A form it opened is kept for `:fill`."""
        if self._bot is not None:
            await self._bot.scoreboards.flush()
        for output in outputs:
            if output.kind == "modal" and output.interaction_id is not None:
                self._open_forms[self.emulator.interactions[output.interaction_id].member.name] = output
        mine = {id(output) for output in outputs}
        return outputs + [o for o in self.emulator.outputs[seen:] if id(o) not in mine]

    async def _click(self, label: str, member: str) -> InteractionResult:
        """Press the button with this label on the newest bot message showing one."""
        label = " ".join(_words(label))
        output, button = controls.newest_with(
            self.emulator, member, label, lambda o: controls.buttons(o.components), "label", "button"
        )
        return await self.emulator.click(output.message_id or 0, button["custom_id"], as_member=member)

    async def _pick(self, rest: str, member: str) -> InteractionResult:
        """Pick options in the menu with this placeholder on the newest message showing it."""
        words = _words(rest)
        if len(words) < 2:
            raise ChatError('usage: :pick MENU OPTION … (the menu by its placeholder, e.g. :pick Confirm "R2 G1")')
        output, menu = controls.newest_with(
            self.emulator, member, words[0], lambda o: controls.menus(o.components), "placeholder", "menu"
        )
        values = controls.picked_values(menu, words[1:])
        return await self.emulator.click(output.message_id or 0, menu["custom_id"], as_member=member, values=values)

    async def _fill(self, rest: str, member: str) -> InteractionResult:
        """Fill and send the form the bot opened for `member` last."""
        form = self._open_forms.get(self.emulator.member(member).name)
        if form is None or form.modal is None:
            raise ChatError(f"no form is open for {member}: press the button that opens one (:click LABEL)")
        values = controls.fill(form.modal, _words(rest))
        result = await self.emulator.submit_modal(form, values, as_member=member)
        del self._open_forms[self.emulator.member(member).name]  # sent: Discord closes the form
        return result

    async def _complete(self, line: str, member: str) -> InteractionResult:
        """The suggestions for the option being typed, as an autocomplete interaction's result."""
        if not line.startswith("/"):
            raise ChatError("usage: :complete /command option:partial")
        seen = len(self.emulator.outputs)
        await self.emulator.autocomplete(line, as_member=member, channel=self.channel)
        outputs = self.emulator.outputs[seen:]
        return InteractionResult(outputs[0].interaction_id or 0, outputs, None, deferred=False)

    def save_attachments(self, outputs: list[Output]) -> list[Path]:
        """Write the files the bot sent into the attachments folder, each once: the paths written."""
        if self.attachments is None:
            return []
        self.attachments.mkdir(parents=True, exist_ok=True)
        saved = []
        for attachment in (a for o in outputs for a in o.attachments if a.id not in self._saved_attachments):
            self._saved_attachments.add(attachment.id)
            path = self.attachments / f"{attachment.id}-{Path(attachment.filename).name}"
            path.write_bytes(attachment.data)
            saved.append(path)
        return saved

    def _control(self, line: str) -> str:
        words = _words(line)
        if not words:
            raise ChatError("type :help for the chat's commands")
        command, args = words[0].lower(), words[1:]
        handlers: dict[str, Callable[[list[str]], str]] = {
            "as": self._act_as,
            "in": self._type_in,
            "members": lambda _: self._members(),
            "channels": lambda _: ", ".join(f"#{c.name}" for c in self.emulator.guild.channels),
            "member": self._member,
            "role": lambda a: self._role(a, grant=True),
            "unrole": lambda a: self._role(a, grant=False),
            "clock": self._clock,
            "help": lambda _: HELP,
        }
        if command not in handlers:
            raise ChatError(f"unknown chat command :{command}; :help lists them")
        try:
            return handlers[command](args)
        except EmulatorError as exc:
            raise ChatError(str(exc)) from None

    def _act_as(self, args: list[str]) -> str:
        if len(args) != 1:
            raise ChatError("usage: :as NAME")
        self.acting = self.emulator.member(args[0]).name
        return f"now acting as {self.acting}"

    def _type_in(self, args: list[str]) -> str:
        if len(args) != 1:
            raise ChatError("usage: :in CHANNEL")
        self.channel = self.emulator.channel(args[0].lstrip("#")).name
        return f"now typing in #{self.channel}"

    def _members(self) -> str:
        lines = []
        for member in self.emulator.guild.members:
            guild = self.emulator.guild
            roles = ", ".join(guild.role_by_id(role_id).name for role_id in member.role_ids) or "no roles"
            lines.append(f"  {member.name}: {roles}")
        return "\n".join(lines)

    def _member(self, args: list[str]) -> str:
        if len(args) < 2 or args[0] != "add":
            raise ChatError("usage: :member add NAME [ROLE …]")
        member = self.emulator.add_member(args[1], roles=args[2:])
        self._added_members.append(member.name)
        self._keep_members()
        return f"{member.name} joined the server"

    def _keep_members(self) -> None:
        if self._members_file is not None:
            kept_members.save(self.emulator, self._members_file, self._added_members)

    def _role(self, args: list[str], *, grant: bool) -> str:
        if len(args) != 2:
            raise ChatError(f"usage: :{'role' if grant else 'unrole'} NAME ROLE")
        (self.emulator.grant_role if grant else self.emulator.revoke_role)(args[0], args[1])
        self._keep_members()
        return f"{args[0]} {'now has' if grant else 'no longer has'} {args[1]}"

    def _clock(self, args: list[str]) -> str:
        if args and args[0].startswith("+"):
            self.clock.advance(parse_duration(args[0]))
        elif args:
            self.clock.set(parse_moment(args, self.clock.now()))
        return f"the time is {self.clock.now():%Y-%m-%d %H:%M} UTC"


def _words(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise ChatError(f"cannot read that line: {exc}") from None


def parse_duration(text: str) -> timedelta:
    match = _DURATION.match(text)
    if not match or not any(match.groups()):
        raise ChatError(f"{text!r} is not a duration like +2h30m, +3d or +45m")
    days, hours, minutes = (int(part or 0) for part in match.groups())
    return timedelta(days=days, hours=hours, minutes=minutes)


def parse_moment(words: list[str], now: datetime) -> datetime:
    zone = ZoneInfo(words[2]) if len(words) > 2 else ZoneInfo("UTC")
    try:
        moment = datetime.strptime(" ".join(words[:2]), "%Y-%m-%d %H:%M").replace(tzinfo=zone)
    except ValueError:
        raise ChatError("give the time as YYYY-MM-DD HH:MM, optionally followed by a zone") from None
    if moment < now:
        raise ChatError("the clock only moves forward")
    return moment


async def _lines(script: list[str] | None) -> AsyncIterator[str]:
    if script is not None:
        for line in script:
            yield line
        return
    loop = asyncio.get_running_loop()
    while True:
        try:
            line = await loop.run_in_executor(None, input, "> ")
        except EOFError:
            return
        if line.strip() in (":quit", ":q", ":exit"):
            return
        yield line


async def run_chat(
    settings: Settings,
    *,
    script: Path | None,
    as_json: bool,
    demo: bool,
    db_url: str | None,
    attachments: Path | None = None,
) -> int:
    try:
        script_lines = script.read_text(encoding="utf-8").splitlines() if script else None  # noqa: ASYNC240
    except OSError as exc:
        print(f"cannot read the script: {exc}")
        return 2
    chat = LocalChat(settings, db_url=db_url, attachments=attachments)
    failures = 0

    def emit(payload: dict[str, Any], text: str) -> None:
        print(json.dumps(payload, ensure_ascii=False) if as_json else text, flush=True)

    try:
        await chat.start()
        if demo:
            for line in DEMO_SETUP:
                # On a kept database the demo's members are back already (and its league refuses a second one).
                with contextlib.suppress(ChatError):
                    await chat.execute(f"@{DEMO_ACTOR} {line}")
            if not as_json:
                print(
                    'Demo league ready. Try /league show and /roster show team:"Flipper Kings", or :as bob '
                    "to act as that team's captain (/schedule generate needs a commissioner: :as alice)."
                )
        if script is None and not as_json:
            print(f"Connected to the emulated server {chat.emulator.guild.name!r} as {chat.acting}. :help for help.")
        number = 0
        async for line in _lines(script_lines):
            number += 1
            try:
                outputs, note = await chat.execute(line)
            except ChatError as exc:
                failures += 1
                emit({"kind": "error", "line": number, "message": str(exc)}, f"✖ {exc}")
                continue
            for output in outputs:
                emit(output.as_dict(), render_output(output))
            for path in chat.save_attachments(outputs):
                emit({"kind": "saved", "line": number, "path": str(path)}, f"📎 saved {path}")
            if note and not as_json:
                print(note)
    finally:
        await chat.close()
    return 1 if failures else 0
