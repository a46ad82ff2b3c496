"""Players: guest identities (a name and a token stored hashed)."""
