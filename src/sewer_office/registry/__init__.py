"""The town's registry: persons, properties, buildings, establishments and service areas."""
