"""The wire protocol: typed inbound messages, typed outbound frames, and the rate limits
clients pace to."""
