"""/playoffs: seed the conference brackets from the final standings (TEAM-PO-1), schedule the later rounds at
neutral venues (TEAM-PO-4/5), and show the brackets."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply, answer
from bot.render.team.playoffs import next_round_embed, playoffs_embed, venue_choice
from bot.rules.refusals import Refusal
from cogs._shared import LEAGUE_OPTION, MAX_CHOICES, LeagueOption, actor_from, bot_of, replies


async def fixture_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The playoff matches waiting for a neutral venue."""
    try:
        waiting = await bot_of(interaction).services.playoffs.waiting(
            actor_from(interaction), getattr(interaction.namespace, "league", None)
        )
    except Refusal:
        return []  # autocomplete cannot explain; the command will
    typed = current.casefold().strip()
    return [app_commands.Choice(name=w.label[:100], value=w.key) for w in waiting if typed in w.label.casefold()][
        :MAX_CHOICES
    ]


async def neutral_venue_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The ranked venues (TEAM-PO-4) for the match in `fixture:`, or the first waiting one."""
    try:
        waiting = await bot_of(interaction).services.playoffs.waiting(
            actor_from(interaction), getattr(interaction.namespace, "league", None)
        )
    except Refusal:
        return []
    fixture = (getattr(interaction.namespace, "fixture", None) or "").casefold().strip()
    match = next((w for w in waiting if fixture in (w.key.casefold(), w.fixture.match_id.casefold())), waiting[0])
    typed = current.casefold().strip()
    return [
        app_commands.Choice(name=venue_choice(r), value=r.venue.name[:100])
        for r in match.ranking
        if typed in r.venue.name.casefold()
    ][:MAX_CHOICES]


@app_commands.guild_only()
class PlayoffCommands(commands.GroupCog, group_name="playoffs", group_description="The season's playoffs"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="seed", description="Seed the playoffs from the final standings (commissioners)")
    @app_commands.describe(
        start="First day of the first playoff week, YYYY-MM-DD (default: the day after the last regular match)",
        league=LEAGUE_OPTION,
    )
    @replies(ephemeral=False)
    async def seed(
        self, interaction: discord.Interaction, start: str | None = None, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.playoffs.seed(actor_from(interaction), league, start=start)
        headline = f"Seeded. {len(view.created)} first-round matches scheduled; the higher seed is HOME."
        return Reply(embeds=[playoffs_embed(view, headline=headline)], ephemeral=False)

    @app_commands.command(
        name="next", description="Rank neutral venues for the next round's matches and schedule one (commissioners)"
    )
    @app_commands.describe(
        venue="The neutral venue you chose from the ranking; leave empty to see the ranking",
        fixture="Which waiting match, e.g. East W2-1 (needed when several wait)",
        start="First day of the week it is played in, YYYY-MM-DD (default: the day after the round before ended)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(venue=neutral_venue_autocomplete, fixture=fixture_autocomplete)
    async def next_round(
        self,
        interaction: discord.Interaction,
        venue: str | None = None,
        fixture: str | None = None,
        start: str | None = None,
        league: LeagueOption = None,
    ) -> None:
        async def work() -> Reply:
            view = await self.bot.services.playoffs.next_round(
                actor_from(interaction), league, fixture=fixture, venue=venue, start=start
            )
            return Reply(embeds=[next_round_embed(view)], ephemeral=view.created is None)

        await answer(interaction, work(), ephemeral=venue is None)

    @app_commands.command(name="show", description="Show the playoff brackets")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def show(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        return Reply(embeds=[playoffs_embed(await self.bot.services.playoffs.show(actor_from(interaction), league))])


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(PlayoffCommands(bot))
