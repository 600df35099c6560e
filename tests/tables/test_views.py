from django.contrib.auth.models import User

from games.tables.models import Seat, Table, TableStatus
from tests.tables.helpers import DEFAULT_SETTINGS, open_table


def form_data(**changes):
    data = {**DEFAULT_SETTINGS, **changes}
    return {k: v for k, v in data.items() if v is not False}


def seat_holders(table):
    return {
        s.number: (s.player.name if s.player else None) for s in Seat.objects.filter(table=table)
    }


def test_the_lobby_asks_a_first_time_visitor_for_a_name(client, db):
    page = client.get("/").content.decode()
    assert "First time here?" in page
    assert 'name="name"' in page


def test_choosing_a_name_makes_a_guest_player_kept_in_the_session(client, db):
    response = client.post("/welcome/", {"name": "  Ann  "})
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert "Playing as <strong><bdi>Ann</bdi></strong>" in page
    assert "First time here?" not in page


def test_the_welcome_page_only_redirects_to_this_site(client, db):
    response = client.post("/welcome/", {"name": "Ann", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_opening_a_table_needs_a_name_first(client, db):
    response = client.get("/tables/new/")
    assert response.status_code == 302
    assert response["Location"].startswith("/welcome/?next=")


def test_a_host_opens_a_table_with_its_settings(person):
    host, ann = person("Ann")
    response = host.post("/tables/new/", form_data(seat_count=4, difficulty="harder"))
    assert response.status_code == 302
    table = Table.objects.get()
    assert response["Location"] == f"/t/{table.slug}/"
    assert (table.host, table.seat_count, table.options["difficulty"]) == (ann, 4, "harder")
    assert list(table.seats.values_list("number", flat=True)) == [0, 1, 2, 3]


def test_invalid_settings_are_shown_as_form_errors_and_open_nothing(person):
    host, _ = person("Ann")
    response = host.post("/tables/new/", form_data(mode="solo", seat_count=3))
    assert response.status_code == 200
    assert "exactly one hero seat" in response.content.decode()
    assert not Table.objects.exists()


def test_the_lobby_lists_public_tables_but_not_unlisted_ones(person, client):
    _, ann = person("Ann")
    open_table(ann, name="Open to all")
    open_table(ann, name="Friends only", visibility="unlisted")
    page = client.get("/").content.decode()
    assert "Open to all" in page
    assert "Friends only" not in page
    assert "0/3" in page


def test_a_player_takes_a_free_seat(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, bob = person("Bob")
    response = bob_client.post(f"/t/{table.slug}/seats/1/take/")
    assert response.status_code == 302
    assert seat_holders(table)[1] == "Bob"


def test_taking_another_seat_moves_the_player(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    bob_client.post(f"/t/{table.slug}/seats/0/take/")
    bob_client.post(f"/t/{table.slug}/seats/2/take/")
    assert seat_holders(table) == {0: None, 1: None, 2: "Bob"}


def test_a_taken_seat_cannot_be_taken_by_someone_else(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    cy_client, _ = person("Cy")
    bob_client.post(f"/t/{table.slug}/seats/0/take/")
    response = cy_client.post(f"/t/{table.slug}/seats/0/take/")
    assert response.status_code == 409
    assert "already taken" in response.content.decode()
    assert seat_holders(table)[0] == "Bob"


def test_refusals_to_htmx_requests_are_flash_fragments(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    response = bob_client.post(f"/t/{table.slug}/close/", HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    body = response.content.decode()
    assert body.startswith('<div id="flash"')
    assert "Only the host" in body
    assert response["HX-Retarget"] == "#flash" and response["HX-Reswap"] == "outerHTML"


def test_an_htmx_answer_names_the_flash_area_it_replaces(person):
    # The form that asked may be gone from the page when the answer comes (the websocket's
    # frame for the same change came first): the answer, not the form, says where it goes.
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    response = bob_client.post(f"/t/{table.slug}/seats/0/take/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.content.decode().startswith('<div id="flash"')
    assert response["HX-Retarget"] == "#flash" and response["HX-Reswap"] == "outerHTML"


def test_a_player_leaves_their_seat(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    bob_client.post(f"/t/{table.slug}/seats/0/take/")
    assert bob_client.post(f"/t/{table.slug}/leave/").status_code == 302
    assert seat_holders(table)[0] is None


def test_leaving_without_a_seat_is_refused(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    assert bob_client.post(f"/t/{table.slug}/leave/").status_code == 409


def test_the_host_removes_a_player_from_a_seat(person):
    host, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    bob_client.post(f"/t/{table.slug}/seats/1/take/")
    assert host.post(f"/t/{table.slug}/seats/1/remove/").status_code == 302
    assert seat_holders(table)[1] is None


def test_only_the_host_removes_players(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    cy_client, _ = person("Cy")
    bob_client.post(f"/t/{table.slug}/seats/0/take/")
    response = cy_client.post(f"/t/{table.slug}/seats/0/remove/")
    assert response.status_code == 403
    assert seat_holders(table)[0] == "Bob"


def test_table_actions_refuse_get_requests(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    assert bob_client.get(f"/t/{table.slug}/seats/0/take/").status_code == 405
    assert seat_holders(table)[0] is None


def test_requests_without_a_csrf_token_change_nothing(person, db):
    from django.test import Client

    host, ann = person("Ann")
    table = open_table(ann)
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = host.cookies  # the host's own session, but a forged form without the token
    response = strict.post(f"/t/{table.slug}/close/")
    assert response.status_code == 403
    assert "CSRF" in response.content.decode()
    assert Table.objects.get().status == TableStatus.OPEN


def test_the_host_changes_settings_before_the_start(person):
    host, ann = person("Ann")
    table = open_table(ann)
    response = host.post(
        f"/t/{table.slug}/settings/",
        form_data(name="Renamed", seat_count=2, version=table.version),
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert (table.name, table.seat_count, table.seats.count()) == ("Renamed", 2, 2)


def test_settings_saved_from_a_stale_form_are_refused(person):
    host, ann = person("Ann")
    table = open_table(ann)
    stale_version = table.version
    bob_client, _ = person("Bob")
    bob_client.post(f"/t/{table.slug}/seats/0/take/")
    response = host.post(
        f"/t/{table.slug}/settings/", form_data(name="Renamed", version=stale_version)
    )
    assert response.status_code == 400
    assert "changed while you were editing" in response.content.decode()
    table.refresh_from_db()
    assert table.name == "Evening quest"


def test_seats_cannot_shrink_under_a_seated_player(person):
    host, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    bob_client.post(f"/t/{table.slug}/seats/2/take/")
    table.refresh_from_db()
    response = host.post(
        f"/t/{table.slug}/settings/", form_data(seat_count=2, version=table.version)
    )
    assert response.status_code == 400
    assert "Seat 3" in response.content.decode()
    assert Table.objects.get().seat_count == 3


def test_only_the_host_changes_settings(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    response = bob_client.post(f"/t/{table.slug}/settings/", form_data(name="Mine now"))
    assert response.status_code == 403
    assert Table.objects.get().name == "Evening quest"


def test_the_host_closes_the_table_and_it_leaves_the_lobby(person, client):
    host, ann = person("Ann")
    table = open_table(ann)
    assert host.post(f"/t/{table.slug}/close/").status_code == 302
    assert Table.objects.get().status == TableStatus.CLOSED
    assert "Evening quest" not in client.get("/").content.decode()
    bob_client, _ = person("Bob")
    assert bob_client.post(f"/t/{table.slug}/seats/0/take/").status_code == 409


def test_the_start_button_waits_for_every_seat_then_leads_to_hero_choice(person):
    host, ann = person("Ann")
    table = open_table(ann, mode="solo", seat_count=1)
    page = host.get(f"/t/{table.slug}/").content.decode()
    assert 'disabled aria-describedby="start-note">Start game' in page
    assert "Start needs every seat taken" in page
    assert host.post(f"/t/{table.slug}/start/").status_code == 409
    host.post(f"/t/{table.slug}/seats/0/take/")
    assert host.post(f"/t/{table.slug}/start/").status_code == 302
    assert Table.objects.get().status == TableStatus.CHOOSING
    page = host.get(f"/t/{table.slug}/").content.decode()
    assert "Choose your heroes" in page and "Confirm my hero" in page


def test_an_unlisted_table_is_hidden_without_its_link(person):
    _, ann = person("Ann")
    table = open_table(ann, visibility="unlisted")
    bob_client, _ = person("Bob")
    assert bob_client.get(f"/t/{table.slug}/").status_code == 404
    assert bob_client.post(f"/t/{table.slug}/seats/0/take/").status_code == 404


def test_the_invite_link_lets_a_player_sit_at_an_unlisted_table(person):
    _, ann = person("Ann")
    table = open_table(ann, visibility="unlisted")
    bob_client, _ = person("Bob")
    response = bob_client.get(f"/join/{table.invite_token}/")
    assert response["Location"] == f"/t/{table.slug}/"
    assert bob_client.post(f"/t/{table.slug}/seats/0/take/").status_code == 302
    assert seat_holders(table)[0] == "Bob"


def test_an_invite_followed_after_the_start_says_why_the_visitor_is_watching(person):
    from tests.tables.test_game_flow import started_table

    table, (ann, _) = started_table()
    late_client, _ = person("Lou")
    response = late_client.get(f"/join/{table.invite_token}/", follow=True)
    page = response.content.decode()
    assert "already started when you followed the invite" in page
    assert "you are watching" in page
    assert "Take seat" not in page
    # A seated player coming back through the invite is not told so.
    from django.conf import settings
    from django.test import Client

    from tests.tables.helpers import session_for

    ann_client = Client()
    ann_client.cookies[settings.SESSION_COOKIE_NAME] = session_for(ann)
    seated = ann_client.get(f"/join/{table.invite_token}/", follow=True).content.decode()
    assert "Ann" in seated and "you are watching" not in seated


def test_an_invite_followed_before_the_start_says_nothing_about_watching(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    page = bob_client.get(f"/join/{table.invite_token}/", follow=True).content.decode()
    assert "you are watching" not in page and "Take seat" in page


def test_the_spectate_link_lets_people_watch_but_not_sit(person, client):
    _, ann = person("Ann")
    table = open_table(ann, visibility="unlisted")
    client.get(f"/watch/{table.spectate_token}/")
    page = client.get(f"/t/{table.slug}/").content.decode()
    assert "Evening quest" in page
    assert "Take seat" not in page
    watcher, _ = person("Wes")
    watcher.get(f"/watch/{table.spectate_token}/")
    assert watcher.post(f"/t/{table.slug}/seats/0/take/").status_code == 403


def test_a_wrong_link_token_is_not_found(client, db):
    assert client.get("/join/not-a-token/").status_code == 404
    assert client.get("/watch/not-a-token/").status_code == 404


def test_only_the_host_sees_the_share_links(person):
    host, ann = person("Ann")
    table = open_table(ann)
    assert table.invite_token in host.get(f"/t/{table.slug}/").content.decode()
    bob_client, _ = person("Bob")
    page = bob_client.get(f"/t/{table.slug}/").content.decode()
    assert table.invite_token not in page
    assert table.spectate_token not in page


def test_a_guest_who_signs_up_keeps_name_and_seats(person):
    guest_client, guest = person("Ann")
    _, host = person("Hal")
    table = open_table(host)
    guest_client.post(f"/t/{table.slug}/seats/1/take/")
    response = guest_client.post(
        "/accounts/signup/",
        {
            "username": "ann",
            "password1": "quest-for-the-totem-9",
            "password2": "quest-for-the-totem-9",
        },
    )
    assert response.status_code == 302
    guest.refresh_from_db()
    assert guest.user == User.objects.get(username="ann")
    assert seat_holders(table)[1] == "Ann"
    assert "Playing as <strong><bdi>Ann</bdi></strong>" in guest_client.get("/").content.decode()


def test_logging_in_on_another_device_brings_the_same_player(person, client_factory):
    guest_client, guest = person("Ann")
    guest_client.post(
        "/accounts/signup/",
        {
            "username": "ann",
            "password1": "quest-for-the-totem-9",
            "password2": "quest-for-the-totem-9",
        },
    )
    other_device = client_factory()
    response = other_device.post(
        "/accounts/login/", {"username": "ann", "password": "quest-for-the-totem-9"}
    )
    assert response.status_code == 302
    assert "Playing as <strong><bdi>Ann</bdi></strong>" in other_device.get("/").content.decode()


def test_logging_in_moves_a_guests_seats_to_the_account(person):
    first, _ = person("Ann")
    first.post(
        "/accounts/signup/",
        {
            "username": "ann",
            "password1": "quest-for-the-totem-9",
            "password2": "quest-for-the-totem-9",
        },
    )
    _, hal = person("Hal")
    table = open_table(hal)
    second, _ = person("Ann on the phone")
    second.post(f"/t/{table.slug}/seats/2/take/")
    second.post("/accounts/login/", {"username": "ann", "password": "quest-for-the-totem-9"})
    assert seat_holders(table)[2] == "Ann"


def test_the_health_check_answers(client, db):
    assert client.get("/healthz").content == b"ok"


def test_clear_presence_forgets_sockets_left_by_a_previous_run(person):
    from django.core.management import call_command

    from games.tables.models import Connection

    _, ann = person("Ann")
    table = open_table(ann)
    Connection.objects.create(table=table, channel_name="gone!1", viewer="s1")
    call_command("clear_presence", verbosity=0)
    assert not Connection.objects.exists()


def test_the_lobby_links_to_the_card_gallery(client, db):
    page = client.get("/").content.decode()
    assert 'href="/cards/"' in page and "Browse the cards" in page


def test_the_lobby_banner_names_every_game_on_offer_and_stays_hidden_once_read(client, db):
    from django.utils.html import escape

    from games.tables import kits

    page = client.get("/").content.decode()
    assert len(kits.all_kits()) >= 2
    for kit in kits.all_kits():
        assert f"<strong>{escape(kit.name)}</strong>" in page and escape(kit.blurb) in page
    assert client.post("/welcome/banner/hide/").status_code == 302
    page = client.get("/").content.decode()
    assert 'class="hero-banner"' not in page and "Got it, hide this" not in page
    assert 'href="/tables/new/"' in page  # opening a table never hides with the banner


def test_a_visitor_who_came_by_a_spectate_link_may_sit_at_a_public_table(person):
    host_browser, host = person("Hal")
    table = open_table(host)
    bea, player = person("Bea")
    assert bea.get(f"/watch/{table.spectate_token}/").status_code == 302
    answer = bea.post(f"/t/{table.slug}/seats/1/take/")
    assert answer.status_code == 302, answer.content
    assert Seat.objects.get(table=table, number=1).player_id == player.pk


def test_a_seat_has_one_number_in_its_element_id_its_urls_and_the_game(person):
    _, ann = person("Ann")
    table = open_table(ann)
    bob_client, _ = person("Bob")
    page = bob_client.get(f"/t/{table.slug}/").content.decode()
    # The second seat: element #seat-1, its form posts to seats/1/, people read "Seat 2".
    second = page[page.index('id="seat-1"') :]
    second = second[: second.index("</li>")] if "</li>" in second else second
    assert f"/t/{table.slug}/seats/1/take/" in second
    assert "Seat 2" in second
    assert bob_client.post(f"/t/{table.slug}/seats/1/take/").status_code == 302
    assert seat_holders(table)[1] == "Bob"
