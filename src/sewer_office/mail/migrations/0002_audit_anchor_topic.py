"""A topic for the audit chain's anchor, e-mailed to the Superintendent (always sent)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("mail", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="preference",
            name="topic",
            field=models.CharField(
                choices=[
                    ("sampling_due", "Sampling due (monitoring schedule, § 196-19 D(7))"),
                    ("report_due", "Compliance report due in 30 and 7 days (40 CFR 403.12)"),
                    ("notice_served", "Notice of violation or order served (§ 196-22)"),
                    ("deadline", "Deadline of a notice in 3 days (§ 196-22)"),
                    ("correction_verified", "Correction of a violation verified"),
                    ("invoice_issued", "Invoice issued"),
                    ("invoice_overdue", "Invoice overdue"),
                    ("pumpout_due", "Grease interceptor pump-out due"),
                    ("application", "An application's state changed"),
                    ("email_verification", "E-mail address verification"),
                    ("signing_code", "One-time code to sign a report"),
                    ("report_acknowledgment", "Acknowledgment of a signed report"),
                    ("audit_anchor", "Audit chain anchor (to the Superintendent)"),
                ],
                max_length=40,
            ),
        ),
        migrations.AlterField(
            model_name="sentmessage",
            name="topic",
            field=models.CharField(
                choices=[
                    ("sampling_due", "Sampling due (monitoring schedule, § 196-19 D(7))"),
                    ("report_due", "Compliance report due in 30 and 7 days (40 CFR 403.12)"),
                    ("notice_served", "Notice of violation or order served (§ 196-22)"),
                    ("deadline", "Deadline of a notice in 3 days (§ 196-22)"),
                    ("correction_verified", "Correction of a violation verified"),
                    ("invoice_issued", "Invoice issued"),
                    ("invoice_overdue", "Invoice overdue"),
                    ("pumpout_due", "Grease interceptor pump-out due"),
                    ("application", "An application's state changed"),
                    ("email_verification", "E-mail address verification"),
                    ("signing_code", "One-time code to sign a report"),
                    ("report_acknowledgment", "Acknowledgment of a signed report"),
                    ("audit_anchor", "Audit chain anchor (to the Superintendent)"),
                ],
                max_length=40,
            ),
        ),
    ]
