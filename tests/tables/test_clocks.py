"""Clocks: live time banks, turn-based deadlines, expiry played by the table's bot, My games.

Time is controlled: every clock reads `games.tables.clocks.now`, which the `clock` fixture
replaces; nothing here sleeps to let time pass.
"""

import asyncio
import re
import threading
from datetime import UTC, datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.tables import bots, clocks, kits, realtime, services
from games.tables.forms import TableSettingsForm
from games.tables.identity import PLAYER_ACCESS
from games.tables.models import Action, ChatMessage, Game, Player, Seat, Table, TableStatus
from games.tables.rendering import load_snapshot, render_table_live
from tests.tables.clock_kit import KIT, LIMIT
from tests.tables.helpers import new_table_form, page, receive_until, session_for, socket

FAST = clocks.PACES["fast"]


class Clock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.at = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **delta: float) -> None:
        self.at += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch):
    fake = Clock()
    monkeypatch.setattr(clocks, "now", fake)
    return fake


@pytest.fixture(autouse=True)
def turns_kit():
    kits.register(KIT)
    yield KIT
    kits.unregister(KIT.key)


def started(pace="fast", names=("Ann", "Bea"), bots_at=(), players=None):
    """A game of Turns in play at the given pace; seat 0 is the first waited on."""
    players = players or [Player.objects.create(name=n) for n in names]
    host = players[0]
    table = services.do_create_table(
        host,
        {
            "name": "Clocked",
            "game": "turns",
            "options": {},
            "seat_count": len(players),
            "visibility": "public",
            "pace": pace,
        },
    )
    for number, player in enumerate(players):
        if number in bots_at:
            services.do_seat_bot(table, host, number, "steady")
        else:
            services.do_take_seat(table, player, number, "player")
    services.do_start_game(table, host)
    for number, player in enumerate(players):
        if number not in bots_at:
            services.do_setup_seat(table, player, {})
    table.refresh_from_db()
    assert table.status == TableStatus.STARTED
    return table, players


def seat(table, number) -> Seat:
    return Seat.objects.get(table=table, number=number)


def act(table, player, key="move") -> int:
    return services.do_act(table, player, key, Game.objects.get(table=table).version)


@pytest.mark.django_db
def test_a_live_clock_starts_the_waiting_seat_with_a_full_bank(clock):
    table, _ = started("fast")
    first, second = seat(table, 0), seat(table, 1)
    assert first.bank_ms == second.bank_ms == FAST.bank * 1000
    assert first.deadline == clock.at + timedelta(seconds=FAST.bank)
    assert second.deadline is None and second.waiting_since is None


@pytest.mark.django_db
def test_a_decision_charges_the_bank_the_time_it_took_and_adds_the_increment(clock):
    table, (ann, _) = started("fast")
    clock.advance(seconds=42)
    act(table, ann)
    assert seat(table, 0).bank_ms == (FAST.bank - 42 + FAST.increment) * 1000
    assert seat(table, 0).deadline is None


@pytest.mark.django_db
def test_only_the_seats_the_game_waits_on_tick(clock):
    table, (ann, bea) = started("fast")
    clock.advance(seconds=42)
    act(table, ann)
    assert seat(table, 1).deadline == clock.at + timedelta(seconds=FAST.bank)
    clock.advance(seconds=100)  # Bea thinks; Ann's clock stands still
    act(table, bea)
    ann_bank = (FAST.bank - 42 + FAST.increment) * 1000
    assert seat(table, 0).bank_ms == ann_bank
    assert seat(table, 1).bank_ms == (FAST.bank - 100 + FAST.increment) * 1000
    assert seat(table, 0).deadline == clock.at + timedelta(milliseconds=ann_bank)


@pytest.mark.django_db
def test_a_bank_never_goes_below_zero_when_a_decision_lands_after_the_deadline(clock):
    table, (ann, _) = started("fast")
    clock.advance(seconds=FAST.bank + 3)  # before the watcher came round, Ann's click landed
    act(table, ann)
    assert seat(table, 0).bank_ms == FAST.increment * 1000


