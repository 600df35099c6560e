"""Text colours of the board reach WCAG AA contrast (computed from the CSS)."""

from tests.contrast import AA, colour, declarations, ratio


def test_the_your_turn_and_their_turn_badge_reaches_aa():
    rule = declarations("board.css", ".hb-turn")
    text, back = colour("board.css", rule["color"]), colour("board.css", rule["background"])
    assert ratio(text, back) >= AA, (text, back, ratio(text, back))
