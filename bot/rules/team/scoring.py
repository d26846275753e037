"""Team-format results: who wins a game, what a match is worth, and when it is final (CATALOG §2.7–2.12).

Facts in, results out: a service loads the entered scores, penalties, attendance, walkouts, tie-breaker and
confirmations, and gets back points, outcomes and what is still missing. Nothing is stored here, so a
corrected score simply recomputes everything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from bot.rules.refusals import InvalidInput, RuleViolation
from bot.rules.team.attendance import AttendanceStatus
from bot.rules.team.model import MatchOutcome, PlayerId, RoundKind, ScoreStatus, Side
from bot.rules.team.options import TeamOptions

BOTH_SIDES = frozenset(Side)
GAMES_PER_ROUND = {RoundKind.DOUBLES: 2, RoundKind.SINGLES: 4}  # TEAM-LINEUP-1
COUNTING_STATUSES = frozenset({ScoreStatus.NORMAL, ScoreStatus.REPLAY_REPLACES})


class Offence(StrEnum):
    """In-game penalties (TEAM-PEN-*). The first four disqualify one score; the last two lose the game."""

    OUT_OF_TURN = "out_of_turn"  # TEAM-PEN-1: the offender's score
    DEATH_SAVE = "death_save"  # TEAM-PEN-2: the offender's score
    EXTRA_BALL_VIOLATION = "extra_ball_violation"  # TEAM-PEN-3: the offender's score
    PHYSICAL_ASSIST = "physical_assist"  # TEAM-PEN-4: the assisted player's score
    SLAM_TILT = "slam_tilt"  # TEAM-PEN-5: the offender's team loses the game
    TILT_THROUGH = "tilt_through"  # TEAM-PEN-6: the offender's team loses the game


GAME_LOSS_OFFENCES = frozenset({Offence.SLAM_TILT, Offence.TILT_THROUGH})


class Flag(StrEnum):
    """Outcomes the bot reports to the commissioner rather than settling quietly (CATALOG §0 "Flag")."""

    VOID_GAME = "void_game"  # TEAM-AMB-22: no valid score on either side
    GAME_LOSS_BOTH_SIDES = "game_loss_both_sides"  # both teams incurred a game loss; the sheet is silent
    DOUBLE_FORFEIT = "double_forfeit"  # TEAM-AMB-8
    DOUBLE_LOSS = "double_loss"  # TEAM-AMB-9: level after both teams left
    TIEBREAKER_FORFEITED = "tiebreaker_forfeited"  # level, but only one team left or stopped: see _level_outcome


class Walkout(StrEnum):
    """How a team stopped playing a disputed match (TEAM-FORF-4, TEAM-AMB-9)."""

    REFUSED = "refused"  # would not play on, but is still there (could play a tie-breaker)
    LEFT = "left"


@dataclass(frozen=True)
class PlayerScore:
    """One entered score (COMMON-SCORE-2, TEAM-MATCH-5).

    A replay is a second entry for the same player with status REPLAY_REPLACES: it counts even if lower
    (TEAM-PEN-1, TEAM-MACH-6). VOID entries are kept for the record and never count.
    """

    player: PlayerId
    score: int
    status: ScoreStatus = ScoreStatus.NORMAL


@dataclass(frozen=True)
class Penalty:
    """An in-game penalty. `player` is the offender, except for PHYSICAL_ASSIST: the assisted player."""

    offence: Offence
    player: PlayerId


@dataclass(frozen=True)
class GameScores:
    """What happened in one match game.

    A side with no entries has not been scored yet. `machine_players` is the machine's max_players
    (COMMON-MACH-2); on a 2-player machine the i-th HOME player played the i-th AWAY player 1-on-1, which
    matters only for `doubles_tally=wins` (TEAM-AMB-3). `forfeited_by` holds the team(s) forfeiting this
    Singles game (TEAM-SHORT-5/6); the opponent's named player needs no score.
    """

    kind: RoundKind
    home: tuple[PlayerScore, ...] = ()
    away: tuple[PlayerScore, ...] = ()
    machine_players: int = 4
    forfeited_by: frozenset[Side] = frozenset()
    penalties: tuple[Penalty, ...] = ()

    def entries(self, side: Side) -> tuple[PlayerScore, ...]:
        return self.home if side is Side.HOME else self.away

    @property
    def is_entered(self) -> bool:
        return bool(self.forfeited_by) or all(self.entries(side) for side in Side)


@dataclass(frozen=True)
class GameResult:
    points: Mapping[Side, int]
    winner: Side | None
    needs_replay: bool = False  # TEAM-AMB-4 tie_replay, or a 1–1 under doubles_tally=wins (TEAM-AMB-3)
    flags: tuple[Flag, ...] = ()


def game_points(kind: RoundKind, options: TeamOptions) -> int:
    """What winning a game is worth (TEAM-LINEUP-1): 2 for Doubles, 1 for Singles by default."""
    return options.doubles_game_pts if kind is RoundKind.DOUBLES else options.singles_game_pts


def counted_scores(game: GameScores) -> dict[Side, tuple[PlayerScore, ...]]:
    """Each side's scores that count, after replays, VOIDs, DQs and forfeited scores (TEAM-GAME-1, TEAM-PEN-1..4).

    These are also the individual results a high-score table may take (TEAM-MATCH-5).
    """
    disqualified = _disqualified_players(game)
    return {
        side: tuple(
            entry
            for entry in _standing_scores(game.entries(side)).values()
            if entry.status in COUNTING_STATUSES and entry.player not in disqualified
        )
        for side in Side
    }


def game_result(game: GameScores, options: TeamOptions) -> GameResult:
    """Points for one game, applied in this order:

    1. forfeits: one team forfeits → the other wins (TEAM-SHORT-5); both → no one scores (TEAM-SHORT-6);
    2. game-loss penalties → the other team wins whatever the scores (TEAM-GAME-5, TEAM-PEN-5/6);
    3. DQs: a side with no valid score loses, and with none on either side the game is VOID and flagged
       (TEAM-GAME-4, TEAM-PEN-4, TEAM-AMB-22);
    4. the tally: sums (TEAM-GAME-1..3, TEAM-SHORT-2 solo vs pair), or 1-on-1 wins (TEAM-AMB-3 option);
       exactly level → replay on the same machine with the same players (TEAM-AMB-4, TEAM-GAME-6).
    """
    if not game.is_entered:
        raise InvalidInput("Enter both teams' scores for this game first.")
    worth = game_points(game.kind, options)
    if game.forfeited_by:
        return _no_result() if game.forfeited_by == BOTH_SIDES else _won_by(_other(game.forfeited_by), worth)
    # TEAM-TV-18 (b): HOME's pair outscores AWAY 80M to 40M, but a HOME slam tilt gives AWAY the game
    losing = frozenset(_side_of(game, p.player) for p in game.penalties if p.offence in GAME_LOSS_OFFENCES)
    if losing:
        return _no_result(Flag.GAME_LOSS_BOTH_SIDES) if losing == BOTH_SIDES else _won_by(_other(losing), worth)
    counted = counted_scores(game)
    scoring_sides = frozenset(side for side in Side if counted[side])
    if not scoring_sides:
        return _no_result(Flag.VOID_GAME)
    if scoring_sides != BOTH_SIDES:
        return _won_by(next(iter(scoring_sides)), worth)
    if _tallies_wins(game, options):
        tally = _one_on_one_wins(game)
    else:
        # TEAM-TV-2: 12,340,000 + 3,500,000 = 15,840,000 < 9,000,000 + 6,900,000 = 15,900,000, so AWAY wins
        tally = {side: sum(entry.score for entry in counted[side]) for side in Side}
    if tally[Side.HOME] == tally[Side.AWAY]:  # COMMON-AMB-4: a raw-score tie takes the TEAM-AMB-4 default
        return GameResult(points=_nil(), winner=None, needs_replay=True)
    return _won_by(max(Side, key=lambda side: tally[side]), worth)


def _standing_scores(entries: Sequence[PlayerScore]) -> dict[PlayerId, PlayerScore]:
    """The entry that stands for each player, in order of first appearance: a replay beats the original.

    COMMON-SCORE-2: the statuses' effects: REPLAY_REPLACES counts even if lower, VOID never counts.
    """
    standing: dict[PlayerId, PlayerScore | None] = {}
    for entry in entries:
        held = standing.get(entry.player)
        if entry.status is ScoreStatus.VOID:
            standing.setdefault(entry.player, None)  # keeps the player's place for a 1-on-1 pairing
        elif held is None or entry.status is ScoreStatus.REPLAY_REPLACES:
            standing[entry.player] = entry
        elif held.status is not ScoreStatus.REPLAY_REPLACES:
            raise InvalidInput(f"Player {entry.player} has two scores in one game: void one or mark it a replay.")
    return {player: entry for player, entry in standing.items() if entry is not None}


def _disqualified_players(game: GameScores) -> frozenset[PlayerId]:
    for penalty in game.penalties:
        _side_of(game, penalty.player)  # a penalty must name someone who played this game
    return frozenset(p.player for p in game.penalties if p.offence not in GAME_LOSS_OFFENCES)


def _side_of(game: GameScores, player: PlayerId) -> Side:
    for side in Side:
        if any(entry.player == player for entry in game.entries(side)):
            return side
    raise InvalidInput(f"Player {player} did not play this game, so cannot be penalised in it.")


def _tallies_wins(game: GameScores, options: TeamOptions) -> bool:
    """TEAM-AMB-3 `wins` counts 1-on-1 wins only for a 2-vs-2 Doubles game on a 2-player machine.

    A short team's 1-vs-2 game is always solo score vs pair sum (TEAM-SHORT-2, TEAM-AMB-23).
    """
    return (
        options.doubles_tally == "wins"
        and game.kind is RoundKind.DOUBLES
        and game.machine_players == 2
        and all(len(_standing_scores(game.entries(side))) == 2 for side in Side)
    )


def _one_on_one_wins(game: GameScores) -> dict[Side, int]:
    """1-on-1 wins per side; a DQ'd player loses their 1-on-1 outright (TEAM-PEN-4 "2-player game")."""
    counted = {side: {entry.player: entry.score for entry in scores} for side, scores in counted_scores(game).items()}
    wins = _nil()
    pairings = zip(_standing_scores(game.home), _standing_scores(game.away), strict=True)
    for home_player, away_player in pairings:
        home_score, away_score = counted[Side.HOME].get(home_player), counted[Side.AWAY].get(away_player)
        if home_score is not None and (away_score is None or home_score > away_score):
            wins[Side.HOME] += 1
        elif away_score is not None and (home_score is None or away_score > home_score):
            wins[Side.AWAY] += 1
    return wins


