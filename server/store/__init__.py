"""The knowledge base: the store contract, SQLite and PostgreSQL stores, the journal, statistics."""
