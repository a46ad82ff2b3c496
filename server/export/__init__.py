"""Reading finished games back out: JSONL, PGN, Parquet and fairness checks."""
