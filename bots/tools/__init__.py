"""Tools over bots: tournaments and self-play (arena), the bots' subcommands, advise, and
the house runner."""
