"""The network edge: the websocket application and the browser client's files."""
