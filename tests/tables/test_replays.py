"""Replays: a game stepped through, rebuilt exactly from its first state and its decisions."""

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.html import escape

from games.kilforth import adapter
from games.tables import caches, chat, kits, replays, services
from games.tables.identity import PLAYER_ACCESS
from games.tables.models import Game, Player, Table, TableStatus
from tests.tables.test_game_flow import current_state, deciding, started_table

BOARD_VERSION = re.compile(r'id="game-board"[^>]*data-version="(\d+)"')


@pytest.fixture(autouse=True)
def _no_checkpoints_of_other_tests():
    """Checkpoints are remembered by game id, and a rolled-back test's ids come round again (in
    the next test of this file, or of another: a Knight Fall state under a Kilforth game's id)."""
    caches.forget_all()
    yield
    caches.forget_all()


def play(table, players, decisions: int) -> list:
    """Make `decisions` decisions (each seat's first option); the states after each one."""
    states = []
    for _ in range(decisions):
        state = current_state(table)
        if state.result is not None:
            break
        seat, options = deciding(state)
        services.do_act(table, players[seat], options[0].key, state.version)
        states.append(current_state(table))
    return states


def replay_page(client, table, **params) -> str:
    response = client.get(f"/t/{table.slug}/replay/", params)
    assert response.status_code == 200
    return response.content.decode()


def board_of(page: str) -> str:
    start = page.index('<fieldset class="replay-board"')
    return page[start : page.index("</fieldset>", start)]


@pytest.mark.django_db
def test_every_step_of_a_replay_is_the_board_a_spectator_saw_after_that_decision(client):
    table, players = started_table()
    states = play(table, players, 40)
    caches.forget_all()
    kit = kits.kit_for(table)
    names = {0: "Ann", 1: "Bob"}
    for step in (0, 1, 17, 25, 26, 40):
        page = replay_page(client, table, step=step)
        state = states[step - 1] if step else adapter.load(Game.objects.get(table=table).initial)
        assert BOARD_VERSION.search(page).group(1) == str(state.version)
        # Exactly the kit's spectator board for the state the game was in.
        assert kit.render(state, None, names, set(), table.slug) in page
        assert (f"Decision {step} of 40" if step else "The game as it began") in page
    game = Game.objects.get(table=table)
    assert caches.checkpoint(replays.checkpoint_key(game), 25) is not None


@pytest.mark.django_db
def test_a_new_game_with_an_old_games_row_id_is_not_shown_the_old_games_checkpoints():
    # SQLite can give a deleted row's id to the next row; a database reset does for all of them.
    game = Game(pk=7, created=timezone.now())
    caches.remember_checkpoint(replays.checkpoint_key(game), 25, "old state")
    later = Game(pk=7, created=game.created + timedelta(seconds=1))
    assert caches.checkpoint(replays.checkpoint_key(later), 25) is None


@pytest.mark.django_db
def test_a_replay_of_a_running_game_never_shows_a_hand(client):
    table, players = started_table()
    play(table, players, 12)
    public = board_of(replay_page(client, table, step=12))
    asked_for_a_seat = board_of(replay_page(client, table, step=12, seat=0))
    assert asked_for_a_seat == public
    assert 'class="choice' not in public  # no seat's decision, so no seat's view
    assert "The game is still on" in replay_page(client, table)


@pytest.mark.django_db
def test_once_the_game_has_ended_a_replay_shows_the_board_as_any_seat_saw_it(client):
    table, players = started_table()
    states = play(table, players, 8)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    state = states[-1]
    seat = state.waiting_for[0]
    page = replay_page(client, table, step=8, seat=seat)
    kit = kits.kit_for(table)
    assert kit.render(state, seat, {0: "Ann", 1: "Bob"}, set(), table.slug) in page
    assert board_of(page) != board_of(replay_page(client, table, step=8))


@pytest.mark.django_db
def test_a_replay_page_names_each_element_id_once_though_it_shows_two_logs(client):
    # "What this decision did" is a log of its own beside the board's: its fold, heading and
    # filters have ids of their own, so a label or a screen reader finds the right one.
    table, players = started_table()
    play(table, players, 8)
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    for params in ({"step": 8}, {"step": 8, "seat": 0}, {"step": 3, "seat": 1}):
        page = replay_page(client, table, **params)
        assert page.count('class="kb-log kb-fold"') == 2, params  # the step's and the board's
        ids = re.findall(r'\sid="([^"]+)"', page)
        assert [i for i in set(ids) if ids.count(i) > 1] == [], params
        # Every label names a box that is there.
        for target in re.findall(r'<label for="([^"]+)"', page):
            assert target in ids, (params, target)


