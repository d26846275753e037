"""A field league's facts for one season, read once, and what the rules make of them.

Services load `SeasonFacts` inside their transaction and ask `night_result` / `season_table` for points
and standings; nothing derived is stored, so any correction recomputes everything (facts in, standings out).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from fractions import Fraction
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.rules import option_versions as option_rules
from bot.rules.field import malfunctions as malfunction_rules
from bot.rules.field import penalties as penalty_rules
from bot.rules.field.meet import CorrectionVote
from bot.rules.field.options import FieldOptions
from bot.rules.field.scoring import (
    MachineId,
    MachineResult,
    MachineScore,
    MeetRow,
    PlayerId,
    TieOutcome,
    meet_results,
    rank_machine,
)
from bot.rules.field.standings import SeasonRow, season_standings
from bot.rules.option_versions import OptionVersion
from bot.rules.refusals import NotFound, RuleViolation
from bot.services import league_options
from bot.services.actor import Actor
from bot.services.lookup import find_league, find_season
from storage.field import (
    FieldCheckin,
    FieldCorrection,
    FieldMalfunction,
    FieldNight,
    FieldPenalty,
    FieldPlayoff,
    FieldScore,
    NightState,
)
from storage.models import League, LeagueFormat, Machine, Player, Season


@dataclass(frozen=True)
class FieldContext:
    league: League
    season: Season
    options: FieldOptions  # of what is still to play: what tonight's commands apply
    versions: Sequence[OptionVersion]  # COMMON-LEAGUE-2: every version, each night scored under its own
    _dated: dict[date, FieldOptions] = field(default_factory=dict, compare=False, repr=False)

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.league.timezone)

    def options_on(self, day: date) -> FieldOptions:
        """The options a night played on `day` is scored under."""
        if day not in self._dated:
            self._dated[day] = FieldOptions.model_validate(option_rules.in_effect(self.versions, day))
        return self._dated[day]

    def what_if(self, changes: Mapping[str, Any]) -> FieldContext:
        """The league as if `changes` had always been its options: every version changed, nothing stored."""
        versions = option_rules.changed(self.versions, None, lambda stored: {**stored, **changes})
        options = FieldOptions.model_validate({**self.options.model_dump(), **changes})
        return FieldContext(self.league, self.season, options, versions)


async def field_context(session: AsyncSession, league: League, season: Season, now: datetime) -> FieldContext:
    """The league with the options of what is still to play (`league_options.options_ahead`)."""
    ahead = await league_options.options_ahead(session, league, now)
    return FieldContext(league, season, FieldOptions.model_validate(ahead), league_options.versions_of(league))


async def load_context(
    session: AsyncSession, actor: Actor, league_name: str | None, now: datetime, *, season: int | None = None
) -> FieldContext:
    league = await find_league(session, actor.guild_id, league_name)
    if league.format is not LeagueFormat.FIELD:
        raise RuleViolation(
            "COMMON-LEAGUE-1", f"{league.name} is a {league.format} league: /field commands are for field leagues."
        )
    return await field_context(session, league, await find_season(session, league, season), now)


@dataclass(frozen=True)
class ScoreFact:
    """A stored `FieldScore` as the rules read it."""

    id: int
    night_id: int
    player_id: int
    machine_id: int
    attempt: int
    score: int
    entered_at: datetime


SCORE_COLUMNS = tuple(
    col(column)
    for column in (
        FieldScore.id, FieldScore.night_id, FieldScore.player_id, FieldScore.machine_id, FieldScore.attempt,
        FieldScore.score, FieldScore.entered_at,
    )
)  # fmt: skip


@dataclass(frozen=True)
class NightFacts:
    night: FieldNight
    checkins: list[FieldCheckin]
    scores: list[ScoreFact]
    playoffs: list[FieldPlayoff]
    penalties: list[FieldPenalty]
    corrections: list[FieldCorrection]
    malfunctions: list[FieldMalfunction] = field(default_factory=list)

    @property
    def guests(self) -> set[int]:
        return {c.player_id for c in self.checkins if c.guest}

    def groups(self) -> list[tuple[int, ...]]:
        by_number: dict[int, list[int]] = defaultdict(list)
        for c in sorted(self.checkins, key=lambda c: c.id or 0):
            if c.group_number is not None:
                by_number[c.group_number].append(c.player_id)
        return [tuple(by_number[n]) for n in sorted(by_number)]

    def group_of(self, player_id: int) -> tuple[int, ...] | None:
        return next((g for g in self.groups() if player_id in g), None)

    def group_replays(self) -> dict[tuple[int, int], datetime]:
        """(group number, machine) → when the group's replay of its game there was granted: by a malfunction
        ruling (FIELD-MALF-2/4/5) or a victim's choice (FIELD-PEN-2/5). The latest grant counts."""
        grants: dict[tuple[int, int], datetime] = {}
        for row in self.malfunctions:
            if row.group_number is not None and row.outcome in malfunction_rules.GROUP_REPLAYS:
                key = (row.group_number, row.machine_id)
                grants[key] = max(grants.get(key, row.reported_at), row.reported_at)
        group_of = {c.player_id: c.group_number for c in self.checkins}
        for penalty in self.penalties:
            number = group_of.get(penalty.player_id)
            if penalty.group_replay and number is not None and penalty.machine_id is not None:
                key = (number, penalty.machine_id)
                grants[key] = max(grants.get(key, penalty.recorded_at), penalty.recorded_at)
        return grants

    def replays_due(self) -> dict[tuple[int, int], datetime]:
        """(player, machine) → the grant time of their group's replay: scores entered until then are replaced."""
        due: dict[tuple[int, int], datetime] = {}
        grants = self.group_replays()
        if grants:
            for c in self.checkins:
                for (number, machine), at in grants.items():
                    if c.group_number == number:
                        due[(c.player_id, machine)] = at
        return due

    def unplayable(self) -> set[int]:
        """Machines declared unplayable tonight (FIELD-MALF-3): out for the rest of the meet."""
        return {row.machine_id for row in self.malfunctions if row.outcome == malfunction_rules.Outcome.UNPLAYABLE}

    def superseded(self, score: ScoreFact, due: Mapping[tuple[int, int], datetime]) -> bool:
        """A score entered before its group's replay was granted: the replay's score replaces it."""
        at = due.get((score.player_id, score.machine_id))
        return at is not None and score.entered_at <= at

    def counted_scores(self) -> dict[tuple[int, int], ScoreFact]:
        """(player, machine) → the score that counts: a replay replaces the first attempt (FIELD-MALF-2), and
        a group replay's score the group's scores from before it was granted (FIELD-AMB-18)."""
        return self._latest(replaced=False)

    def replaced_scores(self) -> dict[tuple[int, int], ScoreFact]:
        """(player, machine) → the score a granted group replay replaces (the latest entered before the grant)."""
        return self._latest(replaced=True)

    def _latest(self, *, replaced: bool) -> dict[tuple[int, int], ScoreFact]:
        due = self.replays_due()
        best: dict[tuple[int, int], ScoreFact] = {}
        for s in self.scores:
            if self.superseded(s, due) is not replaced:
                continue
            key = (s.player_id, s.machine_id)
            if key not in best or s.attempt > best[key].attempt:
                best[key] = s
        return best

    def counted_values(self, *, replaced: bool = False) -> dict[tuple[int, int], int]:
        """The counted scores' values (or, `replaced`, those of the scores a group replay replaces), with every
        correction the whole group confirmed (FIELD-SCORE-4)."""
        corrected = {c.score_id: c.new_score for c in self.corrections if correction_applied(c)}
        scores = self.replaced_scores() if replaced else self.counted_scores()
        return {key: corrected.get(s.id, s.score) for key, s in scores.items()}

    def machine_entries(self) -> list[tuple[MachineId, MachineScore]]:
        """Every score of tonight's machines as the rules rank it: a group's replayed game has the replay's
        scores, the ones it replaced void (FIELD-MALF-2, FIELD-AMB-18); a replaced machine's scores no longer
        count (FIELD-AMB-12)."""
        guests = self.guests
        counted = self.counted_values()
        entries: list[tuple[MachineId, MachineScore]] = []
        replayed_keys: set[tuple[int, int]] = set()
        grants = self.group_replays()
        if grants:
            originals = self.counted_values(replaced=True)
            groups = self.groups()
            for number, machine in grants:
                if number > len(groups) or machine not in self.night.machine_ids:
                    continue
                group = groups[number - 1]
                original = [
                    MachineScore(p, originals[(p, machine)], guest=p in guests)
                    for p in group
                    if (p, machine) in originals
                ]
                replay: dict[PlayerId, int] = {p: counted[(p, machine)] for p in group if (p, machine) in counted}
                entries += [(machine, s) for s in malfunction_rules.replayed(original, replay)]
                replayed_keys |= {(p, machine) for p in group}
        entries += [
            (machine, MachineScore(player, value, guest=player in guests))
            for (player, machine), value in counted.items()
            if machine in self.night.machine_ids and (player, machine) not in replayed_keys
        ]
        return entries


