"""Several nodes on one PostgreSQL database: leases, relay and failover."""
