"""Ladder embeds and replies: groups, picks, scores, a closed night, standings, payouts, premakeups.
Pure: data in, text or Embed out."""

from __future__ import annotations

import discord

from bot.render.setup import LEAGUE_COLOUR
from bot.render.words import and_list
from bot.rules.ladder.groups import NightPresence
from bot.rules.ladder.scoring import show
from bot.services.ladder.close import NightSummary
from bot.services.ladder.nights import GroupsView
from bot.services.ladder.play import PickState, ScoreEntry
from bot.services.ladder.players import Notice
from bot.services.ladder.premakeups import Registry
from bot.services.ladder.rulings import Ruling
from bot.services.ladder.standings import LadderStandings, Payouts, Playoffs

FIELD_MAX = 1024
PRESENCE_MARK = {NightPresence.PRESENT: "", NightPresence.PREMAKEUP: " (pmu)", NightPresence.ABSENT: " (absent)"}


def money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def group_title(number: int, division: str | None) -> str:
    return f"Group {number}" + (f" · Division {division}" if division else "")


def groups_embed(view: GroupsView) -> discord.Embed:
    """LADDER-GROUP-*: each group's players in rank order (#1 plays last in game 1, LADDER-ORDER-1)."""
    if view.planned:
        title = f"🎯 {view.league}: groups for week {view.week}"
        description = "From last week's finish (LADDER-GROUP-3). Posted again when the night opens."
    else:
        title = f"🎯 {view.league}: week {view.week} groups"
        day = f"{view.play_on:%a %Y-%m-%d}" if view.play_on else ""
        description = f"{day}. Working machines: {', '.join(view.machines)}."
    embed = discord.Embed(title=title, description=description, colour=LEAGUE_COLOUR)
    for group in view.groups:
        lines = [f"#{rank} {name}" + (" ✅" if here else "") for name, rank, here in group.players]
        if not view.planned:  # LADDER-ORDER-1: worst-placed first, #1 last
            order = sorted(group.players, key=lambda player: -player[1])
            lines.append("Game 1 order: " + ", ".join(name for name, _, _ in order))
        if group.games:
            lines.append("Games: " + ", ".join(f"{n}. {g}" for n, g in enumerate(group.games, start=1)))
        elif not view.planned:
            lines.append("Games: picks pending (`/ladder games pick`)")
        embed.add_field(
            name=group_title(group.number, group.division), value="\n".join(lines)[:FIELD_MAX], inline=False
        )
    if not view.planned:
        later = (
            "later games: players choose their position in reverse finishing order"
            if view.choose_position
            else "later games in reverse finishing order"
        )
        embed.set_footer(text=f"Game 1: the worst-placed plays first; {later} (LADDER-ORDER-1/2).")
    return embed


def pick_text(state: PickState) -> str:
    verb = "leave out" if state.excluding else "play twice"
    picks = ", ".join(f"{player}: {game}" for player, game in state.picks) or "none"
    text = f"🎲 Group {state.group} picks (games to {verb}): {picks}."
    if state.games:
        return text + "\nTonight's games: " + ", ".join(f"{n}. {g}" for n, g in enumerate(state.games, start=1))
    if state.note:
        text += f"\n{state.note}"
    return text + f"\nNext to pick: {state.next_picker}."


def score_text(entries: list[ScoreEntry]) -> str:
    """Each parsed score echoed with commas (COMMON-SCORE-1), and any 3rd No-Show it fired (LADDER-ATT-5)."""
    lines = []
    for entry in entries:
        line = f"📝 {entry.player}: game {entry.game} ({entry.machine}) **{entry.score:,}**"
        if entry.replaced is not None:
            line += f" (was {entry.replaced:,})"
        if entry.next_order:
            line += f"\nGame {entry.game + 1} order: {', '.join(entry.next_order)} (LADDER-ORDER-2)"
        lines.append(line)
        lines += [
            f"🚫 {name} has a third No-Show (group started game 3 without them): dropped for the season."
            for name in entry.dropped
        ]
    return "\n".join(lines)


def notice_text(notice: Notice) -> str:
    icon = {"checked in": "✅", "late": "⏰", "absent": "📭"}[notice.kind]
    what = {"checked in": "checked in", "late": "will be late", "absent": "will be absent"}[notice.kind]
    return f"{icon} {notice.name} {what} for week {notice.week} (noted at {notice.at:%H:%M %Z})."