def _won_by(side: Side, worth: int) -> GameResult:
    return GameResult(points={side: worth, side.other: 0}, winner=side)


def _no_result(*flags: Flag) -> GameResult:
    return GameResult(points=_nil(), winner=None, flags=flags)


def _nil() -> dict[Side, int]:
    return dict.fromkeys(Side, 0)


def _other(sides: frozenset[Side]) -> Side:
    (side,) = sides
    return side.other


# --- Extra balls (TEAM-PEN-3) ---


def extra_balls_per_player(balls_per_game: int, *, tiebreaker: bool, opted_out: bool) -> int:
    """Extra balls a player may play in one game: 1 on a 3-ball machine in a regular match game, else 0.

    Never on 5-ball machines or in tie-breakers, nor when both captains opted out (TEAM-PEN-3, TEAM-TB-3).
    Unplayed extra balls are plunged and left alone.
    """
    return 1 if balls_per_game == 3 and not tiebreaker and not opted_out else 0


def check_extra_ball_opt_out(*, agreed_by: frozenset[Side], round_one_declared: bool) -> bool:
    """TEAM-PEN-3: both captains may opt out of extra balls, only before a round-1 lineup is declared. Returns
    whether the match is now played without extra balls (both captains agreed); one captain's agreement waits
    for the other's."""
    if round_one_declared:
        raise RuleViolation("TEAM-PEN-3", "Extra-ball opt-out must be agreed before the match starts")
    return agreed_by == BOTH_SIDES


