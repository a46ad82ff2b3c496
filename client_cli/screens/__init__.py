"""The TUI's screens every game shares: lobby, create form, room basics, replay, help
(each game's own screen is in its module under :mod:`client_cli.games`)."""
