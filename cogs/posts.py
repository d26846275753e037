"""/posts: where and when the league's scheduled posts go, and the commissioner's control over them; the roll
call's in / maybe / out buttons (persistent, answered after restarts)."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import channel_check
from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.posting import settings_embed, timing_text, upcoming_embed
from bot.render.posts import NIGHT_ROLL_CALL_ID, ROLL_CALL_ID, render_post, roll_call_embed, when
from bot.rules import posts as rules
from bot.rules.posts import RollCallAnswer
from bot.rules.refusals import InvalidInput
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, answer_component, bot_of, matching, replies

KIND_OPTION = "Which kind of post (type to search)"
ANSWER_WORDS = {RollCallAnswer.IN: "in", RollCallAnswer.MAYBE: "a maybe", RollCallAnswer.OUT: "out"}


async def kind_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return matching(sorted(rules.REGISTRY), current)


class RollCallButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"rollcall:(?P<m>\d+):(?P<a>in|out|maybe)"
):
    """In / Maybe / Out under a roll-call post (`bot.render.posts.ROLL_CALL_ID` makes the ids)."""

    def __init__(self, match_id: int, choice: RollCallAnswer) -> None:
        custom_id = ROLL_CALL_ID.format(match=match_id, answer=choice.value)
        super().__init__(discord.ui.Button(label=choice.value.capitalize(), custom_id=custom_id))
        self.match_id, self.choice = match_id, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RollCallButton:
        return cls(int(match["m"]), RollCallAnswer(match["a"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            bot = bot_of(interaction)
            roll_call = await bot.services.posts.answer_roll_call(actor_from(interaction), self.match_id, self.choice)
            if interaction.message is not None:
                with contextlib.suppress(discord.HTTPException):  # saved anyway; the next answer shows it
                    await interaction.message.edit(embed=roll_call_embed(roll_call.match))
            return Reply(
                f"Noted: you are {ANSWER_WORDS[self.choice]} for {roll_call.match.line.match.play_on:%a %-d %b}."
            )

        await answer_component(interaction, work(), ephemeral=True)


class NightRollCallButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"nightcall:(?P<n>\d+):(?P<a>in|out|maybe)"
):
    """In / Maybe / Out under a ladder or field night-day post (`bot.render.posts.NIGHT_ROLL_CALL_ID`)."""

    def __init__(self, night_id: int, choice: RollCallAnswer) -> None:
        custom_id = NIGHT_ROLL_CALL_ID.format(night=night_id, answer=choice.value)
        super().__init__(discord.ui.Button(label=choice.value.capitalize(), custom_id=custom_id))
        self.night_id, self.choice = night_id, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NightRollCallButton:
        return cls(int(match["n"]), RollCallAnswer(match["a"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> Reply:
            answered = await bot_of(interaction).services.night_roll_calls.answer(
                actor_from(interaction), self.night_id, self.choice
            )
            if interaction.message is not None and answered.post is not None:
                with contextlib.suppress(discord.HTTPException):  # saved anyway; the next answer shows it
                    await interaction.message.edit(embeds=render_post(answered.post).embeds)
            day = f"week {answered.week}, {answered.play_on:%a %-d %b}"
            noted = f"Noted: you are {ANSWER_WORDS[self.choice]} for {day}."
            return Reply(f"{noted} {answered.note}" if answered.note else noted)

        await answer_component(interaction, work(), ephemeral=True)


@app_commands.guild_only()
class PostCommands(commands.GroupCog, group_name="posts", group_description="The league's scheduled posts"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RollCallButton, NightRollCallButton)

    @app_commands.command(name="channels", description="Where posts go, and how late a missed post may still go out")
    @app_commands.describe(
        announcements="Reminders, roll calls, standings and brackets",
        scores="Missing-score nudges and dispute reminders",
        commissioners="Notices for commissioners (dispute windows closed, league events)",
        grace_minutes="How late a post may still go out after the bot was down (default 120)",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=True)
    async def channels(
        self,
        interaction: discord.Interaction,
        announcements: discord.TextChannel | None = None,
        scores: discord.TextChannel | None = None,
        commissioners: discord.TextChannel | None = None,
        grace_minutes: int | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        named = {
            rules.Channel.ANNOUNCEMENTS: announcements,
            rules.Channel.SCORES: scores,
            rules.Channel.COMMISSIONERS: commissioners,
        }
        posting = await self.bot.services.posts.set_channels(
            actor_from(interaction),
            league,
            {purpose: channel.id for purpose, channel in named.items() if channel is not None},
            grace_minutes=grace_minutes,
        )
        await self.bot.posts.rebuild(posting.league.id)
        problems = channel_check.problems(self.bot, posting)
        checked = channel_check.report(posting, problems) if problems else channel_check.ALL_GOOD
        return Reply(f"📬 Posting settings saved.\n{checked}", embeds=[settings_embed(posting)])

    @app_commands.command(name="set", description="Turn a kind of post on or off, or change its time (commissioners)")
    @app_commands.describe(
        kind=KIND_OPTION,
        enabled="Send this kind of post at all",
        at="Local time of day, e.g. 14:00",
        days="Days from its match day: -1 the day before, 1 the day after",
        hours="Hours after the event (dispute reminders)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(kind=kind_autocomplete)
    @replies(ephemeral=True)
    async def set_kind(
        self,
        interaction: discord.Interaction,
        kind: str,
        enabled: bool | None = None,
        at: str | None = None,
        days: int | None = None,
        hours: int | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        posting, chosen = await self.bot.services.posts.set_timing(
            actor_from(interaction), league, kind, enabled=enabled, at=at, days=days, hours=hours
        )
        await self.bot.posts.rebuild(posting.league.id)
        timing = posting.settings().timing(chosen)
        state = "on" if timing.enabled else "off"
        return Reply(f"📬 {chosen.title.capitalize()}: {state}, {timing_text(timing)}.")

    @app_commands.command(name="show", description="The league's posting settings (commissioners)")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def show(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        posting = await self.bot.services.posts.settings(actor_from(interaction), league)
        return Reply(embeds=[settings_embed(posting)])

    @app_commands.command(name="upcoming", description="The posts due in the next eight days (commissioners)")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def upcoming(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        view = await self.bot.services.posts.upcoming(actor_from(interaction), league)
        return Reply(embeds=[upcoming_embed(view)])

    @app_commands.command(name="preview", description="Show a post as it would look now, only to you (commissioners)")
    @app_commands.describe(kind=KIND_OPTION, league=LEAGUE_OPTION)
    @app_commands.autocomplete(kind=kind_autocomplete)
    @replies(ephemeral=True)
    async def preview(self, interaction: discord.Interaction, kind: str, league: LeagueOption = None) -> Reply:
        content = await self.bot.services.posts.preview(actor_from(interaction), league, kind)
        outgoing = render_post(content)
        post = content.post
        note = f"👀 Preview of `{post.kind}` `{post.period}` (due {when(post.local)})"
        text = f"{note}\n{outgoing.content}" if outgoing.content else note
        return Reply(text[:2000], embeds=outgoing.embeds, files=outgoing.files())

    @app_commands.command(name="pause", description="Stop the league's scheduled posts until resumed (commissioners)")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def pause(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        posting = await self.bot.services.posts.pause(actor_from(interaction), league, paused=True)
        await self.bot.posts.rebuild(posting.league.id)
        return Reply(f"⏸️ Scheduled posts of **{posting.league.name}** are paused. `/posts resume` restarts them.")

    @app_commands.command(name="resume", description="Restart the league's scheduled posts (commissioners)")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def resume(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        posting = await self.bot.services.posts.pause(actor_from(interaction), league, paused=False)
        await self.bot.posts.rebuild(posting.league.id)
        return Reply(
            f"▶️ Scheduled posts of **{posting.league.name}** are running again. Posts that fell due while "
            "paused are not sent; `/posts resend` sends one."
        )

    @app_commands.command(name="resend", description="Send a post that fell due once more (commissioners)")
    @app_commands.describe(
        kind=KIND_OPTION, period="The post's period, as `/posts upcoming` shows it", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(kind=kind_autocomplete)
    @replies(ephemeral=True)
    async def resend(
        self, interaction: discord.Interaction, kind: str, period: str, league: LeagueOption = None
    ) -> Reply:
        due = await self.bot.services.posts.resend(actor_from(interaction), league, kind, period)
        try:
            await self.bot.posts.resend(due)
        except discord.HTTPException as exc:
            raise InvalidInput(
                f"Discord refused the post in <#{due.channel_id}> ({exc.text or exc.status}). Check that the bot "
                "may send messages and attach files there."
            ) from None
        return Reply(f"📬 Sent `{due.post.kind}` `{due.post.period}` again in <#{due.channel_id}>.")


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(PostCommands(bot))
