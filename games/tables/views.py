"""Function views: parse the request, call one service, turn its answer into a response."""

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget
from django_ratelimit.decorators import ratelimit

from . import chat, frames, kits, limits, rendering, replays, services
from .forms import DisplayNameForm, SignUpForm, TableSettingsForm
from .identity import (
    PLAYER_ACCESS,
    SPECTATOR_ACCESS,
    access_level,
    grant_access,
    player_from_session,
    remember_player,
)
from .models import Action, Game, Table, TableStatus
from .rendering import load_snapshot, lobby_page_count, lobby_tables, render_table_live

View = Callable[..., HttpResponse]


def _safe_next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def requires_name(view: View) -> View:
    """Guests pick a display name on their first visit; the name lives in their session."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        request.player = player_from_session(request.session)
        if request.player is None:
            if request.method != "GET" or request.htmx:
                return _refuse(request, services.Forbidden("Choose a display name first."), "lobby")
            return redirect(f"{reverse('welcome')}?{urlencode({'next': request.get_full_path()})}")
        return view(request, *args, **kwargs)

    return wrapper


def _flash(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    """The page's flash area, for htmx to put in place of the one it shows. The answer names its
    place itself: the form that asked may be gone from the page by now (the websocket's frame
    for the same change can come first), and a form taken out of the page no longer inherits
    the body's target and swap, so htmx would put the area inside the old one."""
    response = render(request, "tables/_flash.html", context, status=status)
    return reswap(retarget(response, "#flash"), "outerHTML")


def _refuse(request: HttpRequest, error: services.ServiceError, back: str) -> HttpResponse:
    """A clear error with the right status; htmx swaps it into the page's flash area."""
    context = {"message": error.message, "code": error.code, "back": back}
    if request.htmx:
        return _flash(request, context, status=error.status)
    return render(request, "tables/refused.html", context, status=error.status)


def _done(request: HttpRequest, table: Table) -> HttpResponse:
    # htmx: clear the flash; the websocket brings the new state to this page like to every other.
    if request.htmx:
        return _flash(request, {"message": ""})
    return redirect(table)


def _table_or_404(request: HttpRequest, slug: str) -> tuple[Table, str]:
    table = get_object_or_404(Table, slug=slug)
    access = access_level(request.session, table, player_from_session(request.session))
    if access is None:
        # An unlisted table does not exist for those without its link.
        raise Http404("No such table")
    return table, access


def rate_limited(request: HttpRequest, exception: Exception) -> HttpResponse:
    """What a person sees when they do something too often (django-ratelimit's view)."""
    return _refuse(
        request, services.TooMany("That was too often; wait a few minutes and try again."), "/"
    )


@ratelimit(key=limits.login_name, rate=limits.LOG_IN[0], method="POST", block=True)
@ratelimit(key="ip", rate=limits.LOG_IN[1], method="POST", block=True)
def log_in(request: HttpRequest) -> HttpResponse:
    return LoginView.as_view()(request)


def lobby(request: HttpRequest) -> HttpResponse:
    query = " ".join(request.GET.get("q", "").split())[:60]
    try:
        page = max(1, min(int(request.GET.get("page", "1")), 10_000))
    except ValueError:
        page = 1
    pages = lobby_page_count(query)
    page = min(page, pages)
    context = {"tables": lobby_tables(query, page), "query": query, "page": page, "pages": pages}
    # Only the first page of all tables is kept live; a search or a later page is a snapshot.
    context["live"] = page == 1 and not query
    context["page_range"] = range(1, pages + 1) if pages <= 20 else None
    context["games"] = kits.all_kits()
    context["tutorials"] = [(kit, kits.tutorial_of(kit)) for kit in kits.kits_with_tutorials()]
    context["show_banner"] = not request.session.get(BANNER_READ)
    return render(request, "tables/lobby.html", context)


BANNER_READ = "lobby_banner_read"


@require_POST
def hide_banner(request: HttpRequest) -> HttpResponse:
    """The lobby's welcome banner, once read, stays hidden for this browser's session."""
    request.session[BANNER_READ] = True
    return redirect("lobby")


