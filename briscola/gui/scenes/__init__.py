"""The scenes of the game: menu, new game, table, score, settings, rules, statistics."""
