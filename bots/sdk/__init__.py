"""The bot SDK: the Bot API, its two transports (local and remote), budgets."""
