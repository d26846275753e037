"""Team-match disputes (TEAM-DISP-1/4, COMMON-DISPUTE-1, COMMON-RULING-1): a captain challenges games within
24 hours of the match ending, with an optional photo of the scoresheet; a commissioner rules, and each ruling
is kept as a precedent that is shown when a similar dispute is opened."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules import disputes as rules
from bot.rules import scores as score_rules
from bot.rules.refusals import Conflict, InvalidInput, NotFound, PermissionDenied, RuleViolation
from bot.rules.team.model import ScoreStatus, Side
from bot.services import audit
from bot.services.actor import Actor
from bot.services.lookup import insert_unique
from bot.services.permissions import is_commissioner
from bot.services.precedents import keep as keep_precedent
from bot.services.precedents import league_precedents, rule_tag
from bot.services.precedents import views as precedent_views
from bot.services.team import match_facts, scoreboard
from bot.services.team.match_access import (
    GameRef,
    acting_in,
    load_context,
    player_id_of,
    require_unsigned,
    score_field,
)
from bot.services.team.match_facts import MatchContext
from storage.db import Database
from storage.discipline import AlternativeResult, MatchAgreement, Precedent
from storage.matches import GameScore, MatchChallenge, MatchLineup, MatchVisit
from storage.models import Machine


@dataclass(frozen=True)
class Opened:
    board: scoreboard.Scoreboard
    challenge: MatchChallenge
    precedents: list[Precedent]  # similar earlier rulings, closest first


class DisputeService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def open(
        self,
        actor: Actor,
        league_name: str | None,
        match_id: int,
        games: list[list[int]],
        reason: str,
        *,
        kind: str = "score",
        rule_id: str | None = None,
        photo_url: str | None = None,
    ) -> Opened:
        """TEAM-DISP-1: a captain challenges games; the match cannot be signed while a challenge is open."""
        text = reason.strip()
        if not text:
            raise InvalidInput("Say what is disputed, so the commissioner can rule on it.")
        if kind not in rules.DISPUTE_KINDS:
            raise InvalidInput(f"A dispute is about one of: {', '.join(rules.DISPUTE_KINDS)}.")
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            acting = await acting_in(session, actor, context)
            rules.check_report_window(await _ended_at(session, context), now.astimezone(context.zone))
            row = MatchChallenge(
                match_id=match_id, side=acting.side or Side.HOME, games=games, reason=text[:1000],
                raised_by=actor.user_id, raised_at=now, kind=kind, rule_id=rule_tag(rule_id), photo_url=photo_url,
            )  # fmt: skip
            session.add(row)
            await session.flush()
            audit.created(session, actor, row, at=now, action="dispute_opened")
            families = await _machine_families(session, context, games)
            precedents = await _similar(session, context, kind=kind, rule_id=row.rule_id, families=families)
            return Opened(await scoreboard.build(session, context, now), row, precedents)

    async def rule(
        self,
        actor: Actor,
        league_name: str | None,
        match_id: int,
        ruling: str,
        *,
        rule_id: str | None = None,
        pick: str | None = None,
    ) -> scoreboard.Scoreboard:
        """A commissioner's ruling closes the match's open challenges (TEAM-DISP-4) and becomes a precedent. For a
        game played both ways, `pick` says which result stands; B's scores replace the entered ones (TEAM-DISP-3)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            if not is_commissioner(actor, context.league):
                raise PermissionDenied("Only a commissioner rules on disputes.")
            await _settle_both_ways(session, actor, context, pick, ruling.strip()[:500], now)
            await close_challenges(session, actor, context, ruling, rule_id=rule_id, now=now)
            return await scoreboard.build(session, context, now)

    async def play_both_ways(
        self,
        actor: Actor,
        league_name: str | None,
        game: GameRef,
        *,
        typed: dict[Side, list[str]],
    ) -> scoreboard.Scoreboard:
        """TEAM-DISP-3: when the captains cannot agree, a disputed game's other result (interpretation B, in lineup
        order) is stored beside the scores as entered (interpretation A); the commissioner's ruling picks one."""
        match_id, round_index, game_number = game
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            await require_unsigned(session, context)
            await acting_in(session, actor, context)
            challenged = {(r, g) for row in await scoreboard.open_challenges(session, match_id) for r, g in row.games}
            if (round_index, game_number) not in challenged:
                raise RuleViolation(
                    "TEAM-DISP-3", f"Round {round_index} game {game_number} is not disputed; dispute it first."
                )
            night = await match_facts.night(session, context)
            lineups = match_facts.effective_lineups(night, round_index)
            if len(lineups) < 2 or not 0 < game_number <= len(lineups[Side.HOME].games):
                raise InvalidInput(f"Round {round_index} has no game {game_number} declared by both teams.")
            scores: dict[str, int] = {}
            for side in Side:
                players = lineups[side].games[game_number - 1].players
                values = [text for text in typed[side] if text.strip()]
                if len(values) != len(players):
                    raise InvalidInput(
                        f"{context.teams[side].name} had {len(players)} player(s) in that game; give that many scores."
                    )
                for player, text in zip(players, values, strict=True):
                    field = score_field(night, side, players, player)
                    scores[str(player)] = score_rules.parse_score(text, field=field, rules=context.options.score_input)
            row = AlternativeResult(
                match_id=match_id, round_index=round_index, game_number=game_number, scores=scores,
                entered_by=actor.user_id, entered_at=now,
            )  # fmt: skip
            await insert_unique(session, row, f"Round {round_index} game {game_number} is already played both ways.")
            audit.created(session, actor, row, at=now, action="both_ways")
            return await scoreboard.build(session, context, now)

    async def propose_agreement(
        self, actor: Actor, league_name: str | None, match_id: int, terms: str
    ) -> MatchAgreement:
        """TEAM-DISP-2: a captain writes down how both captains will handle a situation the rules do not cover."""
        text = terms.strip()
        if not text:
            raise InvalidInput("Write what the captains agreed.")
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, match_id)
            acting = await acting_in(session, actor, context)
            if acting.side is None:
                raise RuleViolation("TEAM-DISP-2", "An agreement is made by the two captains of the match.")
            row = MatchAgreement(
                match_id=match_id, terms=text[:1000], proposed_by=actor.user_id, proposed_for=acting.side,
                proposed_at=now,
            )  # fmt: skip
            session.add(row)
            await session.flush()
            audit.created(session, actor, row, at=now, action="agreement_proposed")
            return row

    async def accept_agreement(self, actor: Actor, agreement_id: int) -> MatchAgreement:
        """TEAM-DISP-2: the other captain accepts; the agreement then stands for this match."""
        now = self.clock.now()
        async with self.db.writing() as session:
            row = await session.get(MatchAgreement, agreement_id)
            if row is None:
                raise NotFound("That agreement no longer exists.")
            context = await load_context(session, actor, None, row.match_id)
            acting = await acting_in(session, actor, context)
            if acting.side is None or acting.side is row.proposed_for:
                raise RuleViolation(
                    "TEAM-DISP-2", f"{context.teams[row.proposed_for.other].name}'s captain accepts it."
                )
            if row.accepted_at is not None:
                raise Conflict("This agreement was already accepted.")
            before = audit.snapshot(row)
            row.accepted_by, row.accepted_at = actor.user_id, now
            session.add(row)
            audit.updated(session, actor, row, before=before, at=now, action="agreement_accepted")
            return row


