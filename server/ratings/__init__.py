"""Ratings: Glicko-2 for Kriegspiel, OpenSkill (Plackett-Luce) for Perudo, per rule set."""
