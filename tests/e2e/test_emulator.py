"""The Discord emulator, exercised through the real discord.py client with a throwaway bot."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Literal

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.local.emulator import Emulator, EmulatorError, point_discord_at

VENUES = ["Ace Arcade", "Acme Pins", "Bar Louie"]


class ProbeTree(app_commands.CommandTree["ProbeBot"]):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        self.client.command_errors.put_nowait(error.__cause__ or error)


class ProbeBot(commands.Bot):
    """A small bot with one command per Discord feature the emulator must carry."""

    def __init__(self, guild_id: int) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, tree_cls=ProbeTree)
        self.guild = discord.Object(guild_id)
        self.seen: dict[str, Any] = {}  # what command callbacks received, for assertions
        self.command_errors: asyncio.Queue[BaseException] = asyncio.Queue()
        add_probe_commands(self)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.guild)


class VoteView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Yes", custom_id="vote:yes", style=discord.ButtonStyle.success)
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button[VoteView]) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} voted yes", view=None)

    @discord.ui.select(custom_id="vote:pick", options=[discord.SelectOption(label=v, value=v[:3]) for v in VENUES])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[VoteView]) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class DisputeModal(discord.ui.Modal, title="Dispute a score"):
    reason: discord.ui.TextInput[DisputeModal] = discord.ui.TextInput(label="Reason", custom_id="reason")
    note: discord.ui.TextInput[DisputeModal] = discord.ui.TextInput(label="Note", custom_id="note", required=False)
    machine: discord.ui.Label[DisputeModal] = discord.ui.Label(
        text="Machine",
        component=discord.ui.Select(custom_id="machine", options=[discord.SelectOption(label="Medieval Madness")]),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        picked = self.machine.component.values  # type: ignore[attr-defined]
        text = f"dispute: {self.reason.value} / {self.note.value!r} on {picked}"
        await interaction.response.send_message(text, ephemeral=True)


def add_probe_commands(bot: ProbeBot) -> None:
    tree, guild = bot.tree, bot.guild

    @tree.command(guild=guild)
    async def ping(interaction: discord.Interaction) -> None:
        """Plain reply."""
        await interaction.response.send_message("pong")

    @tree.command(guild=guild)
    async def secret(interaction: discord.Interaction) -> None:
        """Ephemeral reply."""
        await interaction.response.send_message("for your eyes only", ephemeral=True)

    @tree.command(guild=guild)
    async def card(interaction: discord.Interaction) -> None:
        """Embed reply."""
        embed = discord.Embed(title="Standings", description="Week 3").add_field(name="Flippers", value="12")
        await interaction.response.send_message(embed=embed)

    @tree.command(guild=guild)
    async def slow(interaction: discord.Interaction) -> None:
        """Defers, works, then follows up twice."""
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.2)
        await interaction.followup.send("computed")
        await interaction.followup.send("and a footnote", ephemeral=True)

    @tree.command(guild=guild)
    async def draft(interaction: discord.Interaction) -> None:
        """Replies, then edits the reply."""
        await interaction.response.send_message("draft")
        await interaction.edit_original_response(content="final")

    @tree.command(guild=guild)
    async def export(interaction: discord.Interaction) -> None:
        """Replies with a file."""
        await interaction.response.send_message("here", file=discord.File(io.BytesIO(b"a,b\n1,2\n"), "scores.csv"))

    @tree.command(guild=guild)
    async def announce(interaction: discord.Interaction, text: str) -> None:
        """Posts a channel message elsewhere."""
        channel = discord.utils.get(interaction.guild.text_channels, name="announcements")  # type: ignore[union-attr]
        await channel.send(text)  # type: ignore[union-attr]
        await interaction.response.send_message("posted", ephemeral=True)

    @tree.command(guild=guild)
    async def sleepy(interaction: discord.Interaction) -> None:
        """Answers after Discord's 3-second window."""
        await asyncio.sleep(3.5)
        await interaction.response.send_message("too late")

    @tree.command(guild=guild)
    async def essay(interaction: discord.Interaction) -> None:
        """Tries a reply over Discord's 2000-character limit."""
        try:
            await interaction.response.send_message("x" * 2001)
        except discord.HTTPException as error:
            await interaction.response.send_message(f"refused with {error.code}: {error.text}")

    @tree.command(guild=guild)
    @app_commands.default_permissions(manage_guild=True)
    async def purge(interaction: discord.Interaction) -> None:
        """Admins only, by default."""
        await interaction.response.send_message("purged")

    @tree.command(guild=guild)
    async def vote(interaction: discord.Interaction) -> None:
        """A message with a button and a select."""
        await interaction.response.send_message("vote?", view=VoteView())

    @tree.command(guild=guild)
    async def dispute(interaction: discord.Interaction) -> None:
        """Opens a modal."""
        await interaction.response.send_modal(DisputeModal())

    @tree.command(guild=guild)
    async def upload(interaction: discord.Interaction, sheet: discord.Attachment) -> None:
        """Reads an uploaded file."""
        await interaction.response.send_message(f"{sheet.filename}: {(await sheet.read()).decode()}")

    @tree.command(guild=guild)
    @app_commands.describe(venue="Where the machine is")
    async def machine(interaction: discord.Interaction, venue: str, name: str | None = None) -> None:
        """Autocompletes venues."""
        await interaction.response.send_message(f"{name} at {venue}")

    @machine.autocomplete("venue")
    async def venue_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=v, value=v) for v in VENUES if v.lower().startswith(current.lower())]

    league = app_commands.Group(name="league", description="League admin", guild_ids=[guild.id])
    season = app_commands.Group(name="season", description="Seasons", parent=league)

    @season.command(name="start")
    async def season_start(
        interaction: discord.Interaction,
        weeks: app_commands.Range[int, 1, 20],
        public: bool,
        captain: discord.Member,
        role: discord.Role,
        channel: discord.TextChannel,
        format: Literal["team", "ladder", "field"],
        rate: app_commands.Range[float, 0.5, 2.0] = 1.0,
    ) -> None:
        """Starts a season."""
        bot.seen["season_start"] = dict(
            weeks=weeks, public=public, captain=captain, role=role, channel=channel, format=format, rate=rate
        )
        await interaction.response.send_message(f"{format} season of {weeks} weeks, captain {captain.name}")

    tree.add_command(league)