@ratelimit(key=limits.person, rate=limits.RENAME[0], method="POST", block=True)
@ratelimit(key="ip", rate=limits.RENAME[1], method="POST", block=True)
@require_http_methods(["GET", "POST"])
def welcome(request: HttpRequest) -> HttpResponse:
    player = player_from_session(request.session)
    form = DisplayNameForm(request.POST or None, initial={"name": player.name if player else ""})
    if request.method == "POST" and form.is_valid():
        try:
            player = services.do_set_display_name(player, form.cleaned_data["name"])
        except services.ServiceError as exc:
            form.add_error("name", exc.message)
            return render(
                request, "tables/welcome.html", {"form": form, "next": _safe_next(request, "")}
            )
        remember_player(request.session, player)
        messages.success(request, f"Welcome, {player.name}.")
        return redirect(_safe_next(request, reverse("lobby")))
    return render(request, "tables/welcome.html", {"form": form, "next": _safe_next(request, "")})


@ratelimit(key="ip", rate=limits.SIGN_UP[1], method="POST", block=True)
@ratelimit(key=limits.person, rate=limits.SIGN_UP[0], method="POST", block=True)
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        # The login signal adopts the guest player of this browser, with its name and seats.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, "Your account is ready; your name and seats come with you.")
        return redirect(_safe_next(request, reverse("lobby")))
    return render(request, "registration/signup.html", {"form": form})


