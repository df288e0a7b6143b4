"""Reminders and notifications by e-mail: the daily run that sends each message the office
owes once (services, ``sewer-use send-reminders``), from the sources every app registers
(:mod:`sewer_office.registry.reminders`), and the audit chain's anchor mailed to the
Superintendent (audit_anchor)."""