@pytest.fixture(scope="module")
async def emu_server() -> AsyncIterator[Emulator]:
    emu = Emulator()
    await emu.start()
    previous = point_discord_at(emu.api_url, emu.gateway_url)
    yield emu
    point_discord_at(*previous)
    await emu.stop()


@pytest.fixture(scope="module")
async def emu_bot(emu_server: Emulator) -> AsyncIterator[ProbeBot]:
    bot = ProbeBot(emu_server.guild.id)
    runner = asyncio.create_task(bot.start(emu_server.token))
    await emu_server.wait_until_ready()
    yield bot
    await bot.close()
    await runner


async def test_commands_synced_with_ids(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    synced = emu_server.commands["guilds"][emu_server.guild.id]
    assert {"ping", "league", "machine"} <= {c["name"] for c in synced}
    assert all(c["id"] and c["guild_id"] == str(emu_server.guild.id) for c in synced)
    assert emu_server.commands["global"] == []


async def test_plain_ephemeral_and_embed_replies(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    plain = await emu_server.run("/ping", as_member="carol")
    assert [o.kind for o in plain.outputs] == ["response"]
    assert plain.content == "pong" and not plain.ephemeral and not plain.deferred
    assert 0 < plain.ack_latency < 1  # type: ignore[operator]

    hidden = await emu_server.run("/secret", as_member="carol")
    assert hidden.ephemeral and hidden.content == "for your eyes only"

    embed = await emu_server.run("/card")
    assert embed.embeds[0]["title"] == "Standings"
    assert embed.text() == "Standings\nWeek 3\nFlippers: 12"

    general = [m.content for m in emu_server.messages_in("general")]
    assert "pong" in general and "for your eyes only" not in general


async def test_deferred_command_collects_followups(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    result = await emu_server.run("/slow")
    assert result.deferred
    assert [o.kind for o in result.outputs] == ["deferred", "followup", "followup"]
    first, second = result.outputs[1:]
    # The first followup resolves the "thinking…" message; the next one is a new message.
    assert first.message_id == result.outputs[0].message_id and first.content == "computed"
    assert second.ephemeral and second.message_id != first.message_id
    assert result.content == "and a footnote"
    assert result.text() == "computed\nand a footnote"


async def test_edit_original_and_file_reply(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    edited = await emu_server.run("/draft")
    assert [o.kind for o in edited.outputs] == ["response", "edit"]
    assert edited.content == "final"
    assert [m.content for m in emu_server.messages_in("general") if m.message_id == edited.message_id] == ["final"]

    exported = await emu_server.run("/export")
    attachment = exported.outputs[0].attachments[0]
    assert (attachment.filename, attachment.content_type, attachment.data) == ("scores.csv", "text/csv", b"a,b\n1,2\n")
    assert exported.outputs[0].as_dict()["attachments"] == ["scores.csv"]


async def test_channel_message_is_attributed_to_the_command(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    result = await emu_server.run('/announce text:"League night is Tuesday"', as_member="alice")
    assert {(o.kind, o.channel) for o in result.outputs} == {("message", "announcements"), ("response", "general")}
    assert emu_server.messages_in("announcements")[-1].content == "League night is Tuesday"


async def test_typed_options_and_resolved_objects(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    line = "/league season start weeks:12 public:yes captain:@bob role:@Captain channel:#scores format:Ladder rate:1.5"
    result = await emu_server.run(line, as_member="alice")
    assert result.content == "ladder season of 12 weeks, captain bob"
    seen = emu_bot.seen["season_start"]
    assert isinstance(seen["captain"], discord.Member) and seen["captain"].id == emu_server.member("bob").id
    assert [r.name for r in seen["captain"].roles] == ["@everyone", "Captain"]
    assert isinstance(seen["role"], discord.Role) and seen["role"].name == "Captain"
    assert seen["channel"].name == "scores"
    assert (seen["weeks"], seen["public"], seen["format"], seen["rate"]) == (12, True, "ladder", 1.5)


async def test_structured_invoke(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    options = {
        "weeks": 3,
        "public": False,
        "captain": emu_server.member("dan"),
        "role": "Commissioner",
        "channel": "general",
        "format": "team",
    }
    result = await emu_server.invoke(["league", "season", "start"], options, as_member="owner")
    assert result.content == "team season of 3 weeks, captain dan"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/nope", "unknown command /nope"),
        ("/league season stop", "unknown subcommand 'stop'"),
        ("/league", "needs a subcommand"),
        ("/machine venue:x colour:red", "unknown option 'colour'"),
        ("/league season start weeks:3", "missing required option 'public'"),
        ("/league season start weeks:many public:yes", "must be an integer"),
        ("/league season start weeks:21 public:yes", "between 1 and 20"),
        ("/league season start weeks:2 public:maybe", "true/false/yes/no"),
        ("/league season start weeks:2 public:no captain:@zed", "no member '@zed'"),
        ("/league season start weeks:2 public:no captain:bob role:x channel:general format:golf", "no role 'x'"),
        ('/announce text:"unclosed', "cannot read"),
    ],
)
async def test_lines_discord_would_refuse(emu_server: Emulator, emu_bot: ProbeBot, line: str, message: str) -> None:
    with pytest.raises(EmulatorError, match=message):
        await emu_server.run(line)


async def test_choice_must_be_listed(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    line = "/league season start weeks:2 public:no captain:bob role:Captain channel:general format:golf"
    with pytest.raises(EmulatorError, match="must be one of: team, ladder, field"):
        await emu_server.run(line)


async def test_autocomplete(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    choices = await emu_server.autocomplete("/machine venue:Ac")
    assert [c["value"] for c in choices] == ["Ace Arcade", "Acme Pins"]
    choices = await emu_server.autocomplete("/machine name:Medieval venue:b", focused="venue")
    assert [c["name"] for c in choices] == ["Bar Louie"]


async def test_attachment_option_is_served_over_http(emu_server: Emulator, emu_bot: ProbeBot, tmp_path: Path) -> None:
    sheet = tmp_path / "week3.txt"
    sheet.write_text("alice 1,234,560")
    result = await emu_server.run(f'/upload sheet:"{sheet}"')
    assert result.content == "week3.txt: alice 1,234,560"


async def test_button_and_select(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    posted = await emu_server.run("/vote", as_member="erin")
    assert posted.outputs[0].components[0]["components"][0]["custom_id"] == "vote:yes"

    picked = await emu_server.click(posted, "vote:pick", values=["Bar Louie"])
    assert picked.content == "picked Bar" and picked.ephemeral

    clicked = await emu_server.click(posted.message_id, "vote:yes", as_member="dan")  # type: ignore[arg-type]
    assert [o.kind for o in clicked.outputs] == ["edit"]
    assert clicked.content == "dan voted yes" and clicked.outputs[0].components == []
    with pytest.raises(EmulatorError, match="no component"):
        await emu_server.click(posted, "vote:yes")


async def test_modal(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    opened = await emu_server.run("/dispute", as_member="bob")
    assert opened.modal is not None and opened.modal["title"] == "Dispute a score"
    with pytest.raises(EmulatorError, match="'reason' is required"):
        await emu_server.submit_modal(opened, {"note": "x", "machine": "Medieval Madness"})
    submitted = await emu_server.submit_modal(opened, {"reason": "wrong machine", "machine": "Medieval Madness"})
    assert submitted.content == "dispute: wrong machine / '' on ['Medieval Madness']" and submitted.ephemeral


async def test_three_second_rule(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    with pytest.raises(EmulatorError, match=r"no response within 3\.0s to /sleepy"):
        await emu_server.run("/sleepy", timeout=5)
    error = await asyncio.wait_for(emu_bot.command_errors.get(), timeout=2)
    assert isinstance(error, discord.NotFound) and error.code == 10062


async def test_rest_errors_look_like_discord(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu_server.token}"}) as http:
        async with http.get(f"{emu_server.api_url}/channels/1/messages/2") as response:
            assert response.status == 404 and response.headers["Content-Type"] == "application/json"
            assert (await response.json())["code"] == 10003
        async with http.get(f"{emu_server.api_url}/voice/regions") as response:
            assert response.status == 404 and "unsupported GET /voice/regions" in (await response.json())["message"]
    async with aiohttp.ClientSession() as anonymous, anonymous.get(f"{emu_server.api_url}/users/@me") as response:
        assert response.status == 401


async def test_discord_limits_are_enforced(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    result = await emu_server.run("/essay")
    assert result.content.startswith("refused with 50035: Invalid Form Body")
    assert "content: Must be 2000 or fewer in length." in result.content


async def test_default_member_permissions_hide_commands(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    assert (await emu_server.run("/purge", as_member="owner")).content == "purged"
    with pytest.raises(EmulatorError, match="carol cannot use /purge"):
        await emu_server.run("/purge", as_member="carol")
    emu_server.respect_default_permissions = False  # a server admin overrode the default
    try:
        assert (await emu_server.run("/purge", as_member="carol")).content == "purged"
    finally:
        emu_server.respect_default_permissions = True


async def test_double_acknowledgement_between_two_clients(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    """Two processes on one token both receive the interaction; the slower callback gets 40060."""
    twin = ProbeBot(emu_server.guild.id)
    runner = asyncio.create_task(twin.start(emu_server.token))
    try:
        await emu_server.wait_until_ready(timeout=5, sessions=2)
        result = await emu_server.run("/ping")
        assert [o.kind for o in result.outputs] == ["response"]
        losers = [emu_bot.command_errors.get(), twin.command_errors.get()]
        done, pending = await asyncio.wait(
            [asyncio.ensure_future(c) for c in losers], timeout=2, return_when=asyncio.FIRST_COMPLETED
        )
        for task in pending:
            task.cancel()
        error = done.pop().result()
        assert isinstance(error, discord.HTTPException) and error.code == 40060
    finally:
        await twin.close()
        await runner


async def test_resume_after_reconnect_request(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    resumed = asyncio.Event()

    async def on_resumed() -> None:
        resumed.set()

    emu_bot.add_listener(on_resumed)
    emu_server.request_reconnect()
    await asyncio.wait_for(resumed.wait(), timeout=5)
    emu_bot.remove_listener(on_resumed)
    assert (await emu_server.run("/ping")).content == "pong"


async def test_member_and_role_changes_reach_the_bot(emu_server: Emulator, emu_bot: ProbeBot) -> None:
    joined = asyncio.Event()

    async def on_member_join(member: discord.Member) -> None:
        joined.set()

    emu_bot.add_listener(on_member_join)
    emu_server.add_role("Scorekeeper")
    dave = emu_server.add_member("dave", roles=["Captain"])
    emu_server.grant_role("dave", "Scorekeeper")
    await asyncio.wait_for(joined.wait(), timeout=2)
    emu_bot.remove_listener(on_member_join)
    line = "/league season start weeks:1 public:no captain:dave role:Scorekeeper channel:general format:field"
    await emu_server.run(line, as_member="alice")
    guild = emu_bot.get_guild(emu_server.guild.id)
    assert guild is not None and guild.get_member(dave.id) is not None
    assert {r.name for r in guild.get_member(dave.id).roles} == {"@everyone", "Captain", "Scorekeeper"}  # type: ignore[union-attr]


async def test_restart_reconnects_and_keeps_commands() -> None:
    async with Emulator() as emu:
        previous = point_discord_at(emu.api_url, emu.gateway_url)
        try:
            for expected_sessions in (1, 2):
                bot = ProbeBot(emu.guild.id)
                runner = asyncio.create_task(bot.start(emu.token))
                await emu.wait_until_ready(timeout=5)
                assert (await emu.run("/ping")).content == "pong"
                assert len(emu.gateway.sessions) == expected_sessions
                await bot.close()
                await runner
            with pytest.raises(EmulatorError, match="no bot is connected"):
                await emu.run("/ping")
        finally:
            point_discord_at(*previous)
