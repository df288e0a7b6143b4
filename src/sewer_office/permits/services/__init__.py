"""Services of the permits app: creating applications and the rules each workflow calls."""
