"""Who may sign (40 CFR 403.12(l)) and what the office decided on a report."""

from __future__ import annotations

from django.db import models


class SignatoryKind(models.TextChoices):
    RESPONSIBLE_OFFICER = "officer", "Responsible corporate officer (403.12(l)(1))"
    GENERAL_PARTNER = "partner", "General partner or proprietor (403.12(l)(2))"
    AUTHORIZED = "authorized", "Duly authorized representative (403.12(l)(3))"


class Decision(models.TextChoices):
    ACCEPTED = "accepted", "Accepted"
    REJECTED = "rejected", "Rejected"


#: 40 CFR 403.6(a)(2)(ii): the statement every signed report carries, word for word.
CERTIFICATION = (
    "I certify under penalty of law that this document and all attachments were prepared "
    "under my direction or supervision in accordance with a system designed to assure that "
    "qualified personnel properly gather and evaluate the information submitted. Based on my "
    "inquiry of the person or persons who manage the system, or those persons directly "
    "responsible for gathering the information, the information submitted is, to the best of "
    "my knowledge and belief, true, accurate, and complete. I am aware that there are "
    "significant penalties for submitting false information, including the possibility of "
    "fine and imprisonment for knowing violations."
)
CERTIFICATION_CITATION = "40 CFR 403.6(a)(2)(ii)"
