"""evaluation rules."""