@dataclass(frozen=True)
class NightResult:
    facts: NightFacts
    machines: dict[MachineId, MachineResult]
    rows: list[MeetRow]

    @property
    def provisional(self) -> bool:
        return any(result.open_ties for result in self.machines.values())


@dataclass(frozen=True)
class SeasonFacts:
    context: FieldContext
    nights: list[NightFacts]
    names: dict[int, str]  # player id → display name
    machine_names: dict[int, str]
    sanctions: list[penalty_rules.Sanction]
    complete: bool = True  # every night of the season is in `nights` (not so from `load_tonight`)
    week_dates: dict[int, date] = field(default_factory=dict)  # every night of the season: week → date played

    def with_context(self, context: FieldContext) -> SeasonFacts:
        """The same rows under another command's context (its options depend on the time)."""
        return replace(self, context=context)

    def night(self, week: int) -> NightFacts:
        for facts in self.nights:
            if facts.night.week == week:
                return facts
        raise NotFound(f"No night for week {week} in {self.context.season.name}.")

    def open_night(self) -> NightFacts:
        for facts in reversed(self.nights):
            if facts.night.state is NightState.OPEN:
                return facts
        raise NotFound("No league night is open. A commissioner opens one with `/field night open`.")

    def night_result(self, facts: NightFacts) -> NightResult:
        machines = self.machine_results(facts)
        options = self.context.options_on(facts.night.play_on)
        return NightResult(facts, machines, meet_results(machines, options, facts.guests))

    def machine_results(self, facts: NightFacts) -> dict[MachineId, MachineResult]:
        """Each machine's ranking of the night, its ties and playoffs (FIELD-SCORE-2/3), without the meet's
        points: what a group board shows."""
        options = self.context.options_on(facts.night.play_on)
        entries = facts.machine_entries()
        reranked = penalty_rules.reranked_wipes(
            self.sanctions, lambda week: self.context.options_on(self.week_dates[week]).recompute_on_wipe
        )
        sanctioned = penalty_rules.apply_sanctions(entries, facts.night.week, self.sanctions, reranked=reranked)
        by_machine: dict[int, list[MachineScore]] = defaultdict(list)
        for machine, score in sanctioned:
            by_machine[int(machine)].append(score)
        playoffs: dict[int, dict[frozenset[PlayerId], TieOutcome]] = defaultdict(dict)
        for row in facts.playoffs:
            tied = frozenset[PlayerId](int(p) for p in row.players_key.split(","))
            playoffs[row.machine_id][tied] = tuple(row.order) if row.order else None
        return {m: rank_machine(scores, options, playoffs[m]) for m, scores in by_machine.items()}

    def through(self, week: int) -> SeasonFacts:
        """The season as it stood after `week`: its nights and sanctions up to then, under their own options."""
        nights = [facts for facts in self.nights if facts.night.week <= week]
        return replace(self, nights=nights, sanctions=[s for s in self.sanctions if s.penalty.meet <= week])

    def table_options(self) -> FieldOptions:
        """The options the table counts weeks under (dropped weeks, best meets): those of its latest night, so
        the table as it stood after a week stays as it was (COMMON-LEAGUE-2)."""
        return self.context.options_on(self.nights[-1].night.play_on) if self.nights else self.context.options

    def season_table(self, results: Sequence[NightResult] | None = None) -> list[SeasonRow]:
        """FIELD-STAND-1: guests' weeks (FIELD-AMB-11) and wiped seasons (FIELD-AMB-19) are left out.
        `results`: every night's `night_result`, when the caller computed them already."""
        assert self.complete, "the season table needs every night: load_season, not load_tonight"
        options = self.table_options()
        weekly: dict[PlayerId, dict[int, Fraction | int]] = defaultdict(dict)
        for facts, result in zip(self.nights, results or [self.night_result(f) for f in self.nights], strict=True):
            counts = self.context.options_on(facts.night.play_on).season_points
            for row in result.rows:
                if row.guest:
                    continue
                points = row.machine_points if counts == "machine_points" else row.position_points
                weekly[int(row.player)][facts.night.week] = points
        wiped = penalty_rules.season_forfeits(self.sanctions)
        weeks = [f.night.week for f in self.nights]
        return season_standings(weekly, weeks, options, excluded=wiped)


