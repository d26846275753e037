"""The field league's finals: entries, tie-breakers, seeding, best-of-three picks and results, payouts and
the IFPA export (FIELD-FIN-*, FIELD-STAND-2, FIELD-PAY-2, FIELD-IFPA-*).

Results are facts (each game's picks and winner); the bracket, who plays whom next, finishing positions and
payouts are recomputed from them by `bot.rules.brackets` and `bot.rules.field.finals`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.clock import Clock
from bot.rules.brackets import Bracket, BracketState, MatchState, resolve
from bot.rules.field import finals as finals_rules
from bot.rules.field.scoring import MachineId, PlayerId
from bot.rules.field.standings import SeasonRow
from bot.rules.refusals import Conflict, InvalidInput, NotFound, PermissionDenied, RuleViolation
from bot.services import audit
from bot.services.actor import Actor
from bot.services.field.facts import FieldContext, load_context, load_season, players_key
from bot.services.field.nights import check_allowed, registered_player
from bot.services.permissions import is_commissioner, require_commissioner
from storage.db import Database
from storage.field import FieldFinals, FieldFinalsEntry, FieldFinalsGame
from storage.models import Machine

B_PREFIX = "B-"  # match codes of the B bracket (FIELD-AMB-4)


@dataclass(frozen=True)
class BracketView:
    name: str
    bracket: Bracket
    state: BracketState
    players: dict[int, int]  # local seed → player id
    games: dict[str, list[finals_rules.FinalsGame]]  # match code → games so far


@dataclass(frozen=True)
class FinalsView:
    context: FieldContext
    names: dict[int, str]
    machine_names: dict[int, str]
    entries: list[FieldFinalsEntry]
    seeds: list[int]
    brackets: list[BracketView]
    payout: finals_rules.Payout
    notes: list[str]
    ifpa: list[finals_rules.IfpaRow]  # once every bracket has its champion
    table: list[SeasonRow]


class FieldFinalsService:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    async def enter(self, actor: Actor, league_name: str | None, *, member_id: int, paid: bool) -> FinalsView:
        """FIELD-FIN-1: an official checks a player in at the finals with the fee paid."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "check players in for the finals")
            finals = await _finals(session, context, create=True)
            if finals.seeds:
                raise Conflict("The finals are seeded: entries are closed.")
            player = await registered_player(session, context, member_id)
            season = await load_season(session, context)
            await check_allowed(session, context, [player], season, now, doing="enter the finals")
            table = season.season_table()
            row = next((r for r in table if r.player == player.id), None)
            finals_rules.check_finals_entry(row, present=True, paid=paid, options=context.options)
            entry = FieldFinalsEntry(
                finals_id=finals.id or 0,
                player_id=player.id or 0,
                paid=paid,
                recorded_by=actor.user_id,
                recorded_at=now,
            )
            session.add(entry)
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict(f"{player.display_name} is already entered.") from None
            audit.created(session, actor, entry, at=now)
            return await self._view(session, context)

    async def record_tiebreak(self, actor: Actor, league_name: str | None, *, order: list[int]) -> FinalsView:
        """FIELD-STAND-2: the result of a tie-breaker game between finalists level on points, best first."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "record a finals tie-breaker")
            finals = await _finals(session, context)
            players = [(await registered_player(session, context, user)).id or 0 for user in order]
            seeding = await _seeding(session, context, finals)
            if frozenset(players) not in seeding.open_ties or len(set(players)) != len(players):
                raise RuleViolation("FIELD-STAND-2", "Those players are not a tie waiting for a tie-breaker game.")
            before = audit.snapshot(finals)
            finals.tiebreaks = {**finals.tiebreaks, players_key(set(players)): players}
            session.add(finals)
            audit.updated(session, actor, finals, before=before, at=now)
            return await self._view(session, context)

    async def seed(self, actor: Actor, league_name: str | None) -> FinalsView:
        """FIELD-FIN-2/3: seeds fixed from the standings after drops among the entrants; refused while a tie
        among them waits for its tie-breaker game (on a machine drawn at random, its seed given)."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            require_commissioner(actor, context.league, "seed the finals")
            finals = await _finals(session, context)
            if finals.seeds:
                raise Conflict("The finals are already seeded; seeds stay fixed for the whole finals (FIELD-FIN-2).")
            seeding = await _seeding(session, context, finals)
            if seeding.open_ties:
                season = await load_season(session, context)
                machines = await _finals_machines(session, context)
                tie = seeding.open_ties[0]
                draw_seed = (finals.id or 0) * 100_003 + sum(int(p) for p in tie)
                machine = finals_rules.draw_tiebreak_machine(machines, draw_seed)
                names = " and ".join(sorted(season.names[int(p)] for p in tie))
                drawn = season.machine_names[int(machine)]
                raise RuleViolation(
                    "FIELD-STAND-2",
                    f"{names} are level on points: they play a tie-breaker game on {drawn} "
                    f"(drawn at random, seed {draw_seed}); record it with `/field finals tiebreak`, then seed again.",
                )
            finals_rules.finals_brackets(seeding, context.options)  # refuses fewer than two (FIELD-FIN-3)
            before = audit.snapshot(finals)
            finals.seeds = [int(p) for p in seeding.seeds]
            finals.a_division = seeding.a_division
            finals.seeded_at = now
            session.add(finals)
            audit.updated(session, actor, finals, before=before, at=now)
            return await self._view(session, context)

    async def pick(
        self,
        actor: Actor,
        league_name: str | None,
        *,
        match_code: str,
        kind: finals_rules.PickKind,
        machine_id: int | None,
        plays_first: bool | None,
        member_id: int | None,
    ) -> FinalsView:
        """FIELD-FIN-5/6: a player of the pairing picks the machine or the order of the current game."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            finals = await _finals(session, context)
            view = await self._view(session, context)
            bracket_index, match, seeds = _ready_match(view, match_code)
            picker = await self._acting_seed(session, context, actor, member_id, view.brackets[bracket_index], seeds)
            games = view.brackets[bracket_index].games.get(match.match.id, [])
            queued = {
                game.machine
                for b in view.brackets
                for code, gs in b.games.items()
                for game in gs
                if game.winner is None and game.machine is not None and code != match.match.id
            }
            pick = finals_rules.Pick(picker, kind, machine_id, plays_first)
            machine_names: dict[MachineId, str] = {m: n for m, n in view.machine_names.items()}
            finals_rules.check_pick(
                games,
                pick,
                seeds,
                finals_machines=set(await _finals_machines(session, context)),
                queued=queued,
                name=machine_names,
            )
            current = await _current_game(session, finals, bracket_index, match.match.id, len(games))
            before = audit.snapshot(current) if current.id else None
            current.picks = [*current.picks, _pick_json(pick)]
            session.add(current)
            try:
                await session.flush()
            except IntegrityError:
                raise Conflict(
                    "The other player picked at the same moment: look at the pairing and pick again."
                ) from None
            if before is None:
                audit.created(session, actor, current, at=now)
            else:
                audit.updated(session, actor, current, before=before, at=now)
            return await self._view(session, context)

    async def result(self, actor: Actor, league_name: str | None, *, match_code: str, winner_id: int) -> FinalsView:
        """FIELD-FIN-4: the winner of the current game; a pairing ends at two wins and the bracket moves on."""
        now = self.clock.now()
        async with self.db.writing() as session:
            context = await load_context(session, actor, league_name, self.clock.now())
            finals = await _finals(session, context)
            view = await self._view(session, context)
            bracket_index, match, seeds = _ready_match(view, match_code)
            bracket = view.brackets[bracket_index]
            winner = await self._acting_seed(session, context, actor, winner_id, bracket, seeds, check_actor=True)
            games = bracket.games.get(match.match.id, [])
            finals_rules.check_game_result(games, seeds, winner)
            current = await _current_game(session, finals, bracket_index, match.match.id, len(games))
            before = audit.snapshot(current)
            current.winner_seed = winner
            session.add(current)
            audit.updated(session, actor, current, before=before, at=now)
            return await self._view(session, context)

    async def show(self, actor: Actor, league_name: str | None, *, season_number: int | None = None) -> FinalsView:
        """The season's finals (an earlier season's by `season_number`)."""
        async with self.db.reading() as session:
            context = await load_context(session, actor, league_name, self.clock.now(), season=season_number)
            return await self._view(session, context)

    async def pairing_choices(self, guild_id: int, league_name: str | None) -> list[str]:
        actor = Actor(guild_id, 0, "", frozenset(), False, "autocomplete")
        view = await self.show(actor, league_name)
        return [_code(index, state.match.id) for index, b in enumerate(view.brackets) for state in b.state.ready()]

    async def _acting_seed(
        self,
        session: AsyncSession,
        context: FieldContext,
        actor: Actor,
        member_id: int | None,
        bracket: BracketView,
        seeds: tuple[int, int],
        *,
        check_actor: bool = False,
    ) -> int:
        """The local seed of `member_id` (default: the actor) in this pairing. Players act for themselves;
        officials for anyone."""
        official = is_commissioner(actor, context.league)
        target = member_id if member_id is not None else actor.user_id
        if not official and (target != actor.user_id or check_actor):
            me = (await registered_player(session, context, actor.user_id)).id
            if me not in (bracket.players[seeds[0]], bracket.players[seeds[1]]):
                raise PermissionDenied("Only the two players of this pairing or an official can do that.")
            if not check_actor:
                raise PermissionDenied("Players pick for themselves; an official can pick for someone.")
        player = (await registered_player(session, context, target)).id
        for seed in seeds:
            if bracket.players[seed] == player:
                return seed
        raise InvalidInput("That player is not in this pairing.")

    async def _view(self, session: AsyncSession, context: FieldContext) -> FinalsView:
        return await finals_view(session, context)


async def finals_view(session: AsyncSession, context: FieldContext) -> FinalsView:
    """The finals as they stand: entries, seeds, each bracket's state (`/field finals` and the bracket post)."""
    season = await load_season(session, context)
    table = season.season_table()
    finals = await _existing_finals(session, context)
    entries: list[FieldFinalsEntry] = []
    brackets: list[BracketView] = []
    seeds: list[int] = []
    if finals is not None and finals.id is not None:
        entries = list(
            (await session.exec(select(FieldFinalsEntry).where(FieldFinalsEntry.finals_id == finals.id))).all()
        )
        seeds = list(finals.seeds)
        if seeds:
            rows = (
                await session.exec(
                    select(FieldFinalsGame)
                    .where(FieldFinalsGame.finals_id == finals.id)
                    .order_by(col(FieldFinalsGame.number))
                )
            ).all()
            brackets = _bracket_views(finals, context, rows)
    payout = finals_rules.finals_payouts(sum(1 for e in entries if e.paid), context.options)
    return FinalsView(
        context,
        season.names,
        season.machine_names,
        entries,
        seeds,
        brackets,
        payout,
        finals_rules.pairing_notes(context.options),
        _ifpa(brackets, table),
        table,
    )


