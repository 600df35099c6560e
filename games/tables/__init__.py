"""The platform: lobby, tables, seats, spectators, identities and the realtime consumers."""
