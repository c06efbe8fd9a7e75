"""The shared platform: config, start-up, storage, tables, delivery, translation. Knows no game."""
