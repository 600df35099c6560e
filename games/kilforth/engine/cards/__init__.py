"""The card system: the card catalogue and its schema, and the interpreter of card steps."""