# --- Match result (TEAM-MATCH-*, TEAM-FORF-*, TEAM-VENUE-*, TEAM-TB-*) ---


@dataclass(frozen=True)
class TiebreakerScores:
    """TEAM-TB-3: one score per team, as shown after Player 2's ball 3 (AWAY is Player 1, HOME Player 2)."""

    home: int
    away: int


@dataclass(frozen=True)
class MatchFacts:
    """Everything recorded about one match that bears on its result.

    `attendance` is each team's class at window close (TEAM-SCHED-3), with SHORT re-checked at each
    round's declaration (TEAM-AMB-7). `rounds` holds the declared rounds in play order, each with all its
    games (2 Doubles, 4 Singles); a forfeited Singles slot is entered at declaration as a GameScores with
    `forfeited_by`. `played_out_evening`: against a forfeiting team, the attending team stayed and played
    the evening with at least 4 players (TEAM-FORF-1). `venue_forfeit` is the team an official found in
    breach of TEAM-VENUE-1 (HOME, for moving without cause) or TEAM-VENUE-4 (the team that refused to
    move). `confirmed_by` holds the sides whose captain signed the result (TEAM-MATCH-4), or an official's
    ruling.
    """

    attendance: Mapping[Side, AttendanceStatus] = field(
        default_factory=lambda: dict.fromkeys(Side, AttendanceStatus.NORMAL)
    )
    rounds: tuple[tuple[GameScores, ...], ...] = ()
    tiebreaker: TiebreakerScores | None = None
    confirmed_by: frozenset[Side] = frozenset()
    walkouts: Mapping[Side, Walkout] = field(default_factory=dict)
    played_out_evening: bool = False
    venue_forfeit: Side | None = None


