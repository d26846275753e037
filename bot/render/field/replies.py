"""Field-format embeds: the living night sheet, season standings, the finals. Pure: data in, Embed out."""

from __future__ import annotations

from fractions import Fraction

import discord

from bot.render.admin import precedent_lines
from bot.render.setup import LEAGUE_COLOUR
from bot.rules.brackets import Bye
from bot.rules.field import meet as meet_rules
from bot.rules.field.finals import PickKind
from bot.rules.field.malfunctions import Outcome, Severity
from bot.rules.field.meet import CorrectionState
from bot.rules.field.options import FieldOptions
from bot.rules.field.scoring import weekly_score
from bot.rules.field.standings import ranked_by_running_total
from bot.rules.scores import format_score
from bot.services.field.corrections import CorrectionView
from bot.services.field.finals import BracketView, FinalsView
from bot.services.field.malfunctions import MalfunctionReported
from bot.services.field.nights import MaintenanceLog, NightView, PenaltyRecorded, ScoreEntered
from bot.services.field.options import FieldOptionsView
from bot.services.field.precedents import RulingView
from bot.services.field.standings import FieldStandingsView

FIELD_MAX = 1024
NAME_WIDTH = 14


def night_embed(view: NightView) -> discord.Embed:
    night, season = view.night, view.season
    result = view.result
    state = "final" if night.state == "closed" else "open"
    options = season.context.options_on(night.play_on)
    titles = [season.machine_names.get(m, f"#{m}") for m in night.machine_ids]
    embed = discord.Embed(
        title=f"🎯 Week {night.week}, {night.play_on:%a %d %b %Y} ({state})",
        # FIELD-MSEL-1/3: announced ahead, with the machines where an extra ball may be played
        description="Machines: " + ", ".join(meet_rules.announcement(titles, options.extra_ball_allowed)),
        colour=LEAGUE_COLOUR,
    )
    facts = result.facts
    groups = facts.groups()
    if groups:
        scored = facts.counted_scores().keys()
        lines = []
        for n, g in enumerate(groups, start=1):
            line = f"{n}. " + ", ".join(season.names.get(p, "?") + (" (guest)" if p in facts.guests else "") for p in g)
            if state == "open":  # FIELD-MSEL-2: each group's progress, the machines it has still to play
                left = meet_rules.machines_left(g, night.machine_ids, scored)
                line += " · left: " + (", ".join(season.machine_names.get(int(m), "?") for m in left) or "none")
            lines.append(line)
        singles = [c.player_id for c in facts.checkins if c.group_number is None]
        if singles:
            lines.append("Single-player games: " + ", ".join(season.names.get(p, "?") for p in singles))
        _add_blocks(embed, "Groups", lines, code=False)
    elif facts.checkins:
        names = ", ".join(season.names.get(c.player_id, "?") for c in facts.checkins)
        embed.add_field(name=f"Checked in ({len(facts.checkins)})", value=names[:FIELD_MAX], inline=False)
    if result.rows:
        lines = [f"{'#':>2} {'Player':<{NAME_WIDTH}} {'Pts':>4}"]
        for row in result.rows:
            tags = ("*" if row.provisional else "") + (" guest" if row.guest else "")
            name = season.names.get(int(row.player), "?")[:NAME_WIDTH]
            lines.append(f"{row.position:>2} {name:<{NAME_WIDTH}} {row.machine_points:>4}{tags}")
        heading = "Tonight's points"
        if options.points_scale == "fixed":  # FIELD-SCORE-5: the weekly score of a first place on every machine
            heading += f" (a perfect week: {weekly_score([1] * len(night.machine_ids), options)})"
        _add_blocks(embed, heading, lines)
    ties = [
        f"{season.machine_names.get(int(m), '?')}: "
        + " v ".join(sorted(season.names.get(int(p), "?") for p in tie.players))
        + f" at {format_score(tie.score)}"
        for m, r in result.machines.items()
        for tie in r.open_ties
    ]
    if ties:
        embed.add_field(
            name="⚖️ One-ball playoffs to play (FIELD-SCORE-3)",
            value="\n".join(ties)[:FIELD_MAX] + "\n* provisional until the playoff result is entered",
            inline=False,
        )
    if view.warning:
        embed.add_field(name="Note", value=view.warning, inline=False)
    return embed


