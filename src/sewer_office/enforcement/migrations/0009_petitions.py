"""Petitions against an order of a town whose law allows one (a town's own ladder), and
their decisions."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("enforcement", "0008_town_kept"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Petition",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "asks",
                    models.CharField(
                        choices=[("modify", "Modify the order"), ("suspend", "Suspend the order")],
                        max_length=10,
                    ),
                ),
                ("grounds", models.TextField(help_text="what the petition says, in short")),
                (
                    "received_on",
                    models.DateField(help_text="the day the petition reached the official"),
                ),
                (
                    "due_on",
                    models.DateField(
                        help_text="the last day of the petition's window, as its law counts"
                    ),
                ),
                (
                    "window",
                    models.JSONField(help_text="how the last day was computed (the ladder's rule)"),
                ),
                ("timely", models.BooleanField(help_text="received within the window")),
                (
                    "citation",
                    models.CharField(
                        help_text="the provision that allows the petition", max_length=80
                    ),
                ),
                ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "decision",
                    models.CharField(
                        blank=True,
                        choices=[
                            (
                                "modified",
                                "Granted: the order is modified (a new order replaces it)",
                            ),
                            ("suspended", "Granted: the order is suspended"),
                            ("denied", "Denied: the order stands"),
                        ],
                        max_length=10,
                    ),
                ),
                ("decided_on", models.DateField(blank=True, null=True)),
                ("decision_note", models.TextField(blank=True)),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "order",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="petitions",
                        to="enforcement.notice",
                    ),
                ),
                (
                    "recorded_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "violation",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="petitions",
                        to="enforcement.violation",
                    ),
                ),
            ],
            options={
                "ordering": ("received_on", "id"),
            },
        ),
    ]
