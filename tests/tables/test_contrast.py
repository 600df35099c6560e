"""Text colours of the platform's pages reach WCAG AA contrast (computed from the CSS)."""

import pytest

from tests.contrast import AA, colour, declarations, ratio


def test_the_ratio_helper_agrees_with_the_known_wcag_figures():
    assert ratio("#000000", "#ffffff") == pytest.approx(21)
    assert round(ratio("#b8862b", "#fffdf7"), 2) == 3.18  # the old "In play" badge (issue 17)


@pytest.mark.parametrize("selector", [".badge-started", ".badge-choosing", ".badge-open"])
@pytest.mark.parametrize("ground", ["--panel", "--paper"])
def test_the_in_play_and_other_status_badges_reach_aa_on_panels_and_on_the_page(selector, ground):
    text = colour("kilforth.css", declarations("kilforth.css", selector)["color"])
    back = colour("kilforth.css", f"var({ground})")
    assert ratio(text, back) >= AA, (selector, text, back, ratio(text, back))