def night_embed(summary: NightSummary) -> discord.Embed:
    """LADDER-BONUS-4, LADDER-NORM-2: each group's points, bonus, week TLP and TNS, then next week."""
    embed = discord.Embed(
        title=f"🏁 {summary.league}: week {summary.week} final",
        description=f"Weekly pot {money(summary.pot_cents)}.",
        colour=LEAGUE_COLOUR,
    )
    for group in summary.groups:
        rows = [f"{'Player':<14} {'Pts':>3} {'Bon':>3} {'TLP':>3} {'TNS':>8}"]
        for line in group.lines:
            name = (line.name + PRESENCE_MARK[line.presence])[:14]
            rows.append(f"{name:<14} {line.game_points:>3} {line.bonus:>3} {line.week_tlp:>3} {show(line.tns):>8}")
        embed.add_field(
            name=group_title(group.number, group.division), value="```\n" + "\n".join(rows) + "\n```", inline=False
        )
    if summary.payouts:
        paid = ", ".join(f"{name} {money(cents)}" for name, cents in summary.payouts)
        shared = [
            and_list([name for name, _ in tie]) + " are level on week TLP and TNS: they share their places' money, "
            "and the commissioners are told."
            for tie in summary.shared_payouts
        ]
        embed.add_field(name="💰 Payouts (LADDER-PAY-2)", value="\n".join([paid, *shared])[:FIELD_MAX], inline=False)
    if summary.no_shows or summary.dropped:
        notes = [f"No-Show: {name}" for name in summary.no_shows] + [
            f"Dropped after a third No-Show: {name}" for name in summary.dropped
        ]
        embed.add_field(name="📋 Attendance (LADDER-ATT-5)", value="\n".join(notes)[:FIELD_MAX], inline=False)
    if summary.split:
        text = "\n".join(f"Division {d}: {', '.join(names)}" for d, names in sorted(summary.split.items()))
        embed.add_field(name="🔀 Division split (LADDER-DIV-1)", value=text[:FIELD_MAX], inline=False)
    if summary.next_groups:
        text = "\n".join(
            f"{group_title(n, d)}: {', '.join(names)}" for n, (d, names) in enumerate(summary.next_groups, start=1)
        )
        embed.add_field(name=f"➡️ Week {summary.week + 1} groups", value=text[:FIELD_MAX], inline=False)
    return embed


def standings_embed(view: LadderStandings) -> discord.Embed:
    """LADDER-STAND-1/2: TLP, ties by ANS; ★ marks playoff places (LADDER-PO-1)."""
    embed = discord.Embed(
        title=f"🏆 {view.league} ladder standings",
        description=f"{view.weeks_closed} of {view.regular_weeks} weeks played. TLP, ties by ANS.",
        colour=LEAGUE_COLOUR,
    )
    divisions = sorted({row.division for row in view.rows}, key=lambda d: d or "")
    for division in divisions:
        rows = [f"{'#':<3} {'Player':<14} {'TLP':>4} {'ANS':>7} {'Wk':>2}"]
        for row in (r for r in view.rows if r.division == division):
            mark = "★" if row.qualifies else ("✖" if row.dropped else " ")
            rows.append(f"{row.position:<3} {row.name[:13] + mark:<14} {row.tlp:>4} {show(row.ans):>7} {row.weeks:>2}")
        name = f"Division {division}" if division else ("League" if divisions == [None] else "Dropped before the split")
        embed.add_field(name=name, value=("```\n" + "\n".join(rows) + "\n```")[:FIELD_MAX], inline=False)
    embed.set_footer(text="★ playoff place (LADDER-PO-1) · ✖ dropped (LADDER-ATT-5)")
    return embed


def payouts_embed(view: Payouts) -> discord.Embed:
    embed = discord.Embed(title=f"💰 {view.league} payouts", colour=LEAGUE_COLOUR)
    weekly = [
        f"Week {week}: pot {money(pot)} → " + (", ".join(f"{n} {money(c)}" for n, c in paid) or "no payout")
        for week, pot, paid in view.weeks
    ]
    embed.add_field(
        name="Weekly pots (LADDER-PAY-2)", value="\n".join(weekly)[:FIELD_MAX] or "No night closed yet.", inline=False
    )
    rows = [f"{'Player':<14} {'Dues':>7} {'Won':>7} {'Forf.':>7}"]
    for line in view.players:
        rows.append(f"{line.name[:14]:<14} {money(line.dues):>7} {money(line.payouts):>7} {money(line.forfeited):>7}")
    embed.add_field(name="Season money", value=("```\n" + "\n".join(rows) + "\n```")[:FIELD_MAX], inline=False)
    if view.prizes:
        embed.add_field(name="Season prizes (LADDER-PAY-5)", value=_prizes_text(view)[:FIELD_MAX], inline=False)
    return embed


