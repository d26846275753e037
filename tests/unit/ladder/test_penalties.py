"""In-game rulings (bot/rules/ladder/penalties.py): LADDER-PEN-*, LADDER-AMB-27, LADDER-TV-27."""

from bot.rules.ladder.penalties import (
    ZEROED_SCORE,
    RestartRuling,
    SlamKind,
    SlamRuling,
    TiltRemedy,
    check_claim_raised_in_match,
    malfunction_replay,
    slam_tilt,
    take_higher,
    tilted_anothers_ball,
    wrong_number_of_players,
)
from tests.unit.ladder.helpers import refused, refused_saying


def test_tv27a_malfunction_replay_replaces_even_when_lower():
    """LADDER-TV-27 (a) / LADDER-PEN-1 / LADDER-PEN-2: the elected replay counts; no replay keeps the original."""
    assert malfunction_replay(25_000_000, 19_000_000) == 19_000_000
    assert malfunction_replay(25_000_000, None) == 25_000_000


def test_tv27b_first_tilt_offence_takes_the_higher_game():
    """LADDER-TV-27 (b) / LADDER-PEN-5: no buy-in possible → keep or replay, the higher counts."""
    ruling = tilted_anothers_ball(prior_offences_tonight=0, buy_in_possible=False)
    assert ruling.remedy is TiltRemedy.KEEP_OR_REPLAY and not ruling.offender_zeroed
    assert take_higher(12_000_000, 18_000_000) == 18_000_000
    assert tilted_anothers_ball(0, buy_in_possible=True).remedy is TiltRemedy.BUY_IN


def test_tv27c_second_tilt_offence_zeroes_the_offender():
    """LADDER-TV-27 (c) / LADDER-PEN-5 / LADDER-SCORE-4: the same night's 2nd offence → offender's game 0."""
    assert tilted_anothers_ball(prior_offences_tonight=1, buy_in_possible=False).offender_zeroed


def test_no_retroactive_rulings():
    """LADDER-PEN-3: a claim not flagged during the match is refused."""
    with refused("LADDER-PEN-3", "Problems must be raised during the match"):
        check_claim_raised_in_match(False)
    check_claim_raised_in_match(True)


def test_death_save_zeroes_the_score():
    """LADDER-PEN-4 / LADDER-SCORE-4: the zeroed score is placed like any other score."""
    assert ZEROED_SCORE == 0


def test_slam_tilts():
    """LADDER-PEN-6 / LADDER-AMB-27: slammer 0 and the others replay; malfunction replays only the victim;
    a 2nd intentional slam in a season flags an expulsion review."""
    accidental = slam_tilt(SlamKind.ACCIDENTAL, 0)
    assert (accidental.slammer_zeroed, accidental.others_replay, accidental.unsportsmanlike) == (True, True, False)
    first = slam_tilt(SlamKind.INTENTIONAL, 0)
    assert first.unsportsmanlike and not first.expulsion_review
    assert slam_tilt(SlamKind.INTENTIONAL, 1).expulsion_review
    assert not slam_tilt(SlamKind.MALFUNCTION, 3).slammer_zeroed


def test_a_malfunction_slam_penalises_no_one():
    """LADDER-PEN-6: a slam tilt from a malfunction zeroes no one, is no unsportsmanlike act and never starts an
    expulsion review, however many intentional slams the player had; the others' games stand."""
    ruling = slam_tilt(SlamKind.MALFUNCTION, 3)
    nothing = SlamRuling(slammer_zeroed=False, others_replay=False, unsportsmanlike=False, expulsion_review=False)
    assert ruling == nothing


def test_a_late_claim_is_refused_saying_when_to_raise_it():
    """LADDER-PEN-3: the refusal word for word."""
    with refused_saying("LADDER-PEN-3", "Problems must be raised during the match."):
        check_claim_raised_in_match(False)


def test_a_restart_for_the_wrong_number_of_players_is_recorded_only():
    """LADDER-PEN-8: no penalty for the player who started the game; the restarted game's scores are entered."""
    assert wrong_number_of_players() == RestartRuling(
        offender_zeroed=False,
        next_step="Record only: the game restarts with every player and no one is penalized; enter its scores.",
    )
