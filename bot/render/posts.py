"""Scheduled posts as messages: text, embeds, images, roll-call buttons. Pure: content in, `Outgoing` out.

Mentions only where someone must act (captains before the cutoff or when short, the challenger before the
report deadline); everything else is a broadcast without pings. The team format's posts are rendered here, the
ladder's and the field's in `bot.render.ladder.posts` and `bot.render.field.posts`; each format registers its
renderers by kind (`bot.formats.Posts`), and `render_post` asks the league's format.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import TypeVar

import discord

from bot import formats
from bot.render import images
from bot.render.setup import LEAGUE_COLOUR
from bot.render.team.playoffs import bracket_text, playoffs_embed
from bot.render.team.standings import STEP_CODES, standings_embed, win_pct
from bot.rules.posts import POSTSEASON_DATE, RollCallAnswer
from bot.rules.team.model import Side
from bot.services.post_content import MatchPost, PostContent, TeamSide
from bot.services.posts import short_sides
from bot.services.seasons import SeasonShown
from bot.services.team.standings import ConferenceTable

FIELD_MAX = 1024
ROLL_CALL_ID = "rollcall:{match}:{answer}"  # the persistent buttons' custom ids (cogs/posts.py answers them)
NIGHT_ROLL_CALL_ID = "nightcall:{night}:{answer}"  # a planned ladder or field night's (cogs/posts.py answers them)
ROLL_CALL_BUTTONS = (
    (RollCallAnswer.IN, "In", discord.ButtonStyle.success),
    (RollCallAnswer.MAYBE, "Maybe", discord.ButtonStyle.secondary),
    (RollCallAnswer.OUT, "Out", discord.ButtonStyle.danger),
)
TABLE_HEADER = ("#", "Team", "W-L", "Pct", "MP", "Tie")
TABLE_WIDTHS = (0.8, 4.2, 1.3, 1.4, 1.0, 1.3)
REPORT_WINDOW = timedelta(hours=24)  # TEAM-DISP-1
Pictures = dict[str, images.Picture]  # file name → image
T = TypeVar("T")


@dataclass
class Outgoing:
    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    pictures: Pictures = field(default_factory=dict)
    mentions: list[int] = field(default_factory=list)  # users pinged because they must act
    roll_call: int | None = None  # a match id: add the in / maybe / out buttons
    night_roll_call: int | None = None  # a planned night's id: its in / maybe / out buttons

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(p.png), filename=name) for name, p in self.pictures.items()]

    def view(self) -> discord.ui.View | None:
        if self.roll_call is not None:
            ids = ROLL_CALL_ID.format(match=self.roll_call, answer="{answer}")
        elif self.night_roll_call is not None:
            ids = NIGHT_ROLL_CALL_ID.format(night=self.night_roll_call, answer="{answer}")
        else:
            return None
        view = discord.ui.View(timeout=None)
        for answer, label, style in ROLL_CALL_BUTTONS:
            view.add_item(discord.ui.Button(label=label, style=style, custom_id=ids.format(answer=answer.value)))
        return view

    def digest(self) -> str:
        """What the message shows, hashed: a living post is edited only when this changes."""
        parts = [
            self.content or "",
            *(str(e.to_dict()) for e in self.embeds),
            *(p.png.hex() for p in self.pictures.values()),
        ]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def render_post(content: PostContent) -> Outgoing:
    shared = SHARED_RENDERERS.get(content.post.kind)
    return (shared or formats.of(content.league).posts.renderers[content.post.kind])(content)


def postseason_date(content: PostContent) -> Outgoing:
    """COMMON-SEASON-2, to the commissioners: the regular season is over and the post-season has no date."""
    shown = facts_of(content, SeasonShown)
    return Outgoing(
        f"🗓️ **{content.league.name}**: the regular season of {shown.season.name} is over, and its post-season has "
        "no date yet. Set the first day of the playoffs or finals with `/season postseason date:YYYY-MM-DD`."
    )


SHARED_RENDERERS: dict[str, Callable[[PostContent], Outgoing]] = {POSTSEASON_DATE.name: postseason_date}
"""The kinds every format posts alike, rendered here rather than in each format's registration."""


def facts_of(content: PostContent, kind: type[T]) -> T:
    """A format's own facts for the post (`PostContent.facts`), of the kind its renderer draws."""
    assert isinstance(content.facts, kind)
    return content.facts


def with_pictures(rendered: tuple[discord.Embed, Pictures]) -> Outgoing:
    embed, pictures = rendered
    return Outgoing(embeds=[embed], pictures=pictures)


