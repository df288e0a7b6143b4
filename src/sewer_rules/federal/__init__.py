"""federal rules."""