@dataclass(frozen=True)
class MatchResult:
    """Points so far, the Win/Loss once decided, and whether the result is final.

    `available_points` is what the played format puts at stake (16, or 14 with both teams short); None for
    a match decided by forfeit. `missing` lists, in plain words, what stands between now and final.
    """

    points: Mapping[Side, int]
    outcome: Mapping[Side, MatchOutcome] | None
    available_points: int | None
    final: bool
    missing: tuple[str, ...] = ()
    needs_tiebreaker: bool = False
    flags: tuple[Flag, ...] = ()


def match_result(facts: MatchFacts, options: TeamOptions) -> MatchResult:
    """The match's result from its facts: a venue forfeit, an attendance forfeit, or the games played."""
    if facts.venue_forfeit is not None:
        return _venue_forfeit(facts.venue_forfeit, options)
    forfeiting = frozenset(side for side in Side if facts.attendance[side] is AttendanceStatus.FORFEIT)
    if forfeiting == BOTH_SIDES:
        # TEAM-FORF-3, TEAM-AMB-8: double forfeit, both Loss with 0 points.
        return MatchResult(_nil(), _both(MatchOutcome.LOSS), None, final=True, flags=(Flag.DOUBLE_FORFEIT,))
    if forfeiting:
        return _attendance_forfeit(_other(forfeiting), facts, options)
    return _played_match(facts, options)


def _venue_forfeit(loser: Side, options: TeamOptions) -> MatchResult:
    """TEAM-VENUE-1/4: the team in breach gets a forfeit Loss with 0, the other a Win with 12.

    TEAM-TV-8 (a): HOME moves with a machine working and the venue open → HOME L 0, AWAY W 12.
    """
    return MatchResult(
        points={loser: 0, loser.other: options.illegal_move_win_pts},
        outcome=_won(loser.other),
        available_points=None,
        final=True,
    )