def when(moment: datetime) -> str:
    return f"{moment:%a %-d %b}, {clock_time(moment.time())}"


def clock_time(moment: time) -> str:
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'a.m.' if moment.hour < 12 else 'p.m.'}"


def _mention_all(ids: list[int]) -> str:
    return " ".join(f"<@{user}>" for user in dict.fromkeys(ids))


def _captains(matches: list[MatchPost], sides: Callable[[MatchPost], list[Side]] | None = None) -> list[int]:
    return [
        captain
        for match in matches
        for side in (sides(match) if sides else list(Side))
        for captain in match.sides[side].captains
    ]


def _title(match: MatchPost) -> str:
    return f"{match.sides[Side.AWAY].name} at {match.sides[Side.HOME].name}"


def _venue(match: MatchPost) -> str:
    return match.line.venue.name if match.line.venue else "venue to be announced"


def _coming(team: TeamSide) -> str:
    names = ", ".join(team.answers[RollCallAnswer.IN]) or "nobody yet"
    maybe = f" (maybe: {', '.join(team.answers[RollCallAnswer.MAYBE])})" if team.answers[RollCallAnswer.MAYBE] else ""
    return f"**{team.name}** {team.coming}: {names}{maybe}"


def roster_cutoff(content: PostContent) -> Outgoing:
    """TEAM-ROSTER-7: a change takes effect today only if it is in by the cutoff."""
    assert content.cutoff is not None
    cutoff = clock_time(content.cutoff)
    mentions = _captains(content.matches)
    text = (
        f"⏰ Captains with a match today: roster changes for tonight must be in by **{cutoff}** "
        f"(league time, rule TEAM-ROSTER-7). Later changes take effect tomorrow. {_mention_all(mentions)}"
    )
    embed = discord.Embed(title=f"Today's matches, {content.post.local:%a %-d %b}", colour=LEAGUE_COLOUR)
    embed.description = "\n".join(f"{_title(m)} · {_venue(m)}" for m in content.matches)[: FIELD_MAX * 4]
    return Outgoing(text.strip(), [embed], mentions=mentions)


def roll_call_embed(match: MatchPost) -> discord.Embed:
    """The living roll-call message: who is in, maybe, out, and who has not answered, per team."""
    day = match.line.match.play_on
    embed = discord.Embed(
        title=f"🙋 Roll call: {_title(match)}",
        description=f"{day:%A %-d %B} at {_venue(match)}. Are you playing? Answer with the buttons below.",
        colour=LEAGUE_COLOUR,
    )
    for side in (Side.HOME, Side.AWAY):
        team = match.sides[side]
        lines = [
            f"✅ In ({team.coming}): {', '.join(team.answers[RollCallAnswer.IN]) or '—'}",
            f"❔ Maybe: {', '.join(team.answers[RollCallAnswer.MAYBE]) or '—'}",
            f"❌ Out: {', '.join(team.answers[RollCallAnswer.OUT]) or '—'}",
            f"… No answer: {', '.join(team.silent) or '—'}",
        ]
        embed.add_field(name=f"{team.name} ({side.value})", value="\n".join(lines)[:FIELD_MAX], inline=False)
    return embed


def roll_call(content: PostContent) -> Outgoing:
    match = content.matches[0]
    return Outgoing(embeds=[roll_call_embed(match)], roll_call=match.line.match.id)


def short_warning(content: PostContent) -> Outgoing:
    """Both captains hear when a team has fewer than four coming: 3 play short (TEAM-SHORT-1), fewer forfeit."""
    match = content.matches[0]
    short = short_sides(match)
    teams = " and ".join(f"**{match.sides[s].name}** ({match.sides[s].coming} coming)" for s in short)
    mentions = _captains([match])
    text = (
        f"⚠️ {_title(match)} tonight: {teams or 'a team'} has fewer than four players in the roll call. "
        "Three play short-handed (TEAM-SHORT-1); fewer forfeit (TEAM-FORF-1). Captains, find players or tell "
        f"the other team now. {_mention_all(mentions)}"
    )
    return Outgoing(text.strip(), [roll_call_embed(match)], mentions=mentions)