@pytest.mark.django_db
def test_a_seat_out_of_time_is_played_by_the_bot_once_with_a_chat_line_and_a_bank_of_zero(clock):
    table, _ = started("fast")
    clock.advance(seconds=FAST.bank - 1)
    assert bots.expire_due() == pytest.approx(1.0)
    assert not Action.objects.exists()

    clock.advance(seconds=1)
    bots.expire_due()
    action = Action.objects.get()
    assert (action.seat, action.key, action.bot, action.player) == (0, "wait", "steady", None)
    assert seat(table, 0).bank_ms == 0 and seat(table, 0).deadline is None
    line = ChatMessage.objects.filter(table=table, author_name="").last()
    assert line.text == "Ann ran out of time; a bot made that decision for them."
    assert seat(table, 1).deadline == clock.at + timedelta(seconds=FAST.bank)

    bots.expire_due()  # nothing else is overdue: nothing else is played
    assert Action.objects.count() == 1


@pytest.mark.django_db
def test_two_processes_expiring_the_same_deadline_play_it_once(clock):
    table, _ = started("fast")
    clock.advance(seconds=FAST.bank)
    first, second = bots.plan_expiry(table.pk, 0), bots.plan_expiry(table.pk, 0)
    assert first == second
    assert bots.play_expiry(first)
    assert not bots.play_expiry(second)  # the version moved on: refused as stale
    assert Action.objects.count() == 1
    assert ChatMessage.objects.filter(table=table, text__contains="ran out of time").count() == 1


@pytest.mark.django_db
def test_a_seat_that_decides_in_time_is_not_expired_by_a_plan_made_before(clock):
    table, (ann, _) = started("fast")
    clock.advance(seconds=FAST.bank)
    late = bots.plan_expiry(table.pk, 0)
    act(table, ann)
    assert not bots.play_expiry(late)
    assert Action.objects.get().bot == ""
    with pytest.raises(services.Conflict, match="has not run out"):
        services.do_expire(table, 1, "wait", Game.objects.get(table=table).version)


@pytest.mark.django_db
def test_a_clock_found_running_for_a_seat_nobody_waits_on_is_stopped_not_played(clock):
    table, _ = started("fast")
    Seat.objects.filter(table=table, number=1).update(waiting_since=clock.at, deadline=clock.at)
    clock.advance(seconds=1)
    bots.expire_due()
    assert not Action.objects.exists()
    assert seat(table, 1).deadline is None and seat(table, 0).deadline is not None


@pytest.mark.django_db
def test_a_seat_that_ran_out_still_has_the_increment_for_its_next_decision(clock):
    table, (_, bea) = started("fast")
    clock.advance(seconds=FAST.bank)
    bots.expire_due()
    act(table, bea)
    assert seat(table, 0).deadline == clock.at + timedelta(seconds=FAST.increment)


@pytest.mark.django_db
def test_bot_seats_have_no_clock(clock):
    table, (ann, _) = started("fast", bots_at=(1,))
    act(table, ann)
    assert seat(table, 1).deadline is None and seat(table, 1).waiting_since is None
    assert bots.play_move(bots.plan_move(table.pk))
    assert seat(table, 0).deadline is not None


@pytest.mark.django_db
def test_a_bot_standing_in_stops_the_clock_and_the_player_back_starts_it_again(clock):
    table, (ann, _) = started("fast")
    Seat.objects.filter(pk=seat(table, 0).pk).update(
        offline_since=timezone.now() - timedelta(hours=1)
    )
    clock.advance(seconds=30)
    services.do_hand_to_bot(table, ann, 0, "steady")
    assert seat(table, 0).deadline is None
    assert seat(table, 0).bank_ms == (FAST.bank - 30) * 1000  # charged, no increment
    services.do_reclaim_seat(table, ann)
    assert seat(table, 0).deadline == clock.at + timedelta(seconds=FAST.bank - 30)


@pytest.mark.django_db
def test_the_others_see_who_is_away_since_when_and_that_a_bot_plays_for_them(clock):
    table, (ann, bea) = started("fast")
    gone = timezone.now() - timedelta(hours=1)
    Seat.objects.filter(pk=seat(table, 0).pk).update(offline_since=gone)
    services.do_hand_to_bot(table, ann, 0, "steady")
    html = render_table_live(load_snapshot(table.pk), bea.pk, PLAYER_ACCESS)
    away = html[
        html.index('id="table-away"') : html.index("<!--]-->", html.index('id="table-away"'))
    ]
    assert "<bdi>Ann</bdi> is away" in away and "(a bot plays for them)" in away
    assert f'data-since="{clocks.epoch_ms(gone)}"' in away  # the page counts "for 1 h" from it
    assert "<bdi>Bea</bdi>" not in away  # never oneself
    # Ann's own page names Bea (who never came: no time), never Ann herself.
    html = render_table_live(load_snapshot(table.pk), ann.pk, PLAYER_ACCESS)
    away = html[
        html.index('id="table-away"') : html.index("<!--]-->", html.index('id="table-away"'))
    ]
    assert "<bdi>Bea</bdi> is away</span>" in away and "Ann" not in away


