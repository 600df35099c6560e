"""The board fragment: one root, for every viewer, over real random games."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from games.kilforth.board import board_context, render_board
from games.kilforth.board.card_facts import card, card_name
from games.kilforth.board.log_text import describe
from games.kilforth.engine import view
from games.kilforth.engine.events import name_people

from .games import CONFIGS, players, playout, sample


class Scan(HTMLParser):
    """Collects root elements, ws-send forms (their hidden inputs) and ids."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.roots: list[tuple[str, dict]] = []
        self.forms: list[dict] = []
        self.ids: list[str] = []
        self._form: dict | None = None
        self.text: list[str] = []

    VOID = {"input", "br", "img", "meta", "link", "hr", "use", "circle", "rect", "path"}

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if self.depth == 0:
            self.roots.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "form":
            self._form = {
                "ws-send": "ws-send" in a,
                "class": a.get("class", ""),
                "inputs": {},
                "button": "",
            }
        if tag == "input" and self._form is not None and a.get("type") == "hidden":
            self._form["inputs"][a["name"]] = a.get("value")
        if tag not in self.VOID:
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if self.depth == 0:
            self.roots.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID:
            self.depth -= 1
        if tag == "form" and self._form is not None:
            self.forms.append(self._form)
            self._form = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def scan(html: str) -> Scan:
    s = Scan()
    s.feed(html)
    s.close()
    return s


def render(state, viewer) -> str:
    n = len(state.heroes)
    return render_board(
        view(state, viewer),
        viewer=viewer,
        players=players(n),
        online={0},
        table_slug="t-slug",
    )


def viewers(state) -> list:
    return [None, *range(len(state.heroes))]


@pytest.mark.parametrize(("edition", "mode", "heroes"), CONFIGS)
def test_the_board_renders_one_game_board_root_for_every_seat_and_spectator(edition, mode, heroes):
    for state in sample(edition, mode, heroes):
        for viewer in viewers(state):
            html = render(state, viewer)
            s = scan(html)
            assert [t for t, _ in s.roots] == ["div"], "exactly one root element"
            assert "kb" in s.roots[0][1]["class"].split()
            assert s.depth == 0, "tags are balanced"
            # The platform frames the board (games.tables.frames.board_frame): not the kit's ids.
            assert "game-board" not in s.ids and "game-flash" not in s.ids
            assert len(s.ids) == len(set(s.ids)), "ids are unique"
            assert "csrf" not in html.lower()
            assert "data-fallback" not in html, "the full board, not the fallback"


@pytest.mark.parametrize(("edition", "mode", "heroes"), [c for c in CONFIGS if c[2] > 1])
def test_other_seats_and_spectators_never_see_a_hand_card_only_its_owner_sees(
    edition, mode, heroes
):
    checked = 0
    for state in sample(edition, mode, heroes, n=14):
        own = {seat: view(state, seat) for seat in range(heroes)}
        for viewer in viewers(state):
            v = own[viewer] if viewer is not None else view(state, None)
            public = json.dumps(v)
            public_names = {card_name(x) for x in re.findall(r'"([a-z][\w.]+)"', public) if card(x)}
            html = render(state, viewer)
            for seat in range(heroes):
                if seat == viewer:
                    continue
                hero = own[seat]["heroes"][seat]
                for cid in hero.get("hand", []) + hero.get("loot", []):
                    if cid in public:
                        continue  # it is public for another reason (e.g. a log line)
                    assert cid not in html
                    if card_name(cid) not in public_names and card_name(cid) not in public:
                        assert card_name(cid) not in html, (viewer, seat, cid)
                    checked += 1
    assert checked > 0


def test_a_seat_sees_its_own_hand_listed():
    for state in sample("gloom", "competitive", 2):
        for seat in range(2):
            hand = view(state, seat)["heroes"][seat]["hand"]
            html = render(state, seat)
            for cid in hand:
                assert card_name(cid) in html


@pytest.mark.parametrize(("edition", "mode", "heroes"), CONFIGS)
def test_the_deciding_seat_gets_exactly_the_views_choices_as_ws_send_forms(edition, mode, heroes):
    for state in sample(edition, mode, heroes):
        if state.result is not None:
            continue
        seat = state.waiting_for[0]
        v = view(state, seat)
        forms = [f for f in scan(render(state, seat)).forms if "choice" in f["class"]]
        assert all(f["ws-send"] for f in forms)
        keys = [f["inputs"]["key"] for f in forms]
        assert len(keys) == len(set(keys)), "each option once"
        assert sorted(keys) == sorted(c["key"] for c in v["choices"])
        assert {o["key"] for o in v["prompt"]["options"]} <= set(keys)
        for f in forms:
            assert f["inputs"]["action"] == "act"
            assert f["inputs"]["version"] == str(v["version"])