HISTORY_ROOM = 1800  # of a message's 2000 characters: the rest is the reply's first line


def options_text(view: FieldOptionsView) -> str:
    """Every option with its value for the nights ahead, changed ones marked (FIELD-CFG-1 defaults are the
    Lafayette sheet), then each option that changed during the league with its values over time."""
    options = view.options
    defaults = FieldOptions.model_validate({})
    lines = [
        f"{name} = {getattr(options, name)!r}"
        + (" (changed)" if getattr(options, name) != getattr(defaults, name) else "")
        for name in FieldOptions.model_fields
    ]
    text = "```\n" + "\n".join(lines) + "\n```" + ("\nOver time (COMMON-LEAGUE-2):" if view.history else "")
    for index, line in enumerate(view.history):
        if len(text) + len(line) > HISTORY_ROOM:
            return text + f"\n• …and {len(view.history) - index} more options changed over time."
        text += f"\n• {line}"
    return text


def option_set_text(view: FieldOptionsView, option: str) -> str:
    """A changed option, from when it applies, and every option as it now stands."""
    note = view.changed.note() if view.changed else ""
    return f"⚙️ {option} = {view.value!r}. {note}\n" + options_text(view)


def correction_text(view: CorrectionView) -> str:
    """FIELD-SCORE-4: where a score correction stands."""
    row = view.correction
    what = (
        f"#{row.id}: {view.player}'s score on {view.machine}, {format_score(view.old_score)} → "
        f"{format_score(row.new_score)}"
    )
    if view.state is CorrectionState.APPLIED:
        return f"✅ Correction {what}: every player of the group confirmed; points recomputed."
    if view.state is CorrectionState.REFUSED:
        return f"↩️ Correction {what}: not confirmed by the whole group, the score stays as written (FIELD-SCORE-4)."
    return (
        f"📝 Correction {what}. Waiting for {', '.join(view.waiting_for)} to confirm with "
        f"`/field confirm correction:{row.id}` (all must agree within the window, FIELD-SCORE-4)."
    )


def score_echo(entered: ScoreEntered) -> str:
    kind = "Replay (replaces the first score, FIELD-MALF-2)" if entered.replay else "Scores"
    scores = ", ".join(f"{name} **{format_score(value)}**" for name, value in entered.scores)
    return f"✅ {kind} on {entered.machine}: {scores}"


def penalty_text(recorded: PenaltyRecorded) -> str:
    sanction = recorded.sanction
    text = (
        f"🚩 {recorded.player}: {sanction.penalty.offence.value.replace('_', ' ')} (offence {sanction.count}) — "
        f"{sanction.message}."
    )
    if recorded.suspension is not None:  # COMMON-PLAYER-2: the ruling every later refusal names
        text += f" Suspension recorded as ruling #{recorded.suspension}."
    if recorded.ruling:  # FIELD-PEN-2/5/7/8/12
        text += f" Ruling: {recorded.ruling}."
    if recorded.involved_official:
        text += " Flagged: every official present is in the group concerned (FIELD-OFF-2)."
    return text


MALFUNCTION_ADVICE = {
    Severity.MAJOR: (
        "Major malfunction (FIELD-MALF-1): before anyone starts their next ball, the player may play on or ask "
        "for the whole group to replay the game with `/field malfunction replay:true`; replay scores replace the "
        "first ones even when lower (FIELD-MALF-2)."
    ),
    Severity.MINOR: "Not a major malfunction (FIELD-MALF-1): play continues; it is on the maintenance sheet.",
    Severity.CATASTROPHIC: (
        "Catastrophic (FIELD-MALF-4): by default the group's scores on this machine are void and the game is "
        "replayed; an official may let them stand or record agreed scores."
    ),
    Severity.POSITIVE: (
        "Positive malfunction (FIELD-MALF-5): if the advantage cannot be avoided, stop and start a new game; "
        "otherwise avoid it from now on, and an official may order a replay."
    ),
}