async def _finals(session: AsyncSession, context: FieldContext, *, create: bool = False) -> FieldFinals:
    finals = await _existing_finals(session, context)
    if finals is None and create:
        assert context.league.id is not None and context.season.id is not None
        finals = FieldFinals(league_id=context.league.id, season_id=context.season.id)
        session.add(finals)
        await session.flush()
    if finals is None:
        raise NotFound("No finals yet: an official checks players in with `/field finals entry`.")
    return finals


async def _existing_finals(session: AsyncSession, context: FieldContext) -> FieldFinals | None:
    return (await session.exec(select(FieldFinals).where(FieldFinals.season_id == context.season.id))).first()


async def _seeding(session: AsyncSession, context: FieldContext, finals: FieldFinals) -> finals_rules.Seeding:
    entries = (await session.exec(select(FieldFinalsEntry).where(FieldFinalsEntry.finals_id == finals.id))).all()
    table = (await load_season(session, context)).season_table()
    tiebreaks = {
        frozenset[PlayerId](int(p) for p in key.split(",")): tuple[PlayerId, ...](order)
        for key, order in finals.tiebreaks.items()
    }
    return finals_rules.seed_finals(table, {e.player_id for e in entries if e.paid}, context.options, tiebreaks)


async def _finals_machines(session: AsyncSession, context: FieldContext) -> list[MachineId]:
    machines = (await session.exec(select(Machine).where(Machine.league_id == context.league.id))).all()
    return [m.id for m in machines if m.id is not None and m.status.in_service and m.removed_at is None]


