"""Messages and embeds for league setup. Pure: data in, text/Embed out."""

from __future__ import annotations

from datetime import date

import discord

from bot.rules.scores import ScoreInput, format_score
from bot.rules.seasons import postseason_undated
from bot.services.leagues import LeagueSetup, OptionsOverTime, ScoreInputSet, UseRatingsSet
from bot.services.seasons import NextSeason, SeasonShown
from bot.services.venues import VenueRecord
from storage.models import League, Machine, Player, Team, Venue

LEAGUE_COLOUR = discord.Colour.dark_teal()
EMBED_FIELD_MAX = 1024
EMBED_DESCRIPTION_MAX = 4096


def league_created(league: League) -> str:
    who = (
        f"Commissioners: members with <@&{league.commissioner_role_id}> and server admins."
        if league.commissioner_role_id
        else "Commissioners: server admins (name a role with `/league config commissioner_role:`)."
    )
    return (
        f"🏁 **{league.name}** is set up as a **{league.format.value}** league in {league.timezone}, "
        f"starting with Season 1.\n{who}\nNext: `/venue add`, `/machine add`, `/team create`, `/player register`."
    )


def use_ratings_set(result: UseRatingsSet) -> str:
    """Whether the league puts the ratings (`/ratings`) to use, what that changes in its format, and since when
    (COMMON-LEAGUE-2)."""
    history = "".join(f"\n• {line}" for line in result.history)
    name = result.league.name
    later = f" from {result.changed.since}" if result.changed.ahead else ""
    if result.use:
        head = f"⚙️ **{name}** {'uses' if later else 'now uses'} ratings{later}: {result.effect}."
        undo = "`/ratings` shows them; turn off with `/league config use_ratings:false`."
    else:
        head = f"⚙️ **{name}** {'stops using ratings' + later if later else 'no longer uses ratings'}."
        undo = "Turn it back on with `/league config use_ratings:true`."
    return f"{head} {result.changed.note()} {undo}{history}"


def season_started(started: NextSeason) -> str:
    """COMMON-SEASON-1: the new season, what it took over from the last one, and what to do next."""
    carried = ", ".join(f"{count} {what}" for what, count in started.carried.counts.items()) or "nothing"
    return (
        f"🗓️ **{started.season.name}** of **{started.league.name}** has started, after {started.last.label}.\n"
        f"Carried over: {carried}. {started.last.season.name} stays readable with `/standings season:"
        f"{started.last.season.number}`.\nNext: {started.carried.next_step}"
    )


def postseason_dated(shown: SeasonShown) -> str:
    """COMMON-SEASON-2: the post-season's first day, as the league reads it."""
    day = shown.season.postseason_on
    assert day is not None
    return f"🗓️ {shown.label}: the post-season starts **{day:%a %Y-%m-%d}**. It shows in `/league show`."


def postseason_line(shown: SeasonShown) -> str | None:
    """COMMON-SEASON-2 in `/league show`: the post-season's date, or the reminder once one is due."""
    if shown.season.postseason_on is not None:
        return f"Post-season from {shown.season.postseason_on:%a %Y-%m-%d}"
    if postseason_undated(shown.progress, None):
        return "The regular season is over: set the post-season's date with `/season postseason`"
    return None


def _score_entry(rules: ScoreInput) -> str:
    shorthand = (
        "shorthand like 45.2M, 1.2B or 450k is accepted and read exactly (45.2M = 45,200,000)"
        if rules.takes_shorthand
        else "scores are typed in full, e.g. 45,210,330, 45.210.330 or 45 210 330 (no shorthand)"
    )
    return f"{shorthand}; the highest score accepted is {format_score(rules.ceiling)}"


def options_over_time(view: OptionsOverTime) -> str:
    """`/league config` alone: today's score entry, and each option that changed with its values over time."""
    history = "".join(f"\n• {line}" for line in view.history) or " none has changed since the league began."
    return (
        f"⚙️ Score entry in **{view.league.name}** today: {_score_entry(view.rules)}.\nOptions over time "
        f"(COMMON-LEAGUE-2):{history}\nChange one with `/league config allow_shorthand:`, `score_ceiling:` or "
        "`use_ratings:`, or with your format's option command."
    )


def score_input_set(result: ScoreInputSet) -> str:
    """COMMON-AMB-3, COMMON-SCORE-1: how members of the league type scores from now on, and since when
    (COMMON-LEAGUE-2)."""
    history = "".join(f"\n• {line}" for line in result.history)
    today = _score_entry(result.rules)
    if result.changed.ahead:
        return (
            f"⚙️ Score entry in **{result.league.name}** changes from {result.changed.since}; until then "
            f"{today}.{history}"
        )
    return (
        f"⚙️ Score entry in **{result.league.name}**: {today}.\nIt applies to the next score anyone enters; scores "
        f"already stored are kept. {result.changed.note()}{history}"
    )