@pytest.mark.django_db
def test_a_turn_based_table_gives_each_decision_its_own_deadline_and_the_bot_plays_a_late_one(
    clock,
):
    table, (ann, bea) = started("turn-24h")
    assert seat(table, 0).deadline == clock.at + timedelta(hours=24)
    clock.advance(hours=5)
    act(table, ann)
    assert seat(table, 0).deadline is None
    assert seat(table, 1).deadline == clock.at + timedelta(hours=24)
    clock.advance(hours=24)
    bots.expire_due()
    assert Action.objects.filter(seat=1, bot="steady").count() == 1
    assert seat(table, 0).deadline == clock.at + timedelta(hours=24)  # a whole day again


@pytest.mark.django_db
def test_an_untimed_table_knows_whom_it_waits_on_but_runs_no_clock(clock):
    table, _ = started("untimed")
    assert seat(table, 0).waiting_since == clock.at
    assert seat(table, 0).deadline is None
    assert clocks.seconds_to_next() is None


@pytest.mark.django_db
def test_the_clocks_stop_when_the_game_ends(clock):
    table, players = started("fast")
    for n in range(LIMIT):
        act(table, players[n % 2])
    assert Table.objects.get(pk=table.pk).status == TableStatus.FINISHED
    assert not Seat.objects.filter(table=table, waiting_since__isnull=False).exists()
    assert not Seat.objects.filter(table=table, deadline__isnull=False).exists()


@pytest.mark.django_db
def test_a_rematch_keeps_the_pace(clock):
    table, players = started("turn-3d")
    for n in range(LIMIT):
        act(table, players[n % 2])
    assert services.do_rematch(table, players[0]).pace == "turn-3d"


@pytest.mark.django_db
def test_every_viewer_s_table_page_shows_the_clocks_and_the_deadline_of_the_running_one(
    clock, client
):
    table, _ = started("normal")
    html = client.get(f"/t/{table.slug}/").content.decode()  # a spectator's page
    deadline = clocks.epoch_ms(seat(table, 0).deadline)
    assert f'id="clock-0" class="clock ticking" data-deadline="{deadline}"' in html
    assert 'id="clock-1" class="clock"><span class="clock-name"><bdi>Bea</bdi>' in html
    assert "10:00" in html  # both banks, as shown before the script counts
    assert f'data-server-now="{clocks.epoch_ms(clock.at)}"' in html
    assert "js/clock.js" in html and "Live, normal clock" in html


@pytest.mark.django_db
def test_an_untimed_table_page_shows_no_clock(clock, client):
    table, _ = started("untimed")
    html = client.get(f"/t/{table.slug}/").content.decode()
    assert 'id="table-clocks"' not in html and "Live, no clock" in html


@pytest.mark.django_db
def test_my_games_lists_the_tables_waiting_for_me_first_the_nearest_deadline_first(clock, person):
    client, ann = person("Ann")
    bea, cid = Player.objects.create(name="Bea"), Player.objects.create(name="Cid")
    day, _ = started("turn-24h", players=[ann, bea])
    half_day, _ = started("turn-12h", players=[ann, cid])
    theirs, _ = started("turn-24h", players=[bea, ann])  # waits on Bea
    untimed, _ = started("untimed", players=[ann, cid])
    gathering = services.do_create_table(
        ann, {"name": "Later", "game": "turns", "options": {}, "seat_count": 2}
    )
    services.do_take_seat(gathering, ann, 0, "player")
    elsewhere, _ = started("fast", names=("Dan", "Eve"))  # Ann does not sit there

    html = client.get("/my-games/").content.decode()
    rows = re.findall(r'id="my-game-([^"]+)" class="[^"]*?( waiting-for-me)?"', html)
    assert [slug for slug, _ in rows] == [
        half_day.slug,
        day.slug,
        untimed.slug,
        theirs.slug,
        gathering.slug,
    ]
    assert [bool(w) for _, w in rows] == [True, True, True, False, False]
    assert elsewhere.slug not in html
    deadline = clocks.epoch_ms(seat(half_day, 0).deadline)
    assert f'data-deadline="{deadline}"' in html and "Waiting for you" in html