def _prizes_text(view: Payouts) -> str:
    """LADDER-PAY-5, LADDER-AMB-23/34: each division's prize places, with the winners once they are known."""
    basis = (
        "the playoff finish"
        if view.prizes_by == "playoffs"
        else "the final standings"
        if view.final
        else "the standings; so far, they may still change"
    )
    lines = []
    for division in dict.fromkeys(place.division for place in view.prizes):
        places = [
            f"{_ordinal(p.place)} {money(p.cents)}" + (f" {p.winner}" if p.winner else "")
            for p in view.prizes
            if p.division == division
        ]
        lines.append(f"{f'Division {division}' if division else 'League'}: " + ", ".join(places))
    if view.consolation:
        shares = ", ".join(f"{division} {money(cents)}" for division, cents in sorted(view.consolation.items()))
        lines.append(f"Consolation prizes (LADDER-AMB-23): {shares}")
    lines.append(f"Places go by {basis} (LADDER-AMB-34).")
    return "\n".join(lines)


def _ordinal(place: int) -> str:
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place if place < 20 else place % 10, 'th') }"


def registry_embed(registry: Registry) -> discord.Embed:
    """LADDER-PMU-9: per machine S1, S2, AVG, the use order, used values and the lock; season totals."""
    embed = discord.Embed(
        title=f"🗂️ {registry.player}'s premakeups",
        description=(
            f"Uses {registry.uses} of {registry.cap}; weeks missed {registry.missed_weeks}. "
            "Ghost scores start after 15 uses or more than 3 missed weeks (LADDER-PMU-5)."
        ),
        colour=LEAGUE_COLOUR,
    )
    for line in registry.machines:
        values = [
            f"S1 {line.s1:,}" if line.s1 is not None else "S1 —",
            f"S2 {line.s2:,}" if line.s2 is not None else "S2 —",
        ]
        if line.average is not None:
            values.append(f"AVG {line.average:,}")
        detail = " · ".join(values) + f"\nOrder {' → '.join(line.order)}; used {', '.join(line.used) or 'none'}"
        if line.locked:
            detail += "\n🔒 closed after a zero was used (LADDER-PMU-4)"
        if line.declared_with:
            detail += f"\nDeclared game pending, with {line.declared_with}"
        embed.add_field(name=line.machine, value=detail[:FIELD_MAX], inline=False)
    if registry.owing:
        embed.add_field(
            name="Owing a premakeup (LADDER-PMU-8)", value=", ".join(registry.owing)[:FIELD_MAX], inline=False
        )
    return embed


def playoffs_embed(view: Playoffs) -> discord.Embed:
    """LADDER-PO-1/2: qualifiers seeded by the final standings, and the alternates who replace no-shows."""
    state = "Final standings." if view.final else "Standings so far: the places may still change."
    embed = discord.Embed(
        title=f"🎟️ {view.league} playoff places",
        description=f"{state} A qualifier missing at 19:30 is replaced by the next alternate (LADDER-PO-2).",
        colour=LEAGUE_COLOUR,
    )
    for division in view.divisions:
        seeds = "\n".join(f"{seed}. {name}" for seed, name in enumerate(division.qualifiers, start=1))
        alternates = ", ".join(division.alternates) or "none"
        changes = "".join(
            f"\n{gone} is missing: {alternate} plays (LADDER-PO-2)" for gone, alternate in division.replaced
        )
        changes += "".join(
            f"\n{name} gave notice: try to reschedule, else the alternate plays (LADDER-PO-3)"
            for name in division.reschedule
        )
        embed.add_field(
            name=f"Division {division.division}" if division.division else "League",
            value=f"{seeds}\nAlternates: {alternates}{changes}"[:FIELD_MAX],
            inline=False,
        )
    return embed


def ruling_text(ruling: Ruling) -> str:
    """LADDER-PEN-4/5/6/8: what was ruled, whether the score is now 0, and what the players do next."""
    offence = ruling.offence.value.replace("_", " ")
    text = f"⚖️ {ruling.offender}, game {ruling.game} ({ruling.machine}): {offence}."
    if ruling.zeroed:
        text += " Their score for the game is 0."
    text += f" {ruling.next_step}"
    if ruling.ledger_entry is not None:
        text += f"\n📒 Logged as unsportsmanlike: discipline record ruling #{ruling.ledger_entry} (LADDER-PEN-6)."
    if ruling.expulsion_review:
        text += "\n🚩 A repeated intentional slam tilt: the commissioner reviews an expulsion (LADDER-PEN-6)."
    return text