def test_the_prompt_text_and_each_label_are_shown_to_the_deciding_seat():
    state = sample("shadows", "competitive", 2)[3]
    seat = state.waiting_for[0]
    v = view(state, seat)
    html = render(state, seat)
    text = " ".join(scan(html).text)
    names = players(len(state.heroes)).get
    assert name_people(v["prompt"]["text"], names) in text
    for o in v["prompt"]["options"]:
        assert name_people(o["label"], names) in text


@pytest.mark.rule("HIDE-2")
def test_an_off_turn_choice_in_the_view_is_rendered_as_a_form_with_the_engines_explanation():
    state = sample("gloom", "competitive", 2)[4].clone()
    seat = state.waiting_for[0]
    other = 1 - seat
    state.heroes[other]["hidden"] = True  # a hidden hero may stop hiding on anyone's turn
    (choice,) = view(state, other)["choices"]
    assert choice["key"] == "unhide" and choice["offturn"]
    html = render(state, other)
    forms = [f for f in scan(html).forms if "choice" in f["class"]]
    assert [f["inputs"]["key"] for f in forms] == ["unhide"]
    assert forms[0]["inputs"]["version"] == str(state.version)
    assert "Any time" in html
    assert choice["explain"].replace("'", "&#x27;") in html


@pytest.mark.parametrize(("edition", "mode", "heroes"), [c for c in CONFIGS if c[2] > 1])
def test_everyone_else_sees_who_is_deciding_and_gets_only_off_turn_choice_forms(
    edition, mode, heroes
):
    for state in sample(edition, mode, heroes):
        if state.result is not None:
            continue
        seat = state.waiting_for[0]
        name = players(heroes)[seat]
        for viewer in viewers(state):
            if viewer == seat:
                continue
            html = render(state, viewer)
            assert f"Waiting for {name} to " in html
            forms = [f["inputs"]["key"] for f in scan(html).forms if "choice" in f["class"]]
            own = view(state, viewer)["choices"] if viewer is not None else []
            assert all(c["offturn"] for c in own)
            assert forms == [c["key"] for c in own]


def test_the_fragment_is_the_same_for_the_same_view_and_viewer():
    state = sample("shadows", "cooperative", 3)[5]
    assert render(state, 1) == render(state, 1)
    assert render(state, None) == render(state, None)


def test_every_location_names_its_terrain_and_side_in_words():
    for state in sample("shadows", "competitive", 4, n=4):
        v = view(state, None)
        html = render(state, None)
        ctx = board_context(v, viewer=None, players=players(4), online=set(), table_slug="t")
        assert len(ctx["cells"]) == 25
        for cell in ctx["cells"]:
            assert cell["terrain_label"]
        assert html.count('class="loc-terrain-text"') == 25
        gloomed = [c for c in v["map"] if c["gloom"]]
        assert html.count('class="loc-side side-gloom"') == len(gloomed)
        assert html.count('class="loc-side side-colour"') == 25 - len(gloomed)
        for c in gloomed:
            assert f"Gloom {c['gloom_value']}" in html


def test_heroes_standees_show_initial_and_player_name_on_their_location():
    state = sample("gloom", "competitive", 3)[2]
    html = render(state, None)
    for name in players(3).values():
        assert f'<span class="token" aria-hidden="true">{name[0]}</span>' in html
        assert f'<span class="standee-name"><bdi>{name}</bdi>' in html


def test_the_end_of_game_shows_the_result_with_a_vp_table():
    for edition, mode, heroes in CONFIGS:
        final = playout(edition, mode, heroes)[-1]
        assert final.result is not None
        html = render(final, None)
        assert 'class="kb-result' in html
        assert "vp-table" in html
        assert final.result["reason"] in html
        assert not [f for f in scan(html).forms if "choice" in f["class"]]


def test_rolled_dice_are_drawn_with_each_face_and_successes_marked():
    state = next(
        s
        for s in playout("gloom", "competitive", 2)
        if any(e["e"] == "roll" and e.get("successes") for e in s.log[-20:])
    )
    html = render(state, None)
    assert 'class="die hit"' in html
    assert re.search(r'aria-label="[1-4]"', html)
    assert '<use href="#kb-d' in html


