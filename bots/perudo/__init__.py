"""Perudo bots: the table model, the expert system, the search player, the solved endgames."""
