"""Chat at a table: who writes where, who reads what, refusals, mutes, system lines."""

import json

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.tables import chat, services
from games.tables.identity import PLAYER_ACCESS, SPECTATOR_ACCESS
from games.tables.models import ChatMessage, Player, Seat
from tests.tables.helpers import open_table, receive_until, session_for, socket

db = database_sync_to_async


def seated_table():
    host = Player.objects.create(name="Hal")
    table = open_table(host, seat_count=2)
    ann = Player.objects.create(name="Ann")
    Seat.objects.filter(table=table, number=0).update(player=host)
    Seat.objects.filter(table=table, number=1).update(player=ann)
    wes = Player.objects.create(name="Wes")
    return table, host, ann, wes


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw, says",
    [
        ("", "Write something"),
        ("   \t ", "Write something"),
        ("x" * 501, "at most 500"),
        ("ring\x07bell", "control"),
        ("abc\u202edlrow", "control"),
        (["a list"], "must be text"),
    ],
)
def test_empty_long_or_control_character_messages_are_refused_and_nothing_is_kept(raw, says):
    table, host, _, _ = seated_table()
    with pytest.raises(chat.ChatRefused, match=says):
        chat.do_post(table, host, raw)
    assert not ChatMessage.objects.filter(author=host).exists()


@pytest.mark.django_db
def test_a_message_of_exactly_five_hundred_characters_is_kept_trimmed():
    table, host, _, _ = seated_table()
    line = chat.do_post(table, host, "  " + "y" * 500 + " ")
    assert line.text == "y" * 500 and line.seat == 0 and line.author_name == "Hal"


@pytest.mark.django_db
def test_a_players_line_goes_to_the_table_and_a_spectators_to_the_spectators_chat():
    table, host, _, wes = seated_table()
    with pytest.raises(chat.Forbidden, match="display name"):
        chat.do_post(table, None, "hello")
    chat.do_post(table, wes, "Nice move")
    chat.do_post(table, host, "Good luck")
    seated = [m.text for m in chat.recent(table, seated=True)]
    watching = [m.text for m in chat.recent(table, seated=False)]
    assert "Nice move" not in seated and "Good luck" in seated
    assert watching[-2:] == ["Nice move", "Good luck"]


@pytest.mark.django_db
def test_the_host_may_open_the_spectators_chat_to_the_players_and_no_one_else_may():
    table, host, ann, wes = seated_table()
    chat.do_post(table, wes, "Nice move")
    with pytest.raises(chat.Forbidden):
        chat.do_open_spectator_chat(table, ann, True)
    chat.do_open_spectator_chat(table, host, True)
    table.refresh_from_db()
    assert "Nice move" in [m.text for m in chat.recent(table, seated=True)]


@pytest.mark.django_db
def test_a_person_sending_too_fast_is_told_to_slow_down():
    table, host, _, _ = seated_table()
    for n in range(chat.BURST):
        chat.do_post(table, host, f"line {n}")
    with pytest.raises(chat.ChatRefused, match="Slow down"):
        chat.do_post(table, host, "one more")
    # The window passes: they may speak again.
    ChatMessage.objects.update(created=timezone.now() - timezone.timedelta(seconds=60))
    chat.do_post(table, host, "later")


@pytest.mark.django_db
def test_the_host_mutes_a_person_who_then_cannot_write_and_unmutes_them():
    table, host, ann, wes = seated_table()
    with pytest.raises(chat.Forbidden):
        chat.do_mute(table, ann, wes.pk, True)
    chat.do_mute(table, host, wes.pk, True)
    with pytest.raises(chat.Forbidden, match="muted"):
        chat.do_post(table, wes, "let me speak")
    chat.do_mute(table, host, wes.pk, False)
    chat.do_post(table, wes, "thanks")
    lines = [m.text for m in chat.recent(table, seated=False)]
    assert "The host muted Wes." in lines and "The host let Wes speak again." in lines
    with pytest.raises(chat.ChatRefused):
        chat.do_mute(table, host, "1e400", True)