async def close_challenges(
    session: AsyncSession,
    actor: Actor,
    context: MatchContext,
    ruling: str,
    *,
    rule_id: str | None,
    now: datetime,
    challenge_id: int | None = None,
) -> list[MatchChallenge]:
    """Record a commissioner's ruling on the match's open challenges (or one of them), each kept as a precedent
    tagged with its kind, rule and machine (COMMON-RULING-1), flagged when the official played in the match
    (COMMON-DISPUTE-1). Used by `/match ruling` and by an override that settles a dispute."""
    if not is_commissioner(actor, context.league):
        raise PermissionDenied("Only a commissioner rules on disputes.")
    text = ruling.strip()[:1000]
    if not text:
        raise InvalidInput("Write the ruling as it should be recorded.")
    open_rows = await scoreboard.open_challenges(session, context.match.id or 0)
    if challenge_id is not None:
        open_rows = [row for row in open_rows if row.id == challenge_id]
    if not open_rows:
        which = f"dispute #{challenge_id}" if challenge_id is not None else "dispute"
        raise NotFound(f"{context.label} has no open {which}.")
    took_part = await _took_part(session, actor, context)
    for row in open_rows:
        before = audit.snapshot(row)
        row.ruling, row.ruled_by, row.ruled_at = text, actor.user_id, now
        row.rule_id = row.rule_id or rule_tag(rule_id)
        session.add(row)
        audit.updated(session, actor, row, before=before, at=now, action="ruling")
        families = await _machine_families(session, context, row.games)
        await keep_precedent(
            session, actor, league_id=context.league.id or 0, challenge_id=row.id, kind=row.kind,
            rule_id=row.rule_id, machine_family=families[0] if families else None, situation=row.reason,
            ruling=text, official_took_part=took_part, now=now,
        )  # fmt: skip
    return open_rows


