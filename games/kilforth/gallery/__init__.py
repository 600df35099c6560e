"""The card gallery (see docs/cards.md)."""
