"""/league: start a league, name its commissioners, show its setup."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import formats
from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render import setup as render
from bot.render.exchange import ROSTER_NEXT_STEP, import_report
from bot.rules import zones
from bot.rules.refusals import InvalidInput
from cogs._shared import LEAGUE_OPTION, MAX_CHOICES, LeagueOption, actor_from, bot_of, effective_autocomplete, replies

IMPORT_KINDS = [
    app_commands.Choice(
        name="rosters — team, discord_id, name, role[, ifpa_number, ifpa_rank, adult]", value="rosters"
    ),
    app_commands.Choice(name="machines — venue, model[, variant, players, balls, address]", value="machines"),
]
IMPORT_MAX_BYTES = 1_000_000

FORMAT_CHOICES = [app_commands.Choice(name=fmt.choice, value=fmt.name) for fmt in formats.registered()]


async def timezone_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Region zones labelled for people ("US Eastern (New York) · America/New_York"); the service re-checks."""
    return [
        app_commands.Choice(name=choice.label[:100], value=choice.zone)
        for choice in zones.zone_choices(current, MAX_CHOICES)
    ]


@app_commands.guild_only()
class LeagueCommands(commands.GroupCog, group_name="league", group_description="Set up and view a league"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    @app_commands.command(name="create", description="Start a new league in this server (server admins)")
    @app_commands.describe(
        name="The league's name, e.g. Tuesday Night Pinball",
        format="How the league plays",
        timezone="Time zone of the league's city, e.g. America/New_York (team/ladder default to the bot's zone)",
        commissioner_role="Members with this role may change the league's setup",
    )
    @app_commands.choices(format=FORMAT_CHOICES)
    @app_commands.autocomplete(timezone=timezone_autocomplete)
    @replies(ephemeral=False)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        format: app_commands.Choice[str],
        timezone: str | None = None,
        commissioner_role: discord.Role | None = None,
    ) -> Reply:
        league = await self.bot.services.leagues.create(
            actor_from(interaction),
            name=name,
            league_format=format.value,
            timezone=timezone,
            commissioner_role_id=commissioner_role.id if commissioner_role else None,
        )
        return Reply(render.league_created(league), ephemeral=False)

    @app_commands.command(
        name="config",
        description="Who commissions the league, how scores are typed (commissioners); alone: options' history",
    )
    @app_commands.describe(
        commissioner_role="Members with this role may change the league's setup",
        add_official_role="Another role whose members are commissioners too",
        remove_official_role="Stop treating this extra role as commissioners",
        allow_shorthand="Accept scores typed like 45.2M, 1.2B or 450k (off by default: exact scores only)",
        score_ceiling="The highest score accepted, e.g. 99,999,999,999; higher entries are refused as typos",
        use_ratings="Put the players' ratings to use: seeded groups, or a roster's mean rating (off by default)",
        effective="The change applies from this date, YYYY-MM-DD (default: the next week not yet played)",
        league=LEAGUE_OPTION,
    )
    @app_commands.autocomplete(effective=effective_autocomplete)
    @replies(ephemeral=True)
    async def config(
        self,
        interaction: discord.Interaction,
        commissioner_role: discord.Role | None = None,
        add_official_role: discord.Role | None = None,
        remove_official_role: discord.Role | None = None,
        allow_shorthand: bool | None = None,
        score_ceiling: str | None = None,
        use_ratings: bool | None = None,
        effective: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:
        if use_ratings is not None:
            others = (commissioner_role, add_official_role, remove_official_role, allow_shorthand, score_ceiling)
            if any(option is not None for option in others):
                raise InvalidInput("Change `use_ratings` on its own: one `/league config` command for it alone.")
            rated = await self.bot.services.leagues.set_use_ratings(
                actor_from(interaction), league, use=use_ratings, effective=effective
            )
            return Reply(render.use_ratings_set(rated))
        if allow_shorthand is not None or score_ceiling is not None:
            if commissioner_role or add_official_role or remove_official_role:
                raise InvalidInput("Change the roles and the score entry in two separate `/league config` commands.")
            result = await self.bot.services.leagues.set_score_input(
                actor_from(interaction),
                league,
                allow_shorthand=allow_shorthand,
                score_ceiling=score_ceiling,
                effective=effective,
            )
            return Reply(render.score_input_set(result))
        if effective is not None:
            raise InvalidInput(
                "`effective` dates an option change: give `allow_shorthand`, `score_ceiling` or `use_ratings`."
            )
        if not (commissioner_role or add_official_role or remove_official_role):
            return Reply(render.options_over_time(await self.bot.services.leagues.options_over_time(
                actor_from(interaction), league
            )))  # fmt: skip
        changed = await self.bot.services.leagues.set_official_roles(
            actor_from(interaction),
            league,
            commissioner_role_id=commissioner_role.id if commissioner_role else None,
            add_role_id=add_official_role.id if add_official_role else None,
            remove_role_id=remove_official_role.id if remove_official_role else None,
        )
        lines = []
        if commissioner_role:
            lines.append(f"Commissioners of **{changed.name}** are now members with {commissioner_role.mention}.")
        if add_official_role:
            lines.append(f"Members with {add_official_role.mention} are commissioners too.")
        if remove_official_role:
            lines.append(f"Members with {remove_official_role.mention} are no longer extra commissioners.")
        return Reply("⚙️ " + " ".join(lines) + " Server admins always are.")

    @app_commands.command(name="show", description="Show a league's venues, machines, teams and players")
    @app_commands.describe(league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def show(self, interaction: discord.Interaction, league: LeagueOption = None) -> Reply:
        setup = await bot_of(interaction).services.leagues.setup(actor_from(interaction), league)
        return Reply(embeds=[render.setup_embed(setup)])

    @app_commands.command(
        name="import", description="Import rosters or machines from a spreadsheet CSV (commissioners)"
    )
    @app_commands.describe(
        kind="What the file lists",
        file="The spreadsheet saved as CSV (UTF-8), first line = column names",
        dry_run="Only check every row and list the problems; import nothing",
        league=LEAGUE_OPTION,
    )
    @app_commands.choices(kind=IMPORT_KINDS)
    @replies(ephemeral=True)
    async def import_csv(
        self,
        interaction: discord.Interaction,
        kind: app_commands.Choice[str],
        file: discord.Attachment,
        dry_run: bool = False,
        league: LeagueOption = None,
    ) -> Reply:
        if file.size > IMPORT_MAX_BYTES:
            raise InvalidInput(f"`file` is {file.size:,} bytes; the limit is {IMPORT_MAX_BYTES:,}. Split it.")
        report = await self.bot.services.spreadsheets.import_csv(
            actor_from(interaction),
            league,
            kind=kind.value,
            content=await file.read(),
            file=file.filename,
            dry_run=dry_run,
        )
        next_step = ROSTER_NEXT_STEP if kind.value == "rosters" else None
        return Reply(import_report(report, next_step=next_step))


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(LeagueCommands(bot))