@pytest.mark.django_db
def test_the_host_shows_and_hides_the_spectators_chat_and_everyone_is_told_once():
    table, host, ann, wes = seated_table()
    chat.do_post(table, wes, "psst")
    with pytest.raises(chat.Forbidden):
        chat.do_open_spectator_chat(table, ann, True)
    chat.do_open_spectator_chat(table, host, True)
    chat.do_open_spectator_chat(table, host, True)  # already shown: nothing more is said
    table.refresh_from_db()
    assert table.chat_open
    assert "psst" in [m.text for m in chat.recent(table, seated=True)]
    chat.do_open_spectator_chat(table, host, False)
    table.refresh_from_db()
    assert not table.chat_open
    assert "psst" not in [m.text for m in chat.recent(table, seated=True)]
    system = [(m.text, m.spectator_chat) for m in ChatMessage.objects.filter(author=None)]
    assert system == [
        ("The host showed the spectators' chat to the players.", "1"),
        ("The host hid the spectators' chat from the players.", "0"),
    ]
    # Only the system line moves the pages' chat panels: a person writing the same words does not.
    copy = chat.do_post(table, ann, "The host hid the spectators' chat from the players.")
    assert copy.spectator_chat == ""
    assert "data-spectator-chat" not in chat.render_line(copy)
    hid = ChatMessage.objects.filter(author=None).last()
    assert 'data-spectator-chat="0"' in chat.render_line(hid)


@pytest.mark.django_db
def test_joining_and_leaving_a_seat_write_a_system_line(make_player):
    from games.tables import services

    host = make_player("Hal")
    table = open_table(host)
    bea = make_player("Bea")
    services.do_take_seat(table, bea, 1, PLAYER_ACCESS)
    services.do_leave_seat(table, bea)
    lines = [(m.is_system, m.text) for m in chat.recent(table, seated=True)]
    assert lines == [(True, "Bea sat down in seat 2."), (True, "Bea left their seat.")]


@pytest.mark.django_db
def test_a_line_is_escaped_and_its_author_isolated():
    table, host, _, _ = seated_table()
    Player.objects.filter(pk=host.pk).update(name="<b>Hal</b>")
    host.refresh_from_db()
    line = chat.do_post(table, host, "<script>alert(1)</script> https://evil.example")
    html = chat.render_line(line)
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<bdi>&lt;b&gt;Hal&lt;/b&gt;</bdi>" in html
    assert "<a " not in html  # no link to another site is made clickable


@pytest.mark.parametrize(
    "text, link",
    [
        # This site's own address: a link, to the path only (it cannot lead elsewhere).
        (
            "Watch: https://kilforth.example/t/abc/replay/?step=3&hands=1.",
            '<a href="/t/abc/replay/?step=3&amp;hands=1" rel="nofollow">'
            "https://kilforth.example/t/abc/replay/?step=3&amp;hands=1</a>.",
        ),
        ("(http://KILFORTH.example:8000)", '(<a href="/" rel="nofollow">'),
        # Everything else stays text: another site, a name that only starts like this one,
        # a path that would leave the site (//), a pattern in ALLOWED_HOSTS, a script.
        ("https://evil.example/t/abc/", None),
        ("https://kilforth.example.evil.example/t/abc/", None),
        ("https://kilforth.example//evil.example/", None),
        ("https://anything.kilforth.example/t/", None),
        ("javascript:alert(1)", None),
    ],
)
def test_only_a_link_to_this_site_is_made_clickable(settings, text, link):
    settings.ALLOWED_HOSTS = ["kilforth.example", ".kilforth.example", "*"]
    html = chat.linked(text)
    if link is None:
        assert "<a " not in html
    else:
        assert link in html


async def player_and_spectator(table, player, spectator):
    """A seated player's socket and a spectator's, each showing the table."""
    path = f"/ws/t/{table.slug}/"
    sockets = (
        socket(path, await db(session_for)(player, table, PLAYER_ACCESS)),
        socket(path, await db(session_for)(spectator, table, SPECTATOR_ACCESS)),
    )
    for s in sockets:
        assert (await s.connect())[0]
        await receive_until(s, 'id="table-live"')
    return sockets