def correction_votes(correction: FieldCorrection) -> list[CorrectionVote]:
    return [CorrectionVote(int(player), agrees) for player, agrees in correction.votes.items()]


def correction_applied(correction: FieldCorrection) -> bool:
    """Every player of the group confirmed (votes are only taken inside the window)."""
    return set(correction.group_players) <= {v.player for v in correction_votes(correction) if v.agrees}


def players_key(players: frozenset[int] | set[int]) -> str:
    return ",".join(str(p) for p in sorted(players))


async def load_season(session: AsyncSession, context: FieldContext) -> SeasonFacts:
    """Every night of the season with all its facts: what standings, groups and past nights need."""
    nights = await _season_nights(session, context)
    return await _load(session, context, nights, nights)


async def load_tonight(session: AsyncSession, context: FieldContext) -> SeasonFacts:
    """The open night's facts only, with the season's names, machines and sanctions: what a command at tonight's
    meet needs (a score entry, a playoff). Its `nights` hold tonight alone, so `season_table` refuses it."""
    nights = await _season_nights(session, context)
    tonight = next((n for n in reversed(nights) if n.state is NightState.OPEN), None)
    if tonight is None:
        raise NotFound("No league night is open. A commissioner opens one with `/field night open`.")
    return await _load(session, context, nights, [tonight])


