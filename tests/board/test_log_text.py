"""Log sentences: every event kind the engine emits reads as English; unknown kinds never crash."""

from __future__ import annotations

from games.kilforth.board.log_text import describe

from .games import CONFIGS, PLAYERS, playout


def names(seat):
    return PLAYERS.get(seat, "Someone")


def test_every_log_event_kind_seen_in_random_games_gets_its_own_sentence():
    seen: dict[str, dict] = {}
    for edition, mode, heroes in CONFIGS:
        for seed in (7, 8):
            for e in playout(edition, mode, heroes, seed)[-1].log:
                seen.setdefault(e["e"], e)
                line = describe(e, names, viewer=e.get("seat"))
                assert not line.fallback, (e["e"], e)
                assert line.text.endswith((".", "!")), line.text
                assert "{" not in line.text and "None" not in line.text, line.text
    assert {"moved", "roll", "night_card", "gloomed", "turn", "camp"} <= set(seen)


def test_an_unknown_event_kind_falls_back_to_a_generic_sentence():
    line = describe(
        {"e": "comet_sighted", "vis": "all", "day": 3, "seat": 1, "card": "e.crag_harpy", "n": 2},
        names,
    )
    assert line.fallback
    assert line.text.startswith("Comet sighted")
    assert "Bea" in line.text and "Crag Harpy" in line.text


def test_a_known_kind_with_missing_fields_falls_back_instead_of_raising():
    line = describe({"e": "skirmish", "day": 2, "seat": 0}, names)
    assert line.fallback and line.text


def test_rolls_carry_their_dice_with_successes_marked():
    line = describe(
        {
            "e": "roll",
            "vis": "all",
            "day": 1,
            "seat": 0,
            "attr": "fight",
            "dice": 3,
            "sources": [["race", 1], ["class", 2]],
            "faces": [6, 2, 5],
            "successes": 2,
        },
        names,
    )
    assert line.text == "Ann rolled 3 fight dice: 2 successes."
    assert [(d["face"], d["hit"]) for d in line.dice] == [(6, True), (2, False), (5, True)]


def test_a_line_belongs_to_every_hero_it_names_for_the_only_mine_filter():
    line = describe({"e": "team_formed", "vis": "all", "day": 1, "members": [0, 2]}, names)
    assert line.seats == {0, 2}
    assert line.text == "Ann and Cid joined forces."
    gift = describe(
        {"e": "gift", "vis": "all", "day": 1, "seat": 1, "target": 3, "kind": "gold"}, names
    )
    assert gift.seats == {1, 3}


def test_viewers_who_read_the_same_sentence_share_one_line_and_its_rows_html():
    from games.kilforth.board import parts
    from games.kilforth.board.log_text import LogTail, describe_kept

    names_key = tuple(sorted(PLAYERS.items()))
    event = {"e": "moved", "vis": "all", "day": 2, "seat": 1, "to": 7, "from": 12}
    # A spectator, and two seats the event is not about: one line, one row rendered.
    spectator = describe_kept(event, names, names_key, None)
    assert describe_kept(event, names, names_key, 0) is spectator
    assert describe_kept(event, names, names_key, 2) is spectator
    # Not the same words (another day), not the same line.
    later = describe_kept(dict(event, day=3), names, names_key, 0)
    assert later is not spectator and later.text == spectator.text

    def rows(line, viewer):
        tail = LogTail(("t", viewer), [event], [0], lambda e: line)
        ring, _ = parts.log_groups(tail)
        group = ring[0][1]  # <ol ...>rows</ol>
        return group.split(">", 1)[1].removesuffix("</ol>")

    row = rows(spectator, None)
    assert rows(describe_kept(event, names, names_key, 0), 0) == row
    assert spectator.__dict__["_rows"] == {True: row}  # made once, for both
    # Seat 1, whom it is about, reads the very same row: it names the seat it is about, and
    # the board's CSS marks it as seat 1's own on seat 1's board.
    assert rows(describe_kept(event, names, names_key, 1), 1) == row
    assert ' data-seats="1"' in row and "mine" not in row


def test_every_view_whose_rows_are_the_same_shares_one_group_the_event_s_own_seat_too():
    from games.kilforth.board import parts
    from games.kilforth.board.log_text import LogTail, describe_kept

    parts.forget()
    names_key = tuple(sorted(PLAYERS.items()))
    event = {"e": "moved", "vis": "all", "day": 4, "seat": 1, "to": 3, "from": 9}

    def group(viewer):
        line = describe_kept(event, names, names_key, viewer)
        tail = LogTail(("g", viewer), [event], [0], lambda e: line)
        return parts.log_groups(tail)[0][0]

    part_id, spectators = group(None)
    # A seat the event is not about shows the very same group, made once for both.
    assert group(0) == (part_id, spectators)
    assert group(0)[1] is spectators
    # So does the seat it is about: the row names it, and its board's CSS marks it as its own.
    assert group(1)[1] is spectators
    assert ' data-seats="1"' in spectators