@pytest.mark.django_db
def test_steps_out_of_range_or_not_numbers_show_the_nearest_end(client):
    table, players = started_table()
    play(table, players, 5)
    assert "Decision 5 of 5" in replay_page(client, table, step=999)
    assert "The game as it began" in replay_page(client, table, step=-3)
    assert "Decision 5 of 5" in replay_page(client, table, step="x")


@pytest.mark.django_db
def test_the_replay_shows_the_players_chat_said_until_that_decision(client):
    table, players = started_table()
    play(table, players, 2)
    chat.do_post(table, players[0], "before the third decision")
    play(table, players, 1)
    chat.do_post(table, players[1], "after the third decision")
    at_two = replay_page(client, table, step=2)
    assert "before the third decision" not in at_two
    at_three = replay_page(client, table, step=3)
    assert "before the third decision" in at_three and "after the third" not in at_three


@pytest.mark.django_db
def test_an_unlisted_tables_replay_is_hidden_from_those_without_its_link(client):
    table, players = started_table(visibility="unlisted")
    play(table, players, 2)
    assert client.get(f"/t/{table.slug}/replay/").status_code == 404


@pytest.mark.django_db
def test_a_game_begun_before_replays_were_recorded_says_so(client):
    table, players = started_table()
    play(table, players, 2)
    Game.objects.filter(table=table).update(initial="")
    page = replay_page(client, table)
    assert "began before replays were recorded" in page
    with pytest.raises(replays.ReplayUnavailable):
        game = Game.objects.get(table=table)
        replays.state_after(game, kits.kit_for(table), replays.steps_of(game), 1)


def play_bots(table, players, decisions: int, seed: int = 1) -> list:
    """`decisions` decisions by each waiting seat's sensible bot choice, made as its player."""
    kit = kits.kit_for(table)
    rng = random.Random(seed)
    states = []
    for _ in range(decisions):
        game = Game.objects.get(table=table)
        state = kit.load(game.state)
        if kit.result(state) is not None:
            break
        seat = kit.waiting_for(state)[0]
        key = kit.bot_choice(state, seat, "heuristic", rng)
        services.do_act(table, players[seat], key, game.version)
        states.append(kit.load(Game.objects.get(table=table).state))
    return states


def knightfall_table(names=("Kay", "Dee")):
    players = [Player.objects.create(name=n) for n in names]
    settings = {"name": "Night", "game": "knightfall", "seat_count": len(names)}
    settings |= {"visibility": "public", "bot_delay_ms": 0, "grace_seconds": 60}
    settings["options"] = {"mode": "standard", "lone_team": "demons", "locations": True}
    table = services.do_create_table(players[0], settings)
    for number, player in enumerate(players):
        services.do_take_seat(table, player, number, PLAYER_ACCESS)
    services.do_start_game(table, players[0])
    for player in players:
        services.do_setup_seat(table, player, {})
    table.refresh_from_db()
    return table, players


def first_steps_of_each_phase(kit, table, states) -> dict[int, int]:
    """{phase: the first step in it}, from the states themselves."""
    first = {kit.progress(kit.load(Game.objects.get(table=table).initial))[0]: 0}
    for step, state in enumerate(states, start=1):
        first.setdefault(kit.progress(state)[0], step)
    return {phase: step for phase, step in first.items() if phase >= 1}


def finish(table):
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)