def _attendance_forfeit(attending: Side, facts: MatchFacts, options: TeamOptions) -> MatchResult:
    """TEAM-FORF-1: Win and 9 to the attending team, +3 if it played out the evening with at least 4.

    A team that attended with only 3 gets no +3 (TEAM-AMB-25). Games played that evening still count for
    high scores (TEAM-FORF-2) but not for points. Its captain's confirmation settles the +3.
    """
    bonus = facts.attendance[attending] is AttendanceStatus.NORMAL and facts.played_out_evening
    points = options.forfeit_win_pts + (options.forfeit_played_bonus if bonus else 0)
    missing = _missing_confirmations(frozenset({attending}), facts.confirmed_by)
    return MatchResult(
        points={attending: points, attending.other: 0},
        outcome=_won(attending),
        available_points=None,
        final=not missing,
        missing=tuple(missing),
    )


def check_played_out(attending: AttendanceStatus, team_name: str) -> None:
    """TEAM-AMB-25: the +3 for playing out a forfeit evening needs a fully attending team. A team that came with 3
    keeps the Win and 9 match points but cannot play the evening with 4, so its claim is refused."""
    if attending is not AttendanceStatus.NORMAL:
        raise RuleViolation(
            "TEAM-AMB-25",
            f"{team_name} attended with 3 players, so its forfeit win stays at 9 match points: the +3 for playing "
            "out the evening needs at least 4 present when the start window closed.",
        )


@dataclass
class _Tally:
    """Running totals over a match's games."""

    points: dict[Side, int] = field(default_factory=_nil)
    available: int = 0
    unplayed: int = 0  # at stake but not yet decided: what a walkout hands over (TEAM-FORF-4)
    open_games: list[str] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)

    def add_open(self, stake: int, what: str) -> None:
        self.available += stake
        self.unplayed += stake
        self.open_games.append(what)

    def add_game(self, game: GameScores, where: str, options: TeamOptions) -> None:
        if game.forfeited_by == BOTH_SIDES:
            return  # TEAM-SHORT-6: this game's point is not at stake
        worth = game_points(game.kind, options)
        if not game.is_entered:
            self.add_open(worth, f"{where} scores")
            return
        result = game_result(game, options)
        if result.needs_replay:
            self.add_open(worth, f"{where} replay: same machine, same players (the game was tied)")
            return
        self.available += worth
        for side in Side:
            self.points[side] += result.points[side]
        self.flags += result.flags


def _played_match(facts: MatchFacts, options: TeamOptions) -> MatchResult:
    """TEAM-MATCH-1..4 with TEAM-SHORT-5/6, TEAM-FORF-4, TEAM-TB-4 and TEAM-AMB-9.

    Never final early (TEAM-MATCH-2): every game must be decided or closed by a walkout, a level score
    needs a tie-breaker result (TEAM-MATCH-3), and the captains must confirm (TEAM-MATCH-4).
    """
    tally = _tally_games(facts, options)
    stopped = frozenset(facts.walkouts)
    if len(stopped) == 1:  # TEAM-FORF-4: unplayed points go to the team that stayed
        tally.points[_other(stopped)] += tally.unplayed
    games_closed = bool(stopped) or not tally.open_games
    missing = [] if stopped else list(tally.open_games)
    outcome = None
    needs_tiebreaker = False
    if games_closed:
        outcome, tiebreaker_missing, flags = _decide(tally.points, facts)
        needs_tiebreaker = bool(tiebreaker_missing)  # the only thing a decision can still be missing
        missing += tiebreaker_missing
        tally.flags += flags
    required = frozenset(side for side in Side if facts.walkouts.get(side) is not Walkout.LEFT)
    missing += _missing_confirmations(required, facts.confirmed_by)
    return MatchResult(
        points=tally.points,
        outcome=outcome,
        available_points=tally.available,
        final=not missing,
        missing=tuple(missing),
        needs_tiebreaker=needs_tiebreaker,
        flags=tuple(tally.flags),
    )


def _tally_games(facts: MatchFacts, options: TeamOptions) -> _Tally:
    if len(facts.rounds) > len(options.round_order):
        raise InvalidInput(f"A match has {len(options.round_order)} rounds, not {len(facts.rounds)}.")
    tally = _Tally()
    for number, kind in enumerate(options.round_order, start=1):
        if number > len(facts.rounds):
            tally.add_open(
                _undeclared_round_stake(kind, facts.attendance, options), f"Round {number} lineups and scores"
            )
            continue
        for game_number, game in enumerate(_round_games(facts.rounds[number - 1], kind, number), start=1):
            tally.add_game(game, f"Round {number} game {game_number}", options)
    return tally