def test_the_log_names_the_seats_each_line_is_about_for_the_only_mine_filter():
    state = sample("gloom", "competitive", 2)[6]
    html = render(state, 0)
    assert 'id="kb-log-mine"' in html and "hx-preserve" in html
    # The board says whose it is; a row names the seats it is about (board.css marks the
    # viewer's own by the two), so every viewer who reads the same line gets the same row.
    assert re.search(r'<div class="kb [^"]*"[^>]* data-viewer="0"', html)
    about = re.findall(r'<li class="log-row[^"]*"(?: data-seats="([\d ]+)")? data-kind', html)
    assert any(seats and "0" in seats.split() for seats in about)
    assert any(not seats or "0" not in seats.split() for seats in about)
    assert 'id="kb-log-mine"' not in render(state, None), "spectators have nothing of their own"


def test_player_names_and_texts_are_escaped():
    state = sample("gloom", "competitive", 2)[3]
    html = render_board(
        view(state, 0),
        viewer=0,
        players={0: "<script>x</script>", 1: "B&B"},
        online=set(),
        table_slug="t",
    )
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "B&amp;B" in html


def test_new_engine_prompt_and_log_kinds_render_without_errors():
    state = sample("shadows", "competitive", 2)[3]
    seat = state.waiting_for[0]
    v = view(state, seat)
    v["prompt"]["kind"] = "brand_new_kind"
    v["choices"].append({"key": "zap:x", "label": "Zap it", "data": {"odd": [1]}})
    v["log"].append(
        {
            "e": "brand_new_event",
            "vis": "all",
            "day": v["day"],
            "seat": seat,
            "card": "no.such.card",
            "weird": {"a": 1},
        }
    )
    html = render_board(v, viewer=seat, players=players(2), online=set(), table_slug="t")
    assert "Zap it" in html and "Brand new event" in html
    other = view(state, 1 - seat)
    other["prompt"]["kind"] = "brand_new_kind"
    html = render_board(other, viewer=1 - seat, players=players(2), online=set(), table_slug="t")
    assert f"Waiting for {players(2)[seat]} to decide." in html


def test_an_open_hand_is_listed_for_every_seat_when_the_view_contains_it():
    state = next(s for s in playout("gloom", "cooperative", 3) if view(s, 1)["heroes"][1]["hand"])
    v = view(state, 0)
    other = view(state, 1)["heroes"][1]
    assert other["hand"]
    v["heroes"][1]["hand"] = other["hand"]  # as the view gives it with open hands in co-op
    html = render_board(v, viewer=0, players=players(3), online=set(), table_slug="t")
    for cid in other["hand"]:
        assert card_name(cid) in html


def test_rendering_leaves_the_view_dict_untouched():
    import copy

    state = sample("shadows", "cooperative", 3)[4]
    v = view(state, 1)
    before = copy.deepcopy(v)
    render_board(v, viewer=1, players=players(3), online={1}, table_slug="t")
    assert v == before


def test_the_locations_the_deciding_hero_may_move_to_are_marked_on_the_map():
    state = next(
        s
        for s in playout("gloom", "competitive", 2)
        if s.prompt and s.prompt["kind"] == "turn" and s.day > 1
    )
    seat = state.prompt["seat"]
    v = view(state, seat)
    targets = {o["data"]["loc"] for o in v["prompt"]["options"] if o["key"].startswith("move:")}
    ctx = board_context(v, viewer=seat, players=players(2), online=set(), table_slug="t")
    assert {c["index"] for c in ctx["cells"] if c["reachable"]} == targets
    assert render(state, seat).count('class="reach-badge"') == len(targets)
    assert 'class="reach-badge"' not in render(state, None)


def test_every_viewer_is_sent_the_same_hero_panels_and_the_board_names_its_viewer():
    state = sample("gloom", "competitive", 3)[3]
    spectator, seat = render(state, None), render(state, 2)
    assert 'data-viewer="2"' in seat and 'data-viewer="spectator"' in spectator

    def part(html: str, part_id: str) -> str:
        return html.split(f"<!--[{part_id}-->", 1)[1].split("<!--]-->", 1)[0]

    for s in range(3):
        assert part(seat, f"kb-hero-card-{s}") == part(spectator, f"kb-hero-card-{s}")
        assert f'data-seat="{s}"' in part(seat, f"kb-hero-card-{s}")
    # Every hero's panel and standee carries "(you)": board.css shows the viewer's alone
    # (test_board_in_chromium).
    assert seat.count('<small class="you"> (you)</small>') == 6
    assert spectator.count('<small class="you"> (you)</small>') == 6
    # The seat's hand is a part of its own; the spectators' is empty.
    assert 'id="kb-hand" class="kb-hand" hidden' in part(spectator, "kb-hand")
    assert "Your hand" in part(seat, "kb-hand")


