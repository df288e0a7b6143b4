"""ordinance rules."""
