"""E-mail of the office: every message sent through one function and recorded (the message log).

:func:`sewer_office.mail.services.send_message` sends through Django's e-mail framework
(``django.core.mail``: SMTP in production, the file backend under ``var/mail/`` on a laptop)
and writes a :class:`~sewer_office.mail.models.SentMessage` for each message, sent, withheld
by the user's preferences, or failed. A message with a dedupe ``key`` goes out once.
"""