def test_a_view_the_board_cannot_draw_still_gives_the_decision_forms():
    state = sample("gloom", "competitive", 2)[3]
    seat = state.waiting_for[0]
    v = view(state, seat)
    v["heroes"] = [{"oops": True}]  # a shape the board does not know
    html = render_board(v, viewer=seat, players=players(2), online=set(), table_slug="t")
    s = scan(html)
    assert s.roots[0][1].get("data-fallback")
    assert "game-board" not in s.ids and "game-flash" not in s.ids
    keys = [f["inputs"]["key"] for f in s.forms]
    assert sorted(keys) == sorted(c["key"] for c in v["choices"])
    other = view(state, 1 - seat)
    other["map"] = None
    other["heroes"] = "broken"
    html = render_board(other, viewer=1 - seat, players=players(2), online=set(), table_slug="t")
    assert f"Waiting for {players(2)[seat]}" in html


def test_the_latest_dice_stay_on_the_board_on_the_days_after_them():
    rolled_on = None
    for state in playout("gloom", "competitive", 2):
        html = render(state, 0)
        if rolled_on is not None:
            assert "No dice rolled yet" not in html, (rolled_on, state.day)
            dice = html[html.index("<!--[kb-dice-->") : html.index("<!--[kb-loc-0-->")]
            # The latest test's dice (a test of no dice says so).
            assert '<li class="test">' in dice
            assert 'class="die' in dice or 'class="no-dice"' in dice
        elif any(e["e"] == "roll" for e in state.log):
            rolled_on = state.day
    assert rolled_on is not None and state.day >= rolled_on + 7


def test_a_test_awaiting_a_fate_decision_is_the_newest_dice_on_the_board():
    state = next(s for s in playout("gloom", "competitive", 2) if view(s, None)["test"])
    seat = state.waiting_for[0]
    v = view(state, seat)
    v["recent_tests"] = None  # the roll not logged yet: the open test alone tells its dice
    html = render_board(v, viewer=seat, players=players(2), online=set(), table_slug="t")
    dice = html[html.index('id="kb-dice"') :]
    assert "No dice rolled yet" not in dice
    assert dice.count('class="die') >= len(v["test"]["faces"])
    assert "waits on a fate decision" in dice


def test_the_decision_names_other_players_by_their_names_never_by_their_hero_titles():
    from games.kilforth.engine import act
    from games.kilforth.engine import testing as T

    state = T.scenario(heroes=2, seed=3)
    T.set_hero(state, 0, gold=2, hp=2)
    T.begin_turn(state, 0)
    title = state.heroes[1]["name"]
    html = render(state, 0)
    assert "Offer 1 gold to Bea" in html and f"Offer 1 gold to {title}" not in html
    assert "{person:" not in html
    asked = act(state, 0, "give:1:gold")
    html = render(asked, 1)
    assert "Ann offers you 1 gold" in html and "{person:" not in html
    chose = {"e": "decision", "seat": 0, "label": "Offer 1 gold to {person:1}"}
    line = describe(chose, ann_and_bea)
    assert line.text == "Ann chose: Offer 1 gold to Bea."


def ann_and_bea(seat: int | None) -> str:
    return {0: "Ann", 1: "Bea"}.get(seat, "Someone")


def test_the_hand_says_which_keywords_its_heros_saga_still_needs_are_in_it():
    from games.kilforth.board.card_facts import keywords_of

    found = 0
    for state in playout("gloom", "competitive", 4)[::3]:
        for seat in range(4):
            v = view(state, seat)
            context = board_context(
                v, viewer=seat, players=players(4), online=set(), table_slug="t"
            )
            [hand] = context["hands"]
            needed = {k["kw"] for k in context["heroes"][seat]["saga"]["kw"] if not k["in_play"]}
            in_hand = {kw for cid in v["heroes"][seat]["hand"] for kw in keywords_of(cid)}
            assert set(hand["saga_in_hand"]) == needed & in_hand, (state.version, seat)
            if hand["saga_in_hand"]:
                part = render(state, seat).split("<!--[kb-hand-->", 1)[1].split("<!--]-->")[0]
                for kw in hand["saga_in_hand"]:
                    assert f'<span class="kw in-hand">&#9680; {kw}</span>' in part
                found += 1
    assert found > 0
