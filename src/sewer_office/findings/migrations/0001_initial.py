# The findings ledger moved out of the monitoring app (one app per domain: findings of every
# activity, not monitoring's alone). The model keeps its table
# (``monitoring_finding``), so only Django's idea of which app owns it changes: the state is
# created here and deleted from monitoring in ``monitoring.0002``, and no row is touched. The
# content type follows the model, so audit events and permissions about findings stay attached.

import django.db.models.deletion
import django.utils.timezone
from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def move_content_type(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not content_type.objects.using(db).filter(app_label="findings", model="finding").exists():
        content_type.objects.using(db).filter(app_label="monitoring", model="finding").update(
            app_label="findings"
        )


def restore_content_type(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    if not content_type.objects.using(db).filter(app_label="monitoring", model="finding").exists():
        content_type.objects.using(db).filter(app_label="findings", model="finding").update(
            app_label="monitoring"
        )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("monitoring", "0001_initial"),
        ("registry", "0003_establishment_code_and_more"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Finding",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("lab_result", "Laboratory result"),
                                    ("advisory", "Advisory on a result"),
                                    ("monthly_average", "Monthly average"),
                                    ("slug", "Slug discharge"),
                                    ("excursion", "Excursion"),
                                    ("unreported_slug", "Slug not reported"),
                                    ("pump_out_overdue", "Grease trap cleaning overdue"),
                                    ("inspection", "Inspection"),
                                ],
                                max_length=20,
                            ),
                        ),
                        ("source_id", models.CharField(blank=True, max_length=64)),
                        ("status", models.CharField(max_length=20)),
                        ("citation", models.CharField(max_length=80)),
                        ("limit", models.CharField(blank=True, max_length=40)),
                        ("limit_unit", models.CharField(blank=True, max_length=20)),
                        ("message", models.TextField()),
                        (
                            "parameter",
                            models.CharField(
                                blank=True, help_text="parameter-set name used", max_length=120
                            ),
                        ),
                        (
                            "effective",
                            models.DateField(blank=True, help_text="its effective date", null=True),
                        ),
                        ("parameters_version", models.CharField(blank=True, max_length=80)),
                        ("analyte", models.CharField(blank=True, max_length=60)),
                        (
                            "observed_at",
                            models.DateTimeField(help_text="when what was judged happened"),
                        ),
                        (
                            "month",
                            models.DateField(
                                blank=True, help_text="first day, for monthly findings", null=True
                            ),
                        ),
                        (
                            "current",
                            models.BooleanField(
                                default=True, help_text="false once its result is superseded"
                            ),
                        ),
                        (
                            "review",
                            models.CharField(
                                choices=[
                                    ("none", "Nothing to review"),
                                    ("new", "New"),
                                    ("acknowledged", "Acknowledged"),
                                    ("closed", "Closed"),
                                ],
                                default="new",
                                max_length=12,
                            ),
                        ),
                        ("reviewed_at", models.DateTimeField(blank=True, null=True)),
                        ("review_note", models.TextField(blank=True)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "establishment",
                            models.ForeignKey(
                                blank=True,
                                db_constraint=False,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="findings",
                                to="registry.establishment",
                            ),
                        ),
                        (
                            "reviewed_by",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "source_type",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to="contenttypes.contenttype",
                            ),
                        ),
                        (
                            "result",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="findings",
                                to="monitoring.labresult",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "monitoring_finding",
                        "ordering": ("-observed_at", "id"),
                        "indexes": [
                            models.Index(
                                fields=["establishment", "observed_at"],
                                name="finding_facility_time",
                            ),
                            models.Index(fields=["review", "status"], name="finding_review_status"),
                            models.Index(
                                fields=["establishment", "review", "observed_at"],
                                name="finding_facility_review",
                            ),
                            models.Index(
                                fields=["source_type", "source_id"], name="finding_source"
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type, restore_content_type),
    ]
