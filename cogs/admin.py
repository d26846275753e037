"""/admin: the commissioner's tools — discipline, overrides, the audit trail and the machine-issue log.

Every subcommand is for commissioners (server admins and the league's official roles); the services check it.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import LeagueBot
from bot.interactions import Reply
from bot.render import admin as render
from bot.rules.discipline import INCIDENT_CATEGORIES
from bot.rules.team.model import Side
from bot.services.audit_log import AuditFilter
from bot.services.team.match_access import GameRef
from bot.services.team.overrides import Overridden
from cogs._shared import LEAGUE_OPTION, LeagueOption, actor_from, replies, venue_autocomplete
from cogs.team.match import MATCH_OPTION, SIDE_CHOICES, match_autocomplete, venue_machine_autocomplete
from cogs.team.schedule import team_autocomplete
from cogs.team.views import publish_scoreboard
from cogs.venue import STATUS_CHOICES

REASON = "Why (required; kept in the audit trail)"
RULE = "The rule it falls under, e.g. TEAM-DISC-1 (optional)"
INCIDENT = "The conduct incident this decides (its number)"
INCIDENT_CHOICES = [app_commands.Choice(name=c.replace("_", " "), value=c) for c in INCIDENT_CATEGORIES]
FORFEIT_CHOICES = [*SIDE_CHOICES, app_commands.Choice(name="none (clear the forfeit)", value="none")]


@app_commands.guild_only()
class AdminCommands(commands.GroupCog, group_name="admin", group_description="Commissioner tools"):
    def __init__(self, bot: LeagueBot) -> None:
        self.bot = bot

    # --- discipline (TEAM-DISC-1..4) ----------------------------------------------------------------

    @app_commands.command(
        name="warn", description="Warn a player (conduct) or a team (ignored written rules) (commissioners)"
    )
    @app_commands.describe(
        member="The player to warn", team="The team to warn (TEAM-DISC-4)", reason=REASON, rule=RULE,
        incident=INCIDENT, league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def warn(
        self, interaction: discord.Interaction, reason: app_commands.Range[str, 1, 500],
        member: discord.Member | None = None, team: str | None = None, rule: str | None = None,
        incident: int | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.discipline.warn(
            actor_from(interaction), league, member_id=member.id if member else None, team_name=team,
            reason=reason, rule_id=rule, incident_id=incident,
        )  # fmt: skip
        return Reply(render.recorded(done, "is warned"))

    @app_commands.command(
        name="suspend", description="Suspend a player until a date or the end of the season (commissioners)"
    )
    @app_commands.describe(
        member="The player", reason=REASON, until="Last day of the suspension, YYYY-MM-DD (default: season end)",
        rule=RULE, incident=INCIDENT, league=LEAGUE_OPTION,
    )  # fmt: skip
    @replies(ephemeral=True)
    async def suspend(
        self, interaction: discord.Interaction, member: discord.Member, reason: app_commands.Range[str, 1, 500],
        until: str | None = None, rule: str | None = None, incident: int | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.discipline.suspend(
            actor_from(interaction), league, member_id=member.id, reason=reason, until=until, rule_id=rule,
            incident_id=incident,
        )  # fmt: skip
        return Reply(render.recorded(done, "is suspended"))

    @app_commands.command(name="lift", description="Lift a player's suspension (commissioners)")
    @app_commands.describe(member="The player", reason=REASON, league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def lift(
        self, interaction: discord.Interaction, member: discord.Member, reason: app_commands.Range[str, 1, 500],
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.discipline.lift(
            actor_from(interaction), league, member_id=member.id, reason=reason
        )
        return Reply(f"🔓 {done.subject}'s suspension (ruling #{done.entry.id}) is lifted: {reason}")

    @app_commands.command(name="expel", description="Expel a player from the league, permanently (commissioners)")
    @app_commands.describe(member="The player", reason=REASON, incident=INCIDENT, league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def expel(
        self, interaction: discord.Interaction, member: discord.Member, reason: app_commands.Range[str, 1, 500],
        incident: int | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.discipline.expel(
            actor_from(interaction), league, member_id=member.id, reason=reason, incident_id=incident
        )
        return Reply(render.recorded(done, "is expelled"))

    @app_commands.command(name="incident", description="Record a conduct incident to investigate (commissioners)")
    @app_commands.describe(
        member="The player", category="What kind of incident", description="What happened", league=LEAGUE_OPTION
    )
    @app_commands.choices(category=INCIDENT_CHOICES)
    @replies(ephemeral=True)
    async def incident(
        self, interaction: discord.Interaction, member: discord.Member, category: app_commands.Choice[str],
        description: app_commands.Range[str, 1, 1000], league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        opened = await self.bot.services.discipline.report_incident(
            actor_from(interaction), league, member_id=member.id, category=category.value,
            description=description,
        )  # fmt: skip
        return Reply(
            f"🔎 Incident #{opened.id} ({category.name}) about {member.display_name} is under investigation. "
            f"Decide it with `/admin warn|suspend|expel … incident:{opened.id}`, or `/admin dismiss`."
        )

    @app_commands.command(name="dismiss", description="Close a conduct incident without a sanction (commissioners)")
    @app_commands.describe(incident="The incident's number", reason=REASON, league=LEAGUE_OPTION)
    @replies(ephemeral=True)
    async def dismiss(
        self, interaction: discord.Interaction, incident: int, reason: app_commands.Range[str, 1, 500],
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        await self.bot.services.discipline.dismiss(actor_from(interaction), league, incident_id=incident, reason=reason)
        return Reply(f"📁 Incident #{incident} dismissed: {reason}")

    @app_commands.command(name="history", description="A player's or a team's discipline record (commissioners)")
    @app_commands.describe(member="The player", team="The team", league=LEAGUE_OPTION)
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | None = None, team: str | None = None,
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        record = await self.bot.services.discipline.history(
            actor_from(interaction), league, member_id=member.id if member else None, team_name=team
        )
        return Reply(embeds=[render.history_embed(record)])

    # --- audit trail and machine log (COMMON-MALF-1) -------------------------------------------------

    @app_commands.command(
        name="audit", description="Who changed what, when and how; filter, or export as CSV (commissioners)"
    )
    @app_commands.describe(
        member="Changes about this player", team="Changes about this team or its matches", match=MATCH_OPTION,
        since="From this day, YYYY-MM-DD", until="Through this day, YYYY-MM-DD", export="Attach every entry as CSV",
        league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @app_commands.autocomplete(team=team_autocomplete)
    @replies(ephemeral=True)
    async def audit(
        self, interaction: discord.Interaction, member: discord.Member | None = None, team: str | None = None,
        match: int | None = None, since: str | None = None, until: str | None = None, export: bool = False,
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        wanted = AuditFilter(member.id if member else None, team, match, since, until)
        trail = await self.bot.services.audit_log.trail(actor_from(interaction), league, wanted)
        # A season's trail takes a second or more to write and zip: off the event loop, so the deferral that
        # keeps the interaction alive past Discord's 3 s still goes out.
        files = [await asyncio.to_thread(render.audit_csv, trail)] if export else []
        return Reply(render.audit_text(trail), files=files)

    @app_commands.command(
        name="machine-log", description="The machine-issue log as CSV, for venue operators (commissioners)"
    )
    @app_commands.describe(venue="Only this venue", league=LEAGUE_OPTION)
    @app_commands.autocomplete(venue=venue_autocomplete)
    @replies(ephemeral=True)
    async def machine_log(
        self, interaction: discord.Interaction, venue: str | None = None, league: LeagueOption = None
    ) -> Reply:
        log = await self.bot.services.machine_log.log(actor_from(interaction), league, venue_name=venue)
        return Reply(render.machine_log_text(log), files=[render.machine_log_csv(log)])

    # --- overrides (COMMON-ROLE-1, COMMON-SCORE-3) ---------------------------------------------------

    override = app_commands.Group(name="override", description="Correct a fact, with a reason (commissioners)")

    async def _overridden(self, interaction: discord.Interaction, done: Overridden) -> Reply:
        if done.board is not None:
            await publish_scoreboard(self.bot, interaction, done.board)
        return Reply(f"✏️ Override recorded: {done.summary}. Standings follow from the corrected facts.")

    @override.command(
        name="score", description="Correct a player's score in a game; settles a dispute if named (commissioners)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, round="Round 1–4", game="Game number in the round", member="Whose score",
        score="The correct score", reason=REASON, dispute="The dispute this rules on (its number)",
        league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def override_score(
        self, interaction: discord.Interaction, match: int, round: app_commands.Range[int, 1, 4],
        game: app_commands.Range[int, 1, 4], member: discord.Member, score: str,
        reason: app_commands.Range[str, 1, 500], dispute: int | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.overrides.score(
            actor_from(interaction), league, GameRef(match, round, game), member_id=member.id,
            score=score, reason=reason, dispute_id=dispute,
        )  # fmt: skip
        return await self._overridden(interaction, done)

    @override.command(name="lineup", description="Put one player in another's seat in a declared game (commissioners)")
    @app_commands.describe(
        match=MATCH_OPTION, round="Round 1–4", game="Game number in the round", out="The player listed",
        replacement="The player who really played", reason=REASON, league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def override_lineup(
        self, interaction: discord.Interaction, match: int, round: app_commands.Range[int, 1, 4],
        game: app_commands.Range[int, 1, 4], out: discord.Member, replacement: discord.Member,
        reason: app_commands.Range[str, 1, 500], league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.overrides.lineup(
            actor_from(interaction), league, GameRef(match, round, game),
            out_member_id=out.id, in_member_id=replacement.id, reason=reason,
        )  # fmt: skip
        return await self._overridden(interaction, done)

    @override.command(
        name="attendance", description="Record that a player was there (and when) or was not (commissioners)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, member="The player", present="Was there", arrived="Arrival time HH:MM (league time)",
        reason=REASON, league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def override_attendance(
        self, interaction: discord.Interaction, match: int, member: discord.Member, present: bool,
        reason: app_commands.Range[str, 1, 500], arrived: str | None = None, league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.overrides.attendance(
            actor_from(interaction), league, match, member_id=member.id, present=present, arrived=arrived,
            reason=reason,
        )  # fmt: skip
        return await self._overridden(interaction, done)

    @override.command(name="forfeit", description="Set or clear the team that forfeits a match (commissioners)")
    @app_commands.describe(match=MATCH_OPTION, side="The forfeiting team, or none", reason=REASON, league=LEAGUE_OPTION)
    @app_commands.choices(side=FORFEIT_CHOICES)
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def override_forfeit(
        self, interaction: discord.Interaction, match: int, side: app_commands.Choice[str],
        reason: app_commands.Range[str, 1, 500], league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        forfeiting = None if side.value == "none" else Side(side.value)
        done = await self.bot.services.overrides.forfeit(
            actor_from(interaction), league, match, side=forfeiting, reason=reason
        )
        return await self._overridden(interaction, done)

    @override.command(
        name="result", description="Sign a match for a captain who will not, or reopen a signed one (commissioners)"
    )
    @app_commands.describe(
        match=MATCH_OPTION, final="True: sign it final · False: reopen it for corrections", reason=REASON,
        league=LEAGUE_OPTION,
    )  # fmt: skip
    @app_commands.autocomplete(match=match_autocomplete)
    @replies(ephemeral=True)
    async def override_result(
        self, interaction: discord.Interaction, match: int, final: bool, reason: app_commands.Range[str, 1, 500],
        league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.overrides.result(
            actor_from(interaction), league, match, final=final, reason=reason
        )
        return await self._overridden(interaction, done)

    @override.command(
        name="machine", description="Change a machine's status with a reason; goes in the machine log (commissioners)"
    )
    @app_commands.describe(
        machine="The machine (type to search)", status="Its new status", reason=REASON, league=LEAGUE_OPTION
    )
    @app_commands.choices(status=STATUS_CHOICES)
    @app_commands.autocomplete(machine=venue_machine_autocomplete)
    @replies(ephemeral=True)
    async def override_machine(
        self, interaction: discord.Interaction, machine: int, status: app_commands.Choice[str],
        reason: app_commands.Range[str, 1, 500], league: LeagueOption = None,
    ) -> Reply:  # fmt: skip
        done = await self.bot.services.overrides.machine(
            actor_from(interaction), league, machine_id=machine, status=status.value, reason=reason
        )
        return await self._overridden(interaction, done)


async def setup(bot: LeagueBot) -> None:
    await bot.add_cog(AdminCommands(bot))