async def _current_game(
    session: AsyncSession, finals: FieldFinals, bracket: int, code: str, played: int
) -> FieldFinalsGame:
    query = select(FieldFinalsGame).where(
        FieldFinalsGame.finals_id == finals.id,
        FieldFinalsGame.bracket == bracket,
        FieldFinalsGame.match_code == code,
        FieldFinalsGame.winner_seed == None,  # noqa: E711
    )
    game = (await session.exec(query)).first()
    if game is None:
        game = FieldFinalsGame(finals_id=finals.id or 0, bracket=bracket, match_code=code, number=played + 1)
    return game


def _pick_json(pick: finals_rules.Pick) -> dict[str, Any]:
    return {"seed": pick.seed, "kind": pick.kind.value, "machine": pick.machine, "plays_first": pick.plays_first}


def _bracket_views(finals: FieldFinals, context: FieldContext, rows: Sequence[FieldFinalsGame]) -> list[BracketView]:
    seeding = finals_rules.Seeding(tuple(finals.seeds), (), finals.a_division)
    views = []
    for index, bracket in enumerate(finals_rules.finals_brackets(seeding, context.options)):
        offset = 0 if index == 0 else finals.a_division
        players = {seed: finals.seeds[offset + seed - 1] for seed in range(1, bracket.entrants + 1)}
        games: dict[str, list[finals_rules.FinalsGame]] = {}
        for row in rows:
            if row.bracket == index:
                picks = tuple(
                    finals_rules.Pick(p["seed"], finals_rules.PickKind(p["kind"]), p["machine"], p["plays_first"])
                    for p in row.picks
                )
                games.setdefault(row.match_code, []).append(finals_rules.FinalsGame(row.number, picks, row.winner_seed))
        winners: dict[str, int] = {}
        while True:  # a decided pairing can make the next one ready: resolve until nothing new is decided
            state = resolve(bracket, winners)
            decided = {m.match.id: w for m in state.ready() if (w := _pairing_winner(m, games)) is not None}
            if not decided:
                break
            winners.update(decided)
        name = "Finals" if not context.options.ab_divisions else ("A division" if index == 0 else "B division")
        views.append(BracketView(name, bracket, state, players, games))
    return views