REPLAY_NEXT = (
    " Each player of group {group} enters the replay's score with `/field score` or the group board; the replay's "
    "scores replace the first ones even when lower (FIELD-AMB-18)."
)
OUTCOME_TEXT = {
    Outcome.REPLAY: "Replay granted (FIELD-MALF-2): the whole group replays the game." + REPLAY_NEXT,
    Outcome.UNPLAYABLE: (
        "Declared unplayable (FIELD-MALF-3): {machine} is out for the rest of the meet. An official names the "
        "replacement with `/field night machines` (FIELD-MSEL-4), and the game is replayed there."
    ),
    Outcome.STAND: "Ruling (FIELD-MALF-4): the scores on the machine stand.",
    Outcome.AGREED: (
        "Ruling (FIELD-MALF-4): the players accepted agreed scores (recorded); enter them as the game's scores."
    ),
    Outcome.VOID_AND_REPLAY: "Ruling (FIELD-MALF-4): the group's scores on the machine are void." + REPLAY_NEXT,
    Outcome.NEW_GAME: "Ruling (FIELD-MALF-5): the advantage cannot be avoided; the group starts a new game."
    + REPLAY_NEXT,
    Outcome.SLO_REPLAY: "Ruling (FIELD-MALF-5): an unfair advantage was gained; the group replays." + REPLAY_NEXT,
    Outcome.SLO_MAY_REPLAY: "Ruling (FIELD-MALF-5): logged and announced; the game stands as played.",
    Outcome.LOG_AND_ANNOUNCE: "Ruling (FIELD-MALF-5): logged and announced to every player; avoid it from now on.",
}


def malfunction_text(reported: MalfunctionReported) -> str:
    row = reported.row
    text = f"🛠️ {reported.machine}: {row.incident.value.replace('_', ' ')} logged. "
    if row.outcome is None:
        text += MALFUNCTION_ADVICE[row.severity]
    else:
        group = reported.group if reported.group is not None else "concerned"
        text += OUTCOME_TEXT[Outcome(row.outcome)].format(group=group, machine=reported.machine)
    if row.involved_official:
        text += " Flagged: every official present is in the group concerned (FIELD-OFF-2)."
    if reported.penalty is not None:
        text += " " + penalty_text(reported.penalty) + " (FIELD-PEN-6)"
    return text


def maintenance_text(log: MaintenanceLog) -> str:
    """COMMON-MALF-1: the maintenance sheet for the venue operator."""
    if not log.entries:
        return f"🛠️ {log.league}: no machine problems logged this season."
    lines = [
        f"Week {week} {machine}: {row.incident.value.replace('_', ' ')} ({row.severity.value})"
        + (f" → {row.outcome.replace('_', ' ')}" if row.outcome else "")
        + (" [involved official]" if row.involved_official else "")
        + (f" — {row.note}" if row.note else "")
        for week, machine, row in log.entries
    ]
    return f"🛠️ {log.league} maintenance sheet\n" + "\n".join(lines)[:1900]


def standings_embed(view: FieldStandingsView) -> discord.Embed:
    """The season table: total after drops (or best N), raw total, weeks played (FIELD-STAND-1, FIELD-ATT-4)."""
    options = view.options
    rule = (
        f"best {options.best_meets} meets"
        if options.best_meets
        else f"lowest {options.drop_lowest_weeks} weeks dropped"
    )
    early = (
        f" Until night {options.drop_lowest_weeks + 1} every total is 0 after the drops, so the table goes by the "
        "running (raw) total."
        if ranked_by_running_total(view.weeks_held, options) and view.rows
        else ""
    )
    embed = discord.Embed(
        title=f"🏆 {view.league.name} standings, {view.season.name}"
        + (f", after week {view.through_week}" if view.through_week is not None else ""),
        description=f"{view.weeks_final} of {view.weeks_held} nights final; {rule}. Guests are not listed.{early}",
        colour=LEAGUE_COLOUR,
    )
    lines = [f"{'#':>2} {'Player':<{NAME_WIDTH}} {'Total':>6} {'Raw':>6} Wk"]
    for row in view.rows:
        name = view.names.get(int(row.player), "?")[:NAME_WIDTH]
        total, raw = _points(row.total), _points(row.raw_total)
        lines.append(f"{row.rank:>2} {name:<{NAME_WIDTH}} {total:>6} {raw:>6} {row.weeks_played:>2}")
    if not view.rows:
        lines.append("No scores yet.")
    _add_blocks(embed, "Season", lines)
    if winner := view.regular_season_winner:
        embed.add_field(
            name="🏆 Regular-season winner (FIELD-STAND-3)",
            value=" and ".join(winner) + " — a title of its own; the finals crown the Playoffs Winner.",
            inline=False,
        )
    return embed