async def load_night(session: AsyncSession, context: FieldContext, week: int | None) -> SeasonFacts:
    """One night's facts, like `load_tonight`: the given week's, else the open night's, else the latest's."""
    nights = await _season_nights(session, context)
    if week is not None:
        shown = next((n for n in nights if n.week == week), None)
        if shown is None:
            raise NotFound(f"No night for week {week} in {context.season.name}.")
    else:
        shown = next((n for n in reversed(nights) if n.state is NightState.OPEN), nights[-1] if nights else None)
        if shown is None:
            raise NotFound("No league night yet. A commissioner opens one with `/field night open`.")
    return await _load(session, context, nights, [shown])


async def with_fresh_scores(session: AsyncSession, season: SeasonFacts) -> SeasonFacts:
    """The same facts with their nights' scores read again (after a command wrote scores)."""
    scores = _grouped(await _scores(session, [f.night.id for f in season.nights]))
    nights = [replace(f, scores=scores.get(f.night.id or 0, [])) for f in season.nights]
    return replace(season, nights=nights)


def with_scores_added(season: SeasonFacts, rows: Sequence[FieldScore]) -> SeasonFacts:
    """The same facts with scores just inserted added to their nights: what `with_fresh_scores` would read while
    the command holds the writer, without reading the night's scores again."""
    added = _grouped(
        ScoreFact(r.id or 0, r.night_id, r.player_id, r.machine_id, r.attempt, r.score, r.entered_at) for r in rows
    )
    nights = [replace(f, scores=[*f.scores, *added.get(f.night.id or 0, [])]) for f in season.nights]
    return replace(season, nights=nights)


