"""The terminal client for umpire (``umpire play``)."""
