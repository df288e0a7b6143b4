"""Users and roles: the office's roles are Django groups; outside users act for persons."""
