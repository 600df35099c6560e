"""The Kilforth game: rules engine (``engine/``, pure Python), card data (``content/``) and board rendering."""