@pytest.mark.django_db
def test_the_lobby_shows_a_timed_table_s_pace(clock, client):
    started("turn-3d")
    assert "Turn-based, 3 days" in client.get("/").content.decode()


@pytest.mark.django_db
def test_my_games_asks_a_newcomer_for_a_name_first(client):
    response = client.get("/my-games/")
    assert response.status_code == 302 and "/welcome/" in response["Location"]


@pytest.mark.django_db
def test_the_lobby_links_to_my_games(person):
    client, _ = person("Ann")
    assert 'href="/my-games/"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_table_form_offers_every_pace_and_defaults_to_live_without_a_clock():
    form = TableSettingsForm(initial={"name": "x"})
    field = form.fields["pace"]
    assert [key for key, _ in field.choices] == list(clocks.PACES)
    assert field.initial == clocks.UNTIMED
    labels = dict(field.choices)
    assert labels["fast"] == (
        "Live, fast clock: 5 minutes each, plus 10 seconds after every decision"
    )
    assert labels["turn-24h"].startswith("Turn-based, 24 hours")
    assert 'value="turn-3d"' in form.as_p()


@pytest.mark.django_db
@pytest.mark.parametrize(("posted", "kept"), [("turn-12h", "turn-12h"), (None, "untimed")])
def test_a_host_opens_a_table_at_the_pace_they_chose(person, posted, kept):
    client, _ = person("Ann")
    form = new_table_form("Paced") | ({"pace": posted} if posted else {})
    assert client.post("/tables/new/", form).status_code == 302
    assert Table.objects.get(name="Paced").pace == kept


@pytest.mark.django_db
def test_a_pace_not_on_offer_is_a_form_error():
    form = TableSettingsForm(new_table_form("Warp") | {"pace": "warp"})
    assert not form.is_valid()
    assert "pace" in form.errors


@pytest.mark.django_db
def test_changing_the_settings_keeps_the_pace_unless_the_host_picks_another(person):
    client, ann = person("Ann")
    client.post("/tables/new/", new_table_form("Paced") | {"pace": "relaxed"})
    table = Table.objects.get(name="Paced")
    settings_page = client.get(f"/t/{table.slug}/settings/").content.decode()
    assert re.search(r'value="relaxed"[^>]*checked', settings_page)
    post = new_table_form("Paced") | {"version": table.version}
    assert client.post(f"/t/{table.slug}/settings/", post).status_code == 302
    assert Table.objects.get(pk=table.pk).pace == "relaxed"
    post = new_table_form("Paced") | {"version": Table.objects.get(pk=table.pk).version}
    assert client.post(f"/t/{table.slug}/settings/", post | {"pace": "fast"}).status_code == 302
    assert Table.objects.get(pk=table.pk).pace == "fast"


@pytest.mark.django_db(transaction=True)
def test_existing_tables_play_live_without_a_clock_after_the_migration():
    before, after = [("tables", "0008_history_out_of_state")], [("tables", "0009_clocks")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    host = old.get_model("tables", "Player").objects.create(name="Ann")
    table = old.get_model("tables", "Table").objects.create(name="Old", host=host)
    old.get_model("tables", "Seat").objects.create(table=table, number=0, player=host)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    assert new.get_model("tables", "Table").objects.get(name="Old").pace == "untimed"
    migrated = new.get_model("tables", "Seat").objects.get(table__name="Old")
    assert (migrated.bank_ms, migrated.deadline, migrated.waiting_since) == (0, None, None)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes("tables"))


