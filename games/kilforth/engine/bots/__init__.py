"""Bots that play a seat: the random and heuristic players, and full bot-played games."""