def _pairing_winner(match: MatchState, games: dict[str, list[finals_rules.FinalsGame]]) -> int | None:
    assert isinstance(match.top, int) and isinstance(match.bottom, int)  # a ready match has two seeds
    return finals_rules.pairing_winner(games.get(match.match.id, []), (match.top, match.bottom))


def _code(bracket_index: int, match_id: str) -> str:
    return f"{B_PREFIX}{match_id}" if bracket_index else match_id


def _ready_match(view: FinalsView, code: str) -> tuple[int, MatchState, tuple[int, int]]:
    if not view.brackets:
        raise RuleViolation("FIELD-FIN-2", "The finals are not seeded yet: an official runs `/field finals seed`.")
    wanted = code.strip().upper()
    index = 1 if wanted.startswith(B_PREFIX) and len(view.brackets) > 1 else 0
    match_id = wanted.removeprefix(B_PREFIX) if index else wanted
    for state in view.brackets[index].state.ready():
        if state.match.id == match_id:
            assert isinstance(state.top, int) and isinstance(state.bottom, int)
            return index, state, (state.top, state.bottom)
    open_codes = ", ".join(_code(i, s.match.id) for i, b in enumerate(view.brackets) for s in b.state.ready())
    raise InvalidInput(f"No pairing {code!r} is being played now. Pairings in play: {open_codes or 'none'}.")


def _ifpa(brackets: list[BracketView], table: list[SeasonRow]) -> list[finals_rules.IfpaRow]:
    """FIELD-IFPA-1/2 once every bracket has a champion; B finishers come after A's (FIELD-AMB-4)."""
    if not brackets or any(b.state.champion is None for b in brackets):
        return []
    positions: dict[PlayerId, int] = {}
    offset = 0
    for b in brackets:
        for seed, position in finals_rules.finishing_positions(b.bracket, b.state).items():
            positions[b.players[seed]] = offset + position
        offset += b.bracket.entrants
    return finals_rules.ifpa_rows(positions, table)
