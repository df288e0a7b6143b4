"""The workflows of the permits: states, transitions, the roles the law names, citations."""
