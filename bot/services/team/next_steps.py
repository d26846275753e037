"""Who must act next in a team match, read from its scoreboard: the board's **Next:** line and the replies' pings.

A step names the captains who must act (as mentions) and carries their user ids, so a reply can ping exactly
them. Each kind of step is created by one kind of action (entering scores makes a confirmation due, a
declaration the next declaration…), and the reply to that action is the one that pings, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.rules.team import lineup
from bot.rules.team.attendance import AttendanceStatus, WindowState
from bot.rules.team.model import Side
from bot.rules.team.options import TeamOptions
from bot.services.team.match_access import GameRef
from bot.services.team.scoreboard import BoardGame, GameState, Scoreboard


class StepKind(StrEnum):
    RULING = "ruling"
    CONFIRM = "confirm"
    ENTER = "enter"
    DECLARE = "declare"
    TIEBREAK = "tiebreak"
    SIGN = "sign"


@dataclass(frozen=True)
class Step:
    kind: StepKind
    text: str
    users: tuple[int, ...] = ()
    game: GameRef | None = None  # for a game's scores: the game


def steps(board: Scoreboard) -> tuple[Step, ...]:
    """Everything due now, most blocking first; nothing once the match is final.

    An open dispute waits for a ruling, and an offered extension for a commissioner's answer (TEAM-SCHED-3).
    A forfeited match has no games: its attending team signs. After a walkout (TEAM-FORF-4) no more games are
    played or declared: entered scores are confirmed and the teams still required sign."""
    if board.result.final:
        return ()
    if board.open_challenges:
        numbers = ", ".join(f"#{c.id}" for c in board.open_challenges)
        return (Step(StepKind.RULING, f"a commissioner rules on dispute {numbers} (`/match ruling`)"),)
    if board.window is WindowState.EXTENSION_OFFERED:
        text = "a commissioner records whether both captains agreed to wait until 20:30 (`/match extension`)"
        return (Step(StepKind.RULING, text),)
    forfeited = _forfeited(board)
    stopped = bool(board.facts.walkouts)
    due: list[Step] = [
        _game_step(board, game)
        for game in board.games
        if game.state is GameState.CONFIRMATION_DUE or (game.state is not GameState.DONE and not stopped)
    ]
    if declaration := lineup_turn(board):
        round_index, side = declaration
        due.append(Step(StepKind.DECLARE, f"{_who(board, side)} declares round {round_index}", board.captains[side]))
    if board.result.needs_tiebreaker and not due:
        due.append(_tiebreak_step(board))
    if board.ready_to_sign and board.unsigned:
        due.append(_sign_step(board, forfeited))
    return tuple(due)


def _sign_step(board: Scoreboard, forfeited: bool) -> Step:
    """TEAM-MATCH-4: the captains still required sign; against a forfeiting team, the attending team may first
    claim the evening it played out with four or more (TEAM-FORF-1)."""
    unsigned = board.unsigned
    users = tuple(user for side in unsigned for user in board.captains[side])
    who = " and ".join(_who(board, side) for side in unsigned)
    text = f"{who} sign{'s' if len(unsigned) == 1 else ''} the scoresheet"
    full_side = [side for side in unsigned if board.facts.attendance[side] is AttendanceStatus.NORMAL]
    if forfeited and full_side and not board.facts.played_out_evening:
        text += " (after `/match played-out` if the evening was played with four or more)"
    return Step(StepKind.SIGN, text, users)


def step_for(board: Scoreboard, kind: StepKind, game: GameRef) -> Step | None:
    return next((step for step in steps(board) if step.kind is kind and step.game == game), None)


def pings(board: Scoreboard, *created: StepKind, actor: int) -> tuple[int, ...]:
    """The users asked to act by the steps of the kinds an action creates, but not whoever just acted."""
    users = (user for step in steps(board) if step.kind in created for user in step.users if user != actor)
    return tuple(dict.fromkeys(users))


def next_line(board: Scoreboard, limit: int = 4) -> str:
    """ "Next: …", for the board and the replies; empty when nothing is due."""
    due = [step.text for step in steps(board)]
    if not due:
        return ""
    shown = "; ".join(due[:limit]) + (f"; and {len(due) - limit} more" if len(due) > limit else "")
    return f"**Next:** {shown}."


def lineup_turn(board: Scoreboard) -> tuple[int, Side] | None:
    """The round being declared and whose turn it is, unless no more games are played: a team forfeited at the
    start window (TEAM-FORF-1) or walked out (TEAM-FORF-4)."""
    if _forfeited(board) or board.facts.walkouts:
        return None
    return declaration_due(board.night, board.context.options)


def _forfeited(board: Scoreboard) -> bool:
    return any(status is AttendanceStatus.FORFEIT for status in board.facts.attendance.values())


def declaration_due(night: lineup.MatchNight, options: TeamOptions) -> tuple[int, Side] | None:
    """The round being declared now and the side whose turn it is (TEAM-LINEUP-2); None once all are declared."""
    for plan in lineup.round_plan(options):
        declared = {d.side for d in night.declarations if d.round_index == plan.index}
        if len(declared) < 2:
            return plan.index, plan.first_declarer if plan.first_declarer not in declared else plan.first_declarer.other
    return None


def _game_step(board: Scoreboard, game: BoardGame) -> Step:
    where = f"round {game.ref.round_index} game {game.ref.game_number}"
    if game.state is GameState.CONFIRMATION_DUE:
        if game.entered_for is None:
            return Step(StepKind.CONFIRM, f"a captain confirms {where}", game=game.ref)
        confirming = game.entered_for.other
        users = board.captains[confirming]
        return Step(StepKind.CONFIRM, f"{_who(board, confirming)} confirms {where}", users, game.ref)
    if game.state is GameState.REPLAY_DUE:
        text = f"replay {where}, tied: same machine, same players, then **Enter scores**"
        return Step(StepKind.ENTER, text, game=game.ref)
    return Step(StepKind.ENTER, f"**Enter scores** for {where} once it is played", game=game.ref)


def _tiebreak_step(board: Scoreboard) -> Step:
    """TEAM-TB-1/2: HOME decides first (unless it deferred), the other team decides the other; AWAY declares
    first; then either captain enters the scores."""
    setup = board.tiebreak
    decided = (setup.format_by or setup.machine_by) if setup else None
    both_decided = setup is not None and setup.format_by is not None and setup.machine_by is not None
    if not both_decided:
        first = Side.AWAY if setup is not None and setup.deferred_to_away else Side.HOME
        side = first if decided is None else decided.other
        what = "the tie-breaker's format or machine (`/tiebreak choose`)"
        return Step(StepKind.TIEBREAK, f"{_who(board, side)} picks {what}", board.captains[side])
    assert setup is not None
    for side, players in ((Side.AWAY, setup.away_players), (Side.HOME, setup.home_players)):
        if not players:
            text = f"{_who(board, side)} names the tie-breaker players (`/tiebreak declare`)"
            return Step(StepKind.TIEBREAK, text, board.captains[side])
    return Step(StepKind.TIEBREAK, "enter the tie-breaker's scores, one per team (`/tiebreak score`)")


def _who(board: Scoreboard, side: Side) -> str:
    """The side's captains as mentions (Discord shows their names), or the team's name if none is known."""
    mentions = " / ".join(f"<@{user}>" for user in board.captains[side])
    return mentions or board.context.teams[side].name
