from django.http import HttpRequest

from .identity import player_from_session


def player(request: HttpRequest) -> dict:
    # Lazily: only pages that show the name pay for the query.
    cached: dict = {}

    def current() -> object:
        if "player" not in cached:
            cached["player"] = player_from_session(request.session)
        return cached["player"]

    return {"current_player": current}
