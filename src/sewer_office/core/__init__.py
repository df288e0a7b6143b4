"""Shared foundations: audit events, the state-machine helper, attachments, the dashboard."""