@pytest.mark.django_db(transaction=True)
async def test_a_line_reaches_the_players_and_spectators_live_but_spectator_talk_stays_with_them():
    table, host, ann, wes = await db(seated_table)()
    ann_socket, wes_socket = await player_and_spectator(table, ann, wes)

    await ann_socket.send_to(text_data=json.dumps({"action": "chat", "text": "Hi all"}))
    for s in (ann_socket, wes_socket):
        frame = await receive_until(s, "Hi all")
        assert 'id="chat-log" hx-swap-oob="beforeend"' in frame and "<bdi>Ann</bdi>" in frame

    await wes_socket.send_to(text_data=json.dumps({"action": "chat", "text": "She should run"}))
    await receive_until(wes_socket, "She should run")
    # Ann gets nothing from the spectators' chat: her next frame is her own next line.
    await ann_socket.send_to(text_data=json.dumps({"action": "chat", "text": "Moving on"}))
    frames = []
    while "Moving on" not in (frames[-1] if frames else ""):
        frames.append(await ann_socket.receive_from(timeout=3))
    assert not any("She should run" in f for f in frames)

    await wes_socket.send_to(text_data=json.dumps({"action": "chat", "text": ""}))
    refused = await receive_until(wes_socket, 'id="flash"')
    assert 'data-error="chat"' in refused and "Write something" in refused
    for s in (ann_socket, wes_socket):
        await s.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_when_the_spectators_chat_is_shown_the_players_read_what_was_said_before_it():
    table, host, ann, wes = await db(seated_table)()
    await db(chat.do_post)(table, wes, "Said while hidden")
    ann_socket, wes_socket = await player_and_spectator(table, ann, wes)

    await db(chat.do_open_spectator_chat)(table, host, True)
    # Ann's chat comes whole: the earlier spectators' line with the news, once each.
    frame = await receive_until(ann_socket, "The host showed")
    assert 'id="chat-log" hx-swap-oob="innerHTML"' in frame, frame
    assert frame.count("Said while hidden") == 1 and frame.count("The host showed") == 1
    assert frame.index("Said while hidden") < frame.index("The host showed")
    # Wes read it all along: he gets only the news, added to his chat.
    frame = await receive_until(wes_socket, "The host showed")
    assert 'hx-swap-oob="beforeend"' in frame and "Said while hidden" not in frame

    # Hidden again: nothing Ann has read is taken from her page, she is only told.
    await db(chat.do_open_spectator_chat)(table, host, False)
    frame = await receive_until(ann_socket, "The host hid")
    assert 'hx-swap-oob="beforeend"' in frame and "Said while hidden" not in frame
    for s in (ann_socket, wes_socket):
        await s.disconnect()


def team_table():
    """A 2 v 2 Knight Fall table: seats 0 and 2 play the demons, 1 and 3 the knights."""
    names = ["Dee", "Kit", "Dan", "Kay"]
    people = [Player.objects.create(name=n) for n in names]
    options = {"mode": "standard", "lone_team": "demons", "locations": True}
    settings = {"name": "Night", "game": "knightfall", "seat_count": 4, "visibility": "public"}
    settings |= {"bot_delay_ms": 1000, "grace_seconds": 120, "options": options}
    table = services.do_create_table(people[0], settings)
    for number, person in enumerate(people):
        Seat.objects.filter(table=table, number=number).update(player=person)
    return table, people, Player.objects.create(name="Wes")


@pytest.mark.django_db
def test_in_a_team_game_a_player_may_talk_to_their_team_only():
    table, (dee, kit, dan, kay), wes = team_table()
    line = chat.do_post(table, kit, "I will guard the chapel", to_team=True)
    assert (line.channel, line.team) == ("team", "Knights")
    knights = chat.recent(table, True, chat.team_of(table, 3))
    demons = chat.recent(table, True, chat.team_of(table, 0))
    watchers = chat.recent(table, False)
    assert [m.text for m in knights] == ["I will guard the chapel"]
    assert demons == [] and watchers == []
    with pytest.raises(chat.Forbidden):
        chat.do_post(table, wes, "me too", to_team=True)  # a spectator has no team


@pytest.mark.django_db
def test_a_game_without_teams_refuses_a_team_line_and_keeps_nothing():
    table, host, _, _ = seated_table()  # Kilforth: no teams
    with pytest.raises(chat.ChatRefused, match="no teams"):
        chat.do_post(table, host, "psst", to_team=True)
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
async def test_a_team_line_reaches_the_teams_sockets_only():
    table, (dee, kit, dan, kay), wes = await db(team_table)()
    path = f"/ws/t/{table.slug}/"
    sockets = {}
    for name, person, access in (
        ("kit", kit, PLAYER_ACCESS),
        ("kay", kay, PLAYER_ACCESS),
        ("dee", dee, PLAYER_ACCESS),
        ("wes", wes, SPECTATOR_ACCESS),
    ):
        sockets[name] = socket(path, await db(session_for)(person, table, access))
        assert (await sockets[name].connect())[0]
        await receive_until(sockets[name], 'id="table-live"')
    team_line = {"action": "chat", "to": "team", "text": "Kay, take the library"}
    await sockets["kit"].send_to(text_data=json.dumps(team_line))
    for name in ("kit", "kay"):
        frame = await receive_until(sockets[name], "take the library")
        assert "(to Knights)" in frame
    # The demons and the spectator see the next line for everyone, never the team's.
    await sockets["kit"].send_to(text_data=json.dumps({"action": "chat", "text": "Good luck"}))
    for name in ("dee", "wes"):
        frames = []
        while "Good luck" not in (frames[-1] if frames else ""):
            frames.append(await sockets[name].receive_from(timeout=3))
        assert not any("take the library" in f for f in frames)
    for s in sockets.values():
        await s.disconnect()