def finals_embed(view: FinalsView) -> discord.Embed:
    names = view.names
    embed = discord.Embed(
        title=f"🥇 {view.context.league.name} finals, {view.context.season.name}", colour=LEAGUE_COLOUR
    )
    paid = sum(1 for e in view.entries if e.paid)
    payout = view.payout
    money = (
        "Pool negative: plaques only, no cash (FIELD-PAY-2)."
        if payout.flagged
        else f"Pool {_dollars(payout.pool_cents)}: " + " / ".join(_dollars(c) for c in payout.shares_cents)
    )
    embed.description = f"{paid} entrants paid. {money}"
    if view.seeds:
        seeds = [f"{i}. {names.get(p, '?')}" for i, p in enumerate(view.seeds, start=1)]
        _add_blocks(embed, "Seeds", seeds, code=False)
    elif view.entries:
        entered = ", ".join(names.get(e.player_id, "?") for e in view.entries)
        embed.add_field(name="Entered", value=entered[:FIELD_MAX], inline=False)
    for bracket in view.brackets:
        _add_blocks(embed, bracket.name, _bracket_lines(bracket, view), code=False)
    if view.brackets:
        embed.add_field(name="Finals rules (FIELD-FIN-8)", value="\n".join(view.notes)[:FIELD_MAX], inline=False)
    if view.ifpa:
        rows = [
            f"{r.position:>2} {names.get(int(r.player), '?')}" + ("" if r.finalist else " (league)") for r in view.ifpa
        ]
        _add_blocks(embed, "IFPA results (FIELD-IFPA-1)", rows)
    return embed


def _bracket_lines(bracket: BracketView, view: FinalsView) -> list[str]:
    def who(entrant: object) -> str:
        if isinstance(entrant, Bye):
            return "bye"
        if isinstance(entrant, int):
            return f"({entrant}) {view.names.get(bracket.players[entrant], '?')}"
        return "?"

    lines = []
    champion = bracket.state.champion
    if champion is not None:
        lines.append(f"🏆 Champion: {who(champion)}")
    prefix = "B-" if bracket.name == "B division" else ""
    for state in bracket.state.ready():
        games = bracket.games.get(state.match.id, [])
        wins = [sum(1 for g in games if g.winner == s) for s in (state.top, state.bottom)]
        current = games[-1] if games and games[-1].winner is None else None
        picks = ""
        if current is not None:
            parts = [
                f"{view.machine_names.get(int(p.machine), '?')}"
                if p.kind is PickKind.MACHINE and p.machine is not None
                else f"seed {p.seed} plays {'first' if p.plays_first else 'second'}"
                for p in current.picks
            ]
            picks = " — " + ", ".join(parts)
        lines.append(f"`{prefix}{state.match.id}` {who(state.top)} v {who(state.bottom)} ({wins[0]}–{wins[1]}){picks}")
    if not lines:
        lines.append("Waiting for results.")
    return lines


def _add_blocks(embed: discord.Embed, title: str, lines: list[str], *, code: bool = True) -> None:
    blocks: list[list[str]] = [[]]
    for line in lines:
        if len(_join(blocks[-1] + [line], code)) > FIELD_MAX:
            blocks.append([])
        blocks[-1].append(line)
    for number, block in enumerate(blocks):
        embed.add_field(name=title if number == 0 else f"{title} (cont.)", value=_join(block, code), inline=False)


def _join(lines: list[str], code: bool) -> str:
    text = "\n".join(lines)
    return f"```\n{text}\n```" if code else text


def _points(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}"


def _dollars(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def ruling_text(view: RulingView) -> str:
    """FIELD-OFF-3: the ruling documented (or only looked up) with the earlier rulings on the same situation."""
    earlier = precedent_lines(view.earlier, "📚 Ruled before in a similar situation (FIELD-OFF-3):")
    if view.recorded is None:
        return earlier or "No earlier ruling on a similar situation: rule on it with `ruling:` to document it."
    text = f"📝 Ruling documented as precedent #{view.recorded.id} (FIELD-OFF-3): {view.recorded.ruling}"
    if view.voided is not None:
        text += f"\n{view.voided}'s slot is void for everyone tonight: 0 points to all on it (FIELD-AMB-12)."
    return f"{text}\n{earlier}" if earlier else text
