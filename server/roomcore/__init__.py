"""The sans-I/O room core: one room's logic as a synchronous state machine (``core``)."""
