"""The annual pretreatment report's editions as prepared and kept (40 CFR 403.12(i))."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("pretreatment", "0002_baseline_checklist_hazardous_waste"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AnnualReportEdition",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "year",
                    models.PositiveIntegerField(help_text="the calendar year the report covers"),
                ),
                ("first", models.DateField(help_text="the first day of the period covered")),
                ("last", models.DateField(help_text="the last day of the period covered")),
                ("figures", models.JSONField()),
                ("csv", models.BinaryField(help_text="the report's CSV as prepared")),
                ("pdf", models.BinaryField(help_text="the report's PDF as prepared")),
                ("sha256", models.CharField(help_text="SHA-256 of the PDF", max_length=64)),
                (
                    "audit_mark",
                    models.PositiveBigIntegerField(
                        help_text="the last audit event before it was prepared"
                    ),
                ),
                ("prepared_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "prepared_by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ("-year", "-id"),
                "indexes": [models.Index(fields=["year", "-id"], name="annual_edition_year")],
            },
        ),
    ]