@ratelimit(key=limits.person, rate=limits.CREATE_TABLE[0], method="POST", block=True)
@ratelimit(key="ip", rate=limits.CREATE_TABLE[1], method="POST", block=True)
@requires_name
@require_http_methods(["GET", "POST"])
def create_table(request: HttpRequest) -> HttpResponse:
    initial = {"name": f"{request.player.name}'s table"}
    if request.GET.get("game") in {kit.key for kit in kits.all_kits()}:
        initial["game"] = request.GET["game"]  # the game whose options the form shows
    form = TableSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.do_create_table(request.player, form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(table)
    return render(request, "tables/table_form.html", {"form": form, "creating": True})


@ratelimit(key=limits.person, rate=limits.CREATE_TABLE[0], method="POST", block=True)
@ratelimit(key="ip", rate=limits.CREATE_TABLE[1], method="POST", block=True)
@requires_name
@require_http_methods(["GET", "POST"])
def learn(request: HttpRequest, game: str) -> HttpResponse:
    """A kit's guided first game: what it is (GET), and starting one (POST: a private solo
    table, begun, and the person sent to it)."""
    try:
        kit = kits.get(game)
    except LookupError as exc:
        raise Http404("No such game") from exc
    tutorial = kits.tutorial_of(kit)
    if tutorial is None:
        raise Http404("This game has no guided game")
    if request.method == "POST":
        try:
            table = services.do_start_tutorial(request.player, kit.key)
        except services.ServiceError as error:
            return _refuse(request, error, reverse("lobby"))
        return redirect(table)
    return render(request, "tables/learn.html", {"kit": kit, "tutorial": tutorial})


def table_page(request: HttpRequest, slug: str) -> HttpResponse:
    table, access = _table_or_404(request, slug)
    player = player_from_session(request.session)
    snapshot = load_snapshot(table.pk)
    live = render_table_live(snapshot, player.pk if player else None, access, request=request)
    context = {"table": table, "live": live, "access": access, "player": player}
    my_seat = None
    if player is not None:
        my_seat = table.seats.filter(player=player).values_list("number", flat=True).first()
    seated = my_seat is not None
    team = chat.team_of(table, my_seat)
    context |= {
        "chat_lines": chat.recent(table, seated, team),
        "chat_seated": seated,
        "chat_team": team,
        "is_host": player is not None and player.pk == table.host_id,
        "chat_muted": [str(m) for m in table.chat_mutes.values_list("player_id", flat=True)],
    }
    # Icons and rules help for the board, once per page (a game may start while it is open).
    context["board_parts"] = kits.kit_for(table).page_parts()
    return render(request, "tables/table.html", context)


def game_log(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole log of a table's game, as the asking viewer may see it."""
    table, _ = _table_or_404(request, slug)
    game = Game.objects.filter(table=table).first()
    if game is None:
        raise Http404("This table has no game yet")
    player = player_from_session(request.session)
    seats = list(table.seats.select_related("player"))
    mine = next((s.number for s in seats if player and s.player_id == player.pk), None)
    players = {s.number: services.seat_name(table, s) for s in seats}
    kit = kits.kit_for(table)
    html = kit.render_full_log(kit.load(game.state), mine, players, game.history())
    return render(request, "tables/game_log.html", {"table": table, "log": html})


def replay(request: HttpRequest, slug: str) -> HttpResponse:
    """A game stepped through decision by decision (`replays.py`); `?step=N`, and once the game
    has ended `?seat=K` to see the board as that seat saw it, `?hands=1` to reveal every hand."""
    table, _ = _table_or_404(request, slug)
    game = Game.objects.filter(table=table).first()
    if game is None:
        raise Http404("This table has no game yet")
    kit = kits.kit_for(table)
    steps = replays.steps_of(game)
    last = len(steps)
    step = _int_param(request, "step", last, 0, last)
    ended = table.status in (TableStatus.FINISHED, TableStatus.CLOSED)
    seats = list(table.seats.select_related("player").order_by("number"))
    players = {s.number: services.seat_name(table, s) for s in seats}
    # While the game runs a replay shows the public board only: hands are not yet history.
    seat = _int_param(request, "seat", -1, -1, len(seats) - 1) if ended else -1
    reveal = replays.revealed(ended, request.GET.get("hands") == "1")
    viewer = seat if seat >= 0 else None
    try:
        state = replays.state_after(game, kit, steps, step)
        marks = replays.marks(steps, replays.first_phase(game, kit, steps), kit.phase_word)
    except replays.ReplayUnavailable as exc:
        return render(request, "tables/replay.html", {"table": table, "unavailable": exc})
    board = kit.render(state, viewer, players, set(), table.slug)
    done = steps[step - 1] if step else None
    happened = (
        kit.render_full_log(state, viewer, players, done.events) if done and done.events else ""
    )
    moment = Action.objects.filter(game=game, version__lte=kit.version(state)).order_by("-version")
    until = moment.values_list("created", flat=True).first() or game.created
    chat_lines = chat.said_by(table, until)
    earlier, later = replays.neighbours(marks, step)
    keep = {"seat": seat} if seat >= 0 else {}
    if reveal:
        keep["hands"] = 1
    context = {
        "table": table,
        "board": frames.board_frame(board, kit.version(state), kit.key),
        "board_parts": kit.page_parts(),
        "step": step,
        "last": last,
        "done": done,
        "happened": happened,
        "ended": ended,
        "seat": seat,
        "seats": seats,
        "chat_lines": chat_lines,
        "marks": marks,
        "phase_word": kit.phase_word,
        "phase": replays.phase_at(marks, step),
        "earlier": earlier,
        "later": later,
        "keep": "&" + urlencode(keep) if keep else "",
        "reveal": reveal,
        "hands": replays.hands_at(kit, state, players) if reveal else [],
        "switch": "&" + urlencode({**keep, "hands": 0 if reveal else 1}),
    }
    return render(request, "tables/replay.html", context)


def _int_param(request: HttpRequest, name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter clamped to [low, high]; `default` when absent or bad."""
    try:
        value = int(request.GET.get(name, default))
    except ValueError:
        value = default
    return max(low, min(value, high))


def join_by_invite(request: HttpRequest, token: str) -> HttpResponse:
    # A closed table's links are dead, like links the host replaced.
    table = get_object_or_404(Table.objects.exclude(status=TableStatus.CLOSED), invite_token=token)
    grant_access(request.session, table, PLAYER_ACCESS)
    player = player_from_session(request.session)
    seated = player is not None and table.seats.filter(player=player).exists()
    if not table.is_open and not seated:
        # Seats are only taken before the start: say why the invite now only lets them watch.
        messages.info(
            request,
            "This game had already started when you followed the invite, so there is no seat "
            "for you now: you are watching.",
        )
    return redirect(table)


def watch_by_link(request: HttpRequest, token: str) -> HttpResponse:
    table = get_object_or_404(
        Table.objects.exclude(status=TableStatus.CLOSED), spectate_token=token
    )
    grant_access(request.session, table, SPECTATOR_ACCESS)
    return redirect(table)


def _service_view(action: Callable[[HttpRequest, Table, str], None]) -> View:
    """POST-only table action: run one service call, answer with a result or a clear refusal."""

    @require_POST
    @requires_name
    @wraps(action)
    def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
        table, access = _table_or_404(request, slug)
        try:
            action(request, table, access, **kwargs)
        except services.ServiceError as error:
            return _refuse(request, error, table.get_absolute_url())
        return _done(request, table)

    return wrapper


# URLs and people count seats from 1; the services count from 0.
@_service_view
def take_seat(request: HttpRequest, table: Table, access: str, number: int) -> None:
    services.do_take_seat(table, request.player, number, access)


@_service_view
def leave_seat(request: HttpRequest, table: Table, access: str) -> None:
    services.do_leave_seat(table, request.player)


@_service_view
def remove_player(request: HttpRequest, table: Table, access: str, number: int) -> None:
    services.do_remove_player(table, request.player, number)


@_service_view
def rotate_links(request: HttpRequest, table: Table, access: str) -> None:
    services.do_rotate_links(table, request.player)


@_service_view
def close_table(request: HttpRequest, table: Table, access: str) -> None:
    services.do_close_table(table, request.player)


@_service_view
def pause_clocks(request: HttpRequest, table: Table, access: str) -> None:
    services.do_pause_clocks(table, request.player, request.POST.get("paused") == "1")


@_service_view
def start_game(request: HttpRequest, table: Table, access: str) -> None:
    services.do_start_game(table, request.player)


@_service_view
def setup_seat(request: HttpRequest, table: Table, access: str) -> None:
    """A seat's answer to the kit's pre-game prompt: the posted fields, read by the kit."""
    answer = {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}
    services.do_setup_seat(table, request.player, answer)


@_service_view
def seat_bot(request: HttpRequest, table: Table, access: str, number: int) -> None:
    services.do_seat_bot(table, request.player, number, request.POST.get("level", ""))


@_service_view
def hand_to_bot(request: HttpRequest, table: Table, access: str, number: int) -> None:
    services.do_hand_to_bot(table, request.player, number, request.POST.get("level", ""))


@_service_view
def reclaim_seat(request: HttpRequest, table: Table, access: str) -> None:
    services.do_reclaim_seat(table, request.player)


@_service_view
def unsetup_seat(request: HttpRequest, table: Table, access: str) -> None:
    services.do_unsetup_seat(table, request.player)


@_service_view
def tutorial_next(request: HttpRequest, table: Table, access: str) -> None:
    try:
        step = int(request.POST.get("step", ""))
    except ValueError:
        raise services.ServiceError("That step was malformed.") from None
    services.do_tutorial_next(table, request.player, step)


@_service_view
def tutorial_leave(request: HttpRequest, table: Table, access: str) -> None:
    services.do_leave_tutorial(table, request.player)


@require_POST
@requires_name
def rematch(request: HttpRequest, slug: str) -> HttpResponse:
    table, _ = _table_or_404(request, slug)
    try:
        new = services.do_rematch(table, request.player)
    except services.ServiceError as error:
        return _refuse(request, error, table.get_absolute_url())
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = new.get_absolute_url()
        return response
    return redirect(new)


@requires_name
@require_http_methods(["GET", "POST"])
def table_settings(request: HttpRequest, slug: str) -> HttpResponse:
    table, _ = _table_or_404(request, slug)
    try:
        services.check_host(table, request.player)
        services.check_open(table)
    except services.ServiceError as error:
        return _refuse(request, error, table.get_absolute_url())
    form = TableSettingsForm(request.POST or None, instance=Table.objects.get(pk=table.pk))
    seen = request.POST.get("version", table.version)
    if request.method == "POST" and form.is_valid():
        try:
            services.do_update_settings(table, request.player, form.cleaned_data, int(seen))
        except (TypeError, ValueError):
            return _refuse(request, services.ServiceError("The form was damaged."), "")
        except services.ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, "Settings saved.")
            return redirect(table)
    context = {"form": form, "table": table, "version": table.version, "creating": False}
    status = 400 if form.errors else 200
    return render(request, "tables/table_form.html", context, status=status)


@requires_name
def my_games(request: HttpRequest) -> HttpResponse:
    """Every table the person sits at, those waiting for them first (turn-based play)."""
    rows = rendering.my_tables(request.player.pk)
    return render(request, "tables/my_games.html", {"rows": rows})


def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")
