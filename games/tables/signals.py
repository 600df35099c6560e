"""Accounts and guests meet here: logging in keeps the seats a guest took in this browser."""

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db import IntegrityError, transaction
from django.dispatch import receiver
from django.http import HttpRequest

from . import realtime
from .identity import player_from_session, remember_player
from .models import Player, Seat, Table


@receiver(user_logged_in)
def carry_guest_over(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    guest = player_from_session(request.session)
    with transaction.atomic():
        owned = Player.objects.filter(user=user).first()
        if owned is None:
            if guest is not None and guest.user_id is None:
                # First login or sign-up from this browser: the guest becomes the account's player.
                guest.user = user
                guest.save(update_fields=["user"])
                owned = guest
            else:
                owned = Player.objects.create(name=user.get_username()[:40], user=user)
        elif guest is not None and guest.pk != owned.pk and guest.user_id is None:
            _merge(guest, owned)
    remember_player(request.session, owned)


def _merge(guest: Player, owned: Player) -> None:
    """Move a guest's seats and hosted tables to the account's player, where no seat clashes."""
    touched = set()
    for seat in Seat.objects.filter(player=guest):
        try:
            with transaction.atomic():
                Seat.objects.filter(pk=seat.pk).update(player=owned)
        except IntegrityError:
            # The account already sits at that table: it keeps its own seat, the guest's empties.
            Seat.objects.filter(pk=seat.pk).update(player=None)
        touched.add(seat.table_id)
    touched.update(Table.objects.filter(host=guest).values_list("pk", flat=True))
    Table.objects.filter(host=guest).update(host=owned)
    for table_id in touched:
        realtime.on_commit_table_changed(table_id, bump=True)


@receiver(user_logged_out)
def demote_open_sockets(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """The sockets this browser has open stop showing the seat's private view at once: each
    reads its session again (now empty) and carries on as a spectator, or closes."""
    key = request.session.session_key
    if key:
        realtime.send_to_session(key, {"type": "session.changed"})
