"""The ranked bot ladder: bots that keep playing rated games against each other
(docs/bots.md, "The ladder"). :mod:`server.ladder.core` pairs, sans-I/O;
:mod:`server.ladder.actor` runs it on a server."""