@pytest.mark.django_db(transaction=True)
async def test_a_watching_socket_gets_the_deadline_and_the_next_one_after_a_decision(clock):
    db = database_sync_to_async
    table, (ann, _) = await db(started)("fast")
    watcher = socket(f"/ws/t/{table.slug}/", await db(session_for)())
    assert (await watcher.connect())[0]
    try:
        await receive_until(watcher, 'id="table-clocks"')
        first = clocks.epoch_ms((await db(seat)(table, 0)).deadline)
        assert f'id="clock-0" class="clock ticking" data-deadline="{first}"' in page(watcher)

        clock.advance(seconds=12)
        await db(act)(table, ann)
        frame = await receive_until(watcher, 'id="table-clocks"')
        assert 'id="table-live"' not in frame  # only the changed parts travel
        second = clocks.epoch_ms((await db(seat)(table, 1)).deadline)
        assert f'id="clock-1" class="clock ticking" data-deadline="{second}"' in page(watcher)
        assert 'id="clock-0" class="clock">' in page(watcher)
        assert clocks.shown((FAST.bank - 12 + FAST.increment) * 1000) in page(watcher)  # 4:58
    finally:
        await watcher.disconnect()


@pytest.mark.bot_driver
@pytest.mark.django_db(transaction=True)
async def test_the_bot_driver_plays_an_overdue_decision_without_being_told(clock):
    db = database_sync_to_async
    table, _ = await db(started)("fast")
    clock.advance(seconds=FAST.bank + 1)
    driver = bots.BotDriver()
    watcher = asyncio.ensure_future(driver.watch_clocks())
    try:
        for _ in range(200):
            if await db(Action.objects.filter(bot="steady").exists)():
                break
            await asyncio.sleep(0.02)
        assert await db(Action.objects.filter(seat=0, bot="steady").count)() == 1
    finally:
        watcher.cancel()


@pytest.mark.bot_driver
@pytest.mark.django_db(transaction=True)
async def test_a_change_to_a_timed_table_wakes_the_clock_watcher_of_every_process(
    clock, monkeypatch
):
    db = database_sync_to_async
    monkeypatch.setattr(bots, "CLOCK_POLL_SECONDS", 600.0)  # only a wake-up can be in time
    looked = threading.Event()
    look = bots.expire_due
    monkeypatch.setattr(bots, "expire_due", lambda: (look(), looked.set())[0])
    table, _ = await db(started)("fast")
    driver = bots.BotDriver()
    runner = asyncio.ensure_future(driver.run())
    try:
        # The watcher has looked once, and sleeps till the deadline.
        assert await asyncio.to_thread(looked.wait, 10)
        clock.advance(seconds=FAST.bank)
        await db(realtime.broadcast_table)(table.pk, lobby=False)  # what any change sends
        for _ in range(200):
            if await db(Action.objects.filter(bot="steady").exists)():
                break
            await asyncio.sleep(0.02)
        assert await db(Action.objects.filter(seat=0, bot="steady").count)() == 1
    finally:
        runner.cancel()


@pytest.mark.django_db
def test_the_host_pauses_the_clocks_and_no_time_runs_until_they_resume(clock):
    table, (ann, bea) = started("fast")
    clock.advance(seconds=30)
    services.do_pause_clocks(table, ann, True)
    paused = seat(table, 0)
    assert paused.deadline is None and paused.bank_ms == FAST.bank * 1000 - 30_000
    clock.advance(hours=2)  # a long pause costs nothing and nothing expires
    assert clocks.due() == []
    page_html = ann_page(table)
    assert "The host has paused the clocks." in page_html and "Resume the clocks" in page_html
    services.do_pause_clocks(table, ann, False)
    resumed = seat(table, 0)
    assert resumed.deadline == clock.at + timedelta(milliseconds=resumed.bank_ms)
    texts = list(ChatMessage.objects.filter(table=table).values_list("text", flat=True))
    assert "The host paused the clocks." in texts and "The clocks run again." in texts


@pytest.mark.django_db
def test_only_the_host_may_pause_and_only_a_clocked_game(clock):
    table, (ann, bea) = started("fast")
    with pytest.raises(services.Forbidden):
        services.do_pause_clocks(table, bea, True)
    untimed, (cal, _) = started("untimed", names=("Cal", "Dee"))
    with pytest.raises(services.Conflict, match="with a clock"):
        services.do_pause_clocks(untimed, cal, True)


@pytest.mark.django_db
def test_a_rematch_keeps_the_pace_and_whether_players_read_the_spectators_chat(clock):
    table, (ann, bea) = started("relaxed")
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED, chat_open=True)
    rematch = services.do_rematch(table, ann)
    assert (rematch.pace, rematch.chat_open) == ("relaxed", True)


def ann_page(table) -> str:
    host = Table.objects.get(pk=table.pk).host_id
    return render_table_live(load_snapshot(table.pk), host, PLAYER_ACCESS)
