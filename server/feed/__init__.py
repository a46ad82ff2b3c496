"""The public feed on MQTT."""