def venue_added(venue: Venue) -> str:
    where = f" — {venue.address}" if venue.address else ""
    return f"📍 Venue **{venue.name}**{where} added. Add its machines with `/machine add venue:{venue.name}`."


def venue_regular_set(venue: Venue) -> str:
    if venue.regular_league_venue:
        return f"📍 **{venue.name}** is a regular league venue: playoff venues are chosen among these."
    return f"📍 **{venue.name}** is not a regular league venue: playoff venue rankings leave it out."


def venue_record(record: VenueRecord) -> discord.Embed:
    """COMMON-VENUE-1: address, regular flag, home teams and every machine with the dates it was there."""
    venue = record.venue
    lines = [
        venue.address or "No address on record.",
        "Regular league venue." if venue.regular_league_venue else "Not a regular league venue.",
        f"Home of: {', '.join(record.home_teams)}." if record.home_teams else "No team's home venue.",
        "",
        "**Machines**" if record.machines else "No machines yet: add them with `/machine add`.",
    ]
    for stay in record.machines:
        dates = (
            f"{stay.installed:%Y-%m-%d} – {stay.removed:%Y-%m-%d} (removed)"
            if stay.removed
            else f"since {stay.installed:%Y-%m-%d}, {stay.machine.status.value.replace('_', ' ')}"
        )
        lines.append(f"{stay.machine.title} (#{stay.machine.id}) · {dates}")
    description = "\n".join(lines)
    if len(description) > EMBED_DESCRIPTION_MAX:
        description = description[: EMBED_DESCRIPTION_MAX - 1] + "…"
    return discord.Embed(title=venue.name, description=description, colour=LEAGUE_COLOUR)


def machine_removed(machine: Machine, venue: Venue, day: date) -> str:
    return (
        f"📦 **{machine.title}** (#{machine.id}) left {venue.name} on {day:%Y-%m-%d}. It stays in the venue's "
        "record (`/venue show`) and is no longer offered for play."
    )


def machine_added(machine: Machine, venue: Venue) -> str:
    return (
        f"🎰 **{machine.title}** (#{machine.id}) added at {venue.name}: "
        f"{machine.max_players}-player, {machine.balls_per_game}-ball, in service."
    )


def machine_status_changed(machine: Machine) -> str:
    state = "in service" if machine.status.in_service else "out of service"
    return f"🔧 **{machine.title}** (#{machine.id}) is now {machine.status.value.replace('_', ' ')} ({state})."


def team_created(team: Team, home_venue: str | None) -> str:
    home = f" with home venue {home_venue}" if home_venue else ""
    return f"🛡️ Team **{team.name}** created{home}."


def player_registered(player: Player, league_name: str) -> str:
    ifpa = ""
    if player.ifpa_number:
        rank = f", rank {player.ifpa_rank:,}" if player.ifpa_rank else ""
        ifpa = f" (IFPA #{player.ifpa_number}{rank})"
    return f"🙋 **{player.display_name}**{ifpa} is registered in {league_name}."


def setup_embed(setup: LeagueSetup) -> discord.Embed:
    league = setup.league
    embed = discord.Embed(
        title=league.name,
        description=" · ".join(
            part
            for part in (
                f"{league.format.value.title()} league",
                league.timezone,
                setup.season.label,
                postseason_line(setup.season),
            )
            if part
        ),
        colour=LEAGUE_COLOUR,
    )
    for venue_setup in setup.venues:
        lines = [_machine_line(machine) for machine in venue_setup.machines] or ["no machines yet"]
        embed.add_field(name=f"📍 {venue_setup.venue.name}", value=_fit(lines), inline=False)
    if not setup.venues:
        embed.add_field(name="Venues", value="none yet: `/venue add`", inline=False)
    teams = [f"{team.name}" + (f" ({home})" if home else "") for team, home in setup.teams]
    embed.add_field(name=f"Teams ({len(teams)})", value=_fit(teams) if teams else "none yet", inline=False)
    players = [player.display_name for player in setup.players]
    embed.add_field(
        name=f"Players ({len(players)})", value=_fit([", ".join(players)]) if players else "none yet", inline=False
    )
    return embed


def _machine_line(machine: Machine) -> str:
    mark = "✅" if machine.status.in_service else "❌"
    return f"{mark} {machine.title} · {machine.max_players}p · {machine.balls_per_game} balls · #{machine.id}"


def _fit(lines: list[str]) -> str:
    """Join lines into one embed field, cutting cleanly with a count of what was left out."""
    out: list[str] = []
    used = 0
    for index, line in enumerate(lines):
        more = f"\n… and {len(lines) - index} more"
        if used + len(line) + 1 + len(more) > EMBED_FIELD_MAX:
            out.append(more.strip())
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)
