"""The rules of play: turns, actions, deeds, tests, engagements, night, sagas, ancients."""
