"""Server-rendered Kilforth game board: `render_board(view, ...)` -> one HTML fragment.

See docs/board.md for the fragment ids and the form protocol.
"""

from .render import board_context, page_parts, render_board, render_full_log

__all__ = ["board_context", "page_parts", "render_board", "render_full_log"]
