"""Reminders and notifications by e-mail: what the office owes people a message about (sources)
and the daily run that sends each once (services, ``sewer-use send-reminders``)."""