def hands_panel(page: str) -> str:
    start = page.index('<section class="panel replay-hands"')
    return page[start : page.index("</section>", start)]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "game, word, decisions", [("kilforth", "Day", 40), ("knightfall", "Round", 150)]
)
def test_the_slider_marks_where_each_day_or_round_begins_and_the_buttons_jump_there(
    client, game, word, decisions
):
    table, players = started_table() if game == "kilforth" else knightfall_table()
    kit = kits.kit_for(table)
    states = play_bots(table, players, decisions)
    first = first_steps_of_each_phase(kit, table, states)
    assert len(first) >= 3, first  # the game went through a few phases
    page = replay_page(client, table, step=0)
    for phase, step in first.items():
        assert re.search(rf'<option value="{step}" label="{word} {phase}">', page)
        assert f'href="?step={step}" title="{word} {phase}: decision {step}"' in page
    (p1, s1), (p2, s2), (p3, s3) = list(first.items())[:3]
    # Inside the second phase: back goes to its start, forward to the start of the third.
    middle = replay_page(client, table, step=s2 + 1) if s3 > s2 + 1 else None
    if middle:
        assert f"{word} {p2}</span>" in middle
        assert re.search(rf'rel="prev-phase" href="\?step={s2}"', middle)
        assert re.search(rf'rel="next-phase" href="\?step={s3}"', middle)
    # At the start of a phase, back goes to the start of the one before.
    at_start = replay_page(client, table, step=s2)
    assert re.search(rf'rel="prev-phase" href="\?step={s1}"', at_start)
    assert re.search(rf'rel="next-phase" href="\?step={s3}"', at_start)


def test_marks_skip_unrecorded_phases_and_the_setting_up():
    def step(number, phase):
        return replays.Step(number, 0, "k", "Ann", [], number, phase=phase)

    steps = [step(1, 0), step(2, 1), step(3, None), step(4, 1), step(5, 2), step(6, 2)]
    marks = replays.marks(steps, 0, "Round")
    assert [(m.step, m.label) for m in marks] == [(2, "Round 1"), (5, "Round 2")]
    assert replays.phase_at(marks, 1) is None and replays.phase_at(marks, 4).label == "Round 1"
    assert replays.neighbours(marks, 5) == (marks[0], None)
    # The labels that would crowd each other keep their mark but not their words.
    many = [step(n, n) for n in range(1, 41)]
    spaced = replays.marks(many, 1, "Day")
    assert len(spaced) == 40 and spaced[0].roomy and spaced[0].tight
    assert 5 <= sum(m.tight for m in spaced) < sum(m.roomy for m in spaced) < 40


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["kilforth", "knightfall"])
def test_reveal_hands_shows_every_seats_hand_at_each_step_once_the_game_is_over(client, game):
    table, players = started_table() if game == "kilforth" else knightfall_table()
    kit = kits.kit_for(table)
    states = play_bots(table, players, 20)
    finish(table)
    for step in (3, 20):
        page = replay_page(client, table, step=step, hands=1)
        panel = hands_panel(page)
        hands = kit.hands(states[step - 1])
        assert set(hands) == {0, 1}
        assert step == 3 or any(hands.values())  # cards to show, later in the game
        for seat, cards in hands.items():
            assert f"Seat {seat + 1}</small>" in panel
            for card in cards:
                assert escape(card["name"]) in panel
        assert 'role="switch" aria-checked="true"' in page
        # Every link of the page keeps the hands shown; the switch hides them.
        assert f'rel="prev" href="?step={step - 1}&amp;hands=1"' in page
        assert f'href="?step={step}&amp;hands=0"' in page
        # The board itself stays the spectator's.
        names = {0: players[0].name, 1: players[1].name}
        assert kit.render(states[step - 1], None, names, set(), table.slug) in page
    hidden = replay_page(client, table, step=3)
    assert "replay-hands" not in hidden and 'role="switch" aria-checked="false"' in hidden


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["kilforth", "knightfall"])
def test_while_the_game_runs_no_replay_reveals_a_hand_however_it_is_asked(client, game):
    table, players = started_table() if game == "kilforth" else knightfall_table()
    kit = kits.kit_for(table)
    states = play_bots(table, players, 12)
    public = replay_page(client, table, step=12)
    assert 'role="switch"' not in public and "Reveal hands" not in public
    for asked in ({"hands": 1}, {"hands": 1, "seat": 0}, {"seat": 1}):
        page = replay_page(client, table, step=12, **asked)
        assert "replay-hands" not in page and 'role="switch"' not in page
        assert board_of(page) == board_of(public)
    # Not one card of a hand is on the page (a card also on the open board aside).
    page = replay_page(client, table, step=12, hands=1)
    visible = kit.render(states[-1], None, {}, set(), table.slug)
    for cards in kit.hands(states[-1]).values():
        for card in cards:
            if escape(card["name"]) not in visible:
                assert escape(card["name"]) not in page