def match_night(content: PostContent) -> Outgoing:
    embed = discord.Embed(title=f"🎯 Match night, {content.post.local:%A %-d %B}", colour=LEAGUE_COLOUR)
    for match in content.matches[:25]:
        machines = ", ".join(match.machines) or "none listed in service"
        lines = [
            f"📍 {_venue(match)}",
            f"🎰 In service: {machines}",
            *(f"🙋 {_coming(match.sides[side])}" for side in (Side.HOME, Side.AWAY)),
        ]
        embed.add_field(name=_title(match), value="\n".join(lines)[:FIELD_MAX], inline=False)
    return Outgoing(embeds=[embed])


def missing_scores(content: PostContent) -> Outgoing:
    """The morning after: each match not complete and confirmed, with what is missing; its captains pinged."""
    late = [m for m in content.matches if m.missing or not (m.line.result and m.line.result.final)]
    mentions = _captains(late)
    embed = discord.Embed(title="📝 Results not yet complete and confirmed", colour=LEAGUE_COLOUR)
    for match in late[:25]:
        missing = "\n".join(f"• {item}" for item in match.missing) or "• both captains' confirmation"
        embed.add_field(name=f"{_title(match)} ({match.line.match.play_on:%a %-d %b})", value=missing[:FIELD_MAX])
    text = f"Captains, please finish entering and confirming these results. {_mention_all(mentions)}"
    return Outgoing(text.strip(), [embed], mentions=mentions)


def dispute_reminder(content: PostContent) -> Outgoing:
    """TEAM-DISP-1: 12 h after a challenge, the challenger is reminded the full report is due within 24 h."""
    parts, mentions = [], []
    for dispute in content.disputes:
        challenge = dispute.challenge
        deadline = challenge.raised_at.astimezone(content.post.local.tzinfo) + REPORT_WINDOW
        mentions.append(challenge.raised_by)
        parts.append(
            f"⏳ <@{challenge.raised_by}>: your challenge of **{_title(dispute.match)}** needs its full report (with a "
            f"scoresheet photo if you can) to a commissioner by **{when(deadline)}** "
            "(24 h, rule TEAM-DISP-1)."
        )
    return Outgoing("\n".join(parts), mentions=mentions)


def dispute_closed(content: PostContent) -> Outgoing:
    """TEAM-DISP-1: at +24 h the commissioners are flagged: the report window closed with the challenge open."""
    lines = [
        f"⚖️ The 24-hour report window for the challenge of **{_title(d.match)}** closed at "
        f"{when(d.challenge.raised_at.astimezone(content.post.local.tzinfo) + REPORT_WINDOW)}. Reason given: "
        f"“{d.challenge.reason[:300]}”. Rule on it with `/match ruling` (TEAM-DISP-1)."
        for d in content.disputes
    ]
    return Outgoing("\n".join(lines))


def standings_rows(table: ConferenceTable) -> list[tuple[str, ...]]:
    """The image's cells, from the same standing rows and formats as the embed's table (`render.standings`)."""
    return [
        (
            f"{row.rank}{'=' if row.tied_with else ''}",
            table.teams[row.team].name,
            f"{row.wins}-{row.losses}",
            win_pct(row),
            str(row.match_points),
            "=" if row.decided_by is None else STEP_CODES[row.decided_by],
        )
        for row in table.rows
    ]


def weekly_standings(content: PostContent) -> Outgoing:
    view, race = content.standings, content.race
    assert view is not None and race is not None
    embed = standings_embed(view)
    week = race.weeks[-1] if race.weeks else 0
    embed.title = f"🏆 {view.league.name} standings after week {week}"
    pictures: Pictures = {}
    for number, table in enumerate(view.tables, start=1):
        pictures[f"standings-{number}.png"] = images.table(
            f"{table.name} · after week {week}", TABLE_HEADER, standings_rows(table), widths=TABLE_WIDTHS
        )
        ranks = race.ranks.get(table.name, {})
        if race.weeks and ranks:
            pictures[f"race-{number}.png"] = images.rank_race(f"{table.name} · rank by week", race.weeks, ranks)
    if pictures:
        embed.set_image(url=f"attachment://{next(iter(pictures))}")
    return Outgoing(embeds=[embed], pictures=pictures)


def bracket(content: PostContent) -> Outgoing:
    view = content.playoffs
    assert view is not None
    pictures = {}
    for number, conference in enumerate(view.brackets, start=1):
        lines = [
            f"# {line.strip('*')}" if line.startswith("**") else line.replace("**", "")
            for line in bracket_text(conference).splitlines()
        ]
        pictures[f"bracket-{number}.png"] = images.text_panel(f"{conference.conference} playoffs", lines)
    return Outgoing(embeds=[playoffs_embed(view)], pictures=pictures)