async def _settle_both_ways(
    session: AsyncSession,
    actor: Actor,
    context: MatchContext,
    pick: str | None,
    ruling: str,
    now: datetime,
) -> None:
    """TEAM-DISP-3: the ruling on games played both ways keeps the scores as entered (A) or puts B's in place,
    each change an override with the ruling as its reason."""
    challenged = {
        (r, g) for row in await scoreboard.open_challenges(session, context.match.id or 0) for r, g in row.games
    }
    pending = [
        alt
        for alt in (
            await session.exec(select(AlternativeResult).where(AlternativeResult.match_id == context.match.id))
        ).all()
        if alt.chosen is None and (alt.round_index, alt.game_number) in challenged
    ]
    if pick is None:
        if pending:
            games = ", ".join(f"round {a.round_index} game {a.game_number}" for a in pending)
            raise RuleViolation("TEAM-DISP-3", f"{games} was played both ways: say which result stands with `pick:`.")
        return
    if not pending:
        raise InvalidInput("No disputed game of this match was played both ways; leave `pick:` out.")
    for alt in pending:
        before = audit.snapshot(alt)
        alt.chosen = pick
        session.add(alt)
        audit.updated(session, actor, alt, before=before, at=now, reason=ruling, action="ruling")
        if pick != "B":
            continue
        for player, score in alt.scores.items():
            row = (
                await session.exec(
                    select(GameScore)
                    .where(
                        GameScore.match_id == context.match.id, GameScore.round_index == alt.round_index,
                        GameScore.game_number == alt.game_number, GameScore.player_id == int(player),
                        GameScore.status != ScoreStatus.VOID,
                    )
                    .order_by(col(GameScore.id).desc())
                )
            ).first()  # fmt: skip
            if row is None:
                continue  # no score as entered for that seat: nothing to replace
            row_before = audit.snapshot(row)
            row.score = score
            session.add(row)
            audit.updated(session, actor, row, before=row_before, at=now, reason=ruling, action="override")


async def _ended_at(session: AsyncSession, context: MatchContext) -> datetime | None:
    """When the match ended, for the 24-hour window: its last game score entered (None before any)."""
    query = select(func.max(GameScore.entered_at)).where(GameScore.match_id == context.match.id)
    ended = (await session.exec(query)).one()
    if ended is None:
        return None
    return (ended if ended.tzinfo else ended.replace(tzinfo=context.zone)).astimezone(context.zone)


async def _machine_families(session: AsyncSession, context: MatchContext, games: list[list[int]]) -> list[str]:
    """The model families of the machines the challenged games were played on."""
    lineups = (await session.exec(select(MatchLineup).where(MatchLineup.match_id == context.match.id))).all()
    machine_ids = {
        entry.games[game - 1].get("machine")
        for entry in lineups
        for round_index, game in games
        if entry.round_index == round_index and 0 < game <= len(entry.games)
    } - {None}
    if not machine_ids:
        return []
    rows = (await session.exec(select(Machine.family).where(col(Machine.id).in_(machine_ids)))).all()
    return sorted(set(rows))


async def _similar(
    session: AsyncSession, context: MatchContext, *, kind: str, rule_id: str | None, families: list[str]
) -> list[Precedent]:
    rows = await league_precedents(session, context.league.id or 0)
    by_id = {row.id: row for row in rows}
    found = rules.similar(precedent_views(rows), kind=kind, rule_id=rule_id, machine_families=families)
    return [by_id[view.id] for view in found]


async def _took_part(session: AsyncSession, actor: Actor, context: MatchContext) -> bool:
    me = await player_id_of(session, context.league, actor.user_id)
    if me is None:
        return False
    query = select(MatchVisit.id).where(MatchVisit.match_id == context.match.id, MatchVisit.player_id == me)
    return (await session.exec(query)).first() is not None
