"""/roster: captains put their team's roster together and change it (TEAM-ROSTER-*)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render.team.roster import roster_embed
from bot.services.players import Member
from bot.services.team.rosters import parse_day
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, bot_of, matching, replies

ROLE_CHOICES = [
    app_commands.Choice(name="starter", value="starter"),
    app_commands.Choice(name="reserve", value="reserve"),
    app_commands.Choice(name="captain (also a starter)", value="captain"),
]
EFFECTIVE = "The date it takes effect, YYYY-MM-DD (default today; same-day changes close at 4 PM)"


async def team_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    league = getattr(interaction.namespace, "league", None)
    return matching(await bot_of(interaction).services.rosters.team_names(interaction.guild_id or 0, league), current)


def _member(member: discord.Member | discord.User) -> Member:
    return Member(user_id=member.id, display_name=member.display_name, is_bot=member.bot)


@app_commands.guild_only()
class RosterCommands(commands.GroupCog, group_name="roster", group_description="Team rosters"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="add", description="Add a player to a team's roster (captains)")
    @app_commands.describe(
        team="The team",
        member="The member joining",
        role="Starter, reserve or captain",
        adult="You confirm they are an adult (the league is 18+); once per player, fix later with /roster edit",
        ifpa_rank="Their current IFPA world rank, if ranked (top-500/top-150 limits apply)",
        effective=EFFECTIVE,
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(role=ROLE_CHOICES)
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def add(
        self,
        interaction: discord.Interaction,
        team: str,
        member: discord.Member,
        role: app_commands.Choice[str],
        adult: bool = False,
        ifpa_rank: int | None = None,
        effective: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.rosters.add(
            actor_from(interaction),
            league,
            team_name=team,
            member=_member(member),
            role=role.value,
            effective=parse_day(effective),
            ifpa_rank=ifpa_rank,
            adult=adult,
        )
        return Reply(embeds=[roster_embed(view, headline=f"➕ {member.display_name} added as {role.value}.")])

    @app_commands.command(name="drop", description="Drop a player from a team's roster (captains)")
    @app_commands.describe(team="The team", member="The player leaving", effective=EFFECTIVE, league=LEAGUE_OPTION)
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def drop(
        self,
        interaction: discord.Interaction,
        team: str,
        member: discord.Member,
        effective: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.rosters.drop(
            actor_from(interaction), league, team_name=team, member_id=member.id, effective=parse_day(effective)
        )
        return Reply(embeds=[roster_embed(view, headline=f"➖ {member.display_name} dropped.")])

    @app_commands.command(name="role", description="Make a player a starter, reserve or captain (captains)")
    @app_commands.describe(
        team="The team", member="The player", role="Their new role", effective=EFFECTIVE, league=LEAGUE_OPTION
    )
    @app_commands.choices(role=ROLE_CHOICES)
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def role(
        self,
        interaction: discord.Interaction,
        team: str,
        member: discord.Member,
        role: app_commands.Choice[str],
        effective: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.rosters.set_role(
            actor_from(interaction),
            league,
            team_name=team,
            member_id=member.id,
            role=role.value,
            effective=parse_day(effective),
        )
        return Reply(embeds=[roster_embed(view, headline=f"🔁 {member.display_name} is now {role.value}.")])

    @app_commands.command(
        name="edit", description="Correct a rostered player's adult record, no drop needed (captains)"
    )
    @app_commands.describe(
        team="The team",
        member="The player on its roster",
        adult="True: they are an adult (the league is 18+); False: withdraw a wrong confirmation",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def edit(
        self,
        interaction: discord.Interaction,
        team: str,
        member: discord.Member,
        adult: bool,
        league: LeagueOption = None,
    ) -> Reply:
        view = await self.bot.services.rosters.set_adult(
            actor_from(interaction), league, team_name=team, member_id=member.id, adult=adult
        )
        if adult:
            headline = f"✏️ {member.display_name} is now recorded as an adult."
        else:
            headline = (
                f"✏️ {member.display_name} is no longer recorded as an adult. Minors may not take part "
                "(TEAM-ROSTER-11): drop them with `/roster drop`, or record `adult:true` once they confirm."
            )
        return Reply(embeds=[roster_embed(view, headline=headline)])

    @app_commands.command(name="submit", description="Submit a team's first roster: 6–12 players, checked as a whole")
    @app_commands.describe(
        team="The team", effective="The date it takes effect, YYYY-MM-DD (default today)", league=LEAGUE_OPTION
    )
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=False)
    async def submit(
        self, interaction: discord.Interaction, team: str, effective: str | None = None, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.rosters.submit(
            actor_from(interaction), league, team_name=team, effective=parse_day(effective)
        )
        return Reply(embeds=[roster_embed(view, headline="✅ Roster submitted.")], ephemeral=False)

    @app_commands.command(name="show", description="Show a team's roster")
    @app_commands.describe(team="The team", on="The date to show, YYYY-MM-DD (default today)", league=LEAGUE_OPTION)
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def show(
        self, interaction: discord.Interaction, team: str, on: str | None = None, league: LeagueOption = None
    ) -> Reply:
        view = await self.bot.services.rosters.show(actor_from(interaction), league, team_name=team, on=parse_day(on))
        return Reply(embeds=[roster_embed(view)])


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(RosterCommands(bot))