async def _season_nights(session: AsyncSession, context: FieldContext) -> list[FieldNight]:
    query = select(FieldNight).where(FieldNight.season_id == context.season.id).order_by(col(FieldNight.week))
    return list((await session.exec(query)).all())


async def _load(
    session: AsyncSession, context: FieldContext, season_nights: list[FieldNight], nights: list[FieldNight]
) -> SeasonFacts:
    """`nights` (of `season_nights`) with their rows, one query per table; sanctions from the whole season."""
    night_ids = [n.id for n in nights]
    # model instances where services change them (tonight's check-ins, correction votes)
    checkins = (await session.exec(select(FieldCheckin).where(col(FieldCheckin.night_id).in_(night_ids)))).all()
    playoffs = (await session.exec(select(FieldPlayoff).where(col(FieldPlayoff.night_id).in_(night_ids)))).all()
    corrections = (
        await session.exec(select(FieldCorrection).where(col(FieldCorrection.night_id).in_(night_ids)))
    ).all()
    malfunctions = (
        await session.exec(select(FieldMalfunction).where(col(FieldMalfunction.night_id).in_(night_ids)))
    ).all()
    scores = await _scores(session, night_ids)
    penalties = (
        await session.exec(
            select(FieldPenalty).where(FieldPenalty.season_id == context.season.id).order_by(col(FieldPenalty.id))
        )
    ).all()
    names_query = select(Player.id, Player.display_name).where(Player.league_id == context.league.id)
    player_rows = (await session.exec(names_query)).all()
    machines = (await session.exec(select(Machine).where(Machine.league_id == context.league.id))).all()
    week_of = {n.id: n.week for n in season_nights}
    checkins_of, scores_of, playoffs_of = _grouped(checkins), _grouped(scores), _grouped(playoffs)
    penalties_of, corrections_of, malfunctions_of = _grouped(penalties), _grouped(corrections), _grouped(malfunctions)
    facts = [
        NightFacts(
            n,
            checkins_of.get(n.id or 0, []),
            scores_of.get(n.id or 0, []),
            playoffs_of.get(n.id or 0, []),
            penalties_of.get(n.id or 0, []),
            corrections_of.get(n.id or 0, []),
            malfunctions_of.get(n.id or 0, []),
        )
        for n in nights
    ]
    ordered = sorted(penalties, key=lambda p: (week_of[p.night_id], p.id or 0))
    sanctions = penalty_rules.sanctions(
        penalty_rules.Penalty(p.player_id, week_of[p.night_id], p.offence, p.machine_id) for p in ordered
    )
    return SeasonFacts(
        context,
        facts,
        {player_id: name for player_id, name in player_rows if player_id is not None},
        {m.id: m.title for m in machines if m.id is not None},
        sanctions,
        complete=len(nights) == len(season_nights),
        week_dates={n.week: n.play_on for n in season_nights},
    )


async def _scores(session: AsyncSession, night_ids: list[int | None]) -> list[ScoreFact]:
    """Scores are the bulk of a season (one per player, machine and night) and are only read: plain rows, as
    building thousands of model instances costs more than the query."""
    query = sa.select(*SCORE_COLUMNS).where(col(FieldScore.night_id).in_(night_ids))
    return [ScoreFact(*row) for row in (await session.exec(query)).all()]  # type: ignore[call-overload]


def _grouped(rows: Iterable[Any]) -> dict[int, list[Any]]:
    """Rows by their night, in the order read."""
    grouped: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        grouped[row.night_id].append(row)
    return grouped
