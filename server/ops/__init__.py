"""Operations: /healthz and /metrics, structured logs, the event loop and GC policy."""
