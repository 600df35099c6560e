"""The Kilforth game: the rules engine (engine/, pure Python) and card data (content/)."""
