"""The TUI's screens: lobby, create dialog, Perudo table, Kriegspiel board, replay, help."""