def _undeclared_round_stake(kind: RoundKind, attendance: Mapping[Side, AttendanceStatus], options: TeamOptions) -> int:
    game_count = GAMES_PER_ROUND[kind]
    if kind is RoundKind.SINGLES and all(attendance[side] is AttendanceStatus.SHORT for side in Side):
        game_count -= 1  # TEAM-SHORT-6: both teams will forfeit the same game, worth nothing to anyone
    return game_count * game_points(kind, options)


def _round_games(games: tuple[GameScores, ...], kind: RoundKind, number: int) -> tuple[GameScores, ...]:
    if len(games) != GAMES_PER_ROUND[kind] or any(game.kind is not kind for game in games):
        raise InvalidInput(f"Round {number} is {kind.value}: it needs {GAMES_PER_ROUND[kind]} {kind.value} games.")
    return games


class _Decision(NamedTuple):
    outcome: Mapping[Side, MatchOutcome] | None
    missing: list[str]
    flags: list[Flag]


def _decide(points: Mapping[Side, int], facts: MatchFacts) -> _Decision:
    """Outcome once every game is closed: more points wins (TEAM-MATCH-1), else the level rules."""
    if points[Side.HOME] != points[Side.AWAY]:
        return _Decision(_won(max(Side, key=lambda side: points[side])), [], [])
    return _level_outcome(points, facts)


def _level_outcome(points: Mapping[Side, int], facts: MatchFacts) -> _Decision:
    """Any level score goes to a tie-breaker game (TEAM-MATCH-3, TEAM-AMB-9), which adds no points (TEAM-TB-4).

    Both teams gone → double Loss, flagged (TEAM-AMB-9). Level although only one team left (or only one
    stopped, and its unplayed points did not separate the teams) → the sheet is silent; by TEAM-FORF-4
    ("forfeits ALL unplayed") that team forfeits the tie-breaker too, and the commissioner is told.
    """
    left = frozenset(side for side, how in facts.walkouts.items() if how is Walkout.LEFT)
    if left == BOTH_SIDES:
        return _Decision(_both(MatchOutcome.LOSS), [], [Flag.DOUBLE_LOSS])
    unwilling = left or frozenset(facts.walkouts)  # whoever will not play the tie-breaker
    if len(unwilling) == 1:
        return _Decision(_won(_other(unwilling)), [], [Flag.TIEBREAKER_FORFEITED])
    if facts.tiebreaker is None:
        level = f"{points[Side.HOME]}–{points[Side.AWAY]}"
        return _Decision(None, [f"Tie-breaker game (the match is level at {level})"], [])
    winner = tiebreaker_winner(facts.tiebreaker)
    if winner is None:
        return _Decision(None, ["Tie-breaker replay (the tie-breaker scores were equal)"], [])
    return _Decision(_won(winner), [], [])


def tiebreaker_winner(scores: TiebreakerScores) -> Side | None:
    """TEAM-TB-4: the higher team score wins the match. Equal scores → None: replay it (TEAM-AMB-4 by analogy).

    TEAM-TV-17: at 8–8, AWAY's 2,450,000,000 beats HOME's 1,980,000,000 → AWAY W, match points stay 8–8.
    """
    if scores.home == scores.away:
        return None
    return Side.HOME if scores.home > scores.away else Side.AWAY


def _missing_confirmations(required: frozenset[Side], confirmed: frozenset[Side]) -> list[str]:
    return [f"{side.value.upper()} captain's confirmation" for side in Side if side in required - confirmed]


def _won(winner: Side) -> dict[Side, MatchOutcome]:
    return {winner: MatchOutcome.WIN, winner.other: MatchOutcome.LOSS}


def _both(outcome: MatchOutcome) -> dict[Side, MatchOutcome]:
    return dict.fromkeys(Side, outcome)
