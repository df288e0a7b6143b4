# The sewer network moved out of the registry into an app of its own (one app per domain). Its models
# keep their tables (``registry_*``), so only Django's idea of which app owns them changes: the
# state is created here and deleted from the registry in ``registry.0004``, and no row is
# touched. The content types follow the models, so audit events about them stay attached.

import django.db.models.deletion
import django.utils.timezone
from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

MODELS = ("networkversion", "manhole", "sewerpipe", "buildingconnection", "samplingpointoverride")


def _relabel(apps: Apps, schema_editor: BaseDatabaseSchemaEditor, old: str, new: str) -> None:
    content_type = apps.get_model("contenttypes", "ContentType")
    types = content_type.objects.using(schema_editor.connection.alias)
    for model in MODELS:
        if not types.filter(app_label=new, model=model).exists():
            types.filter(app_label=old, model=model).update(app_label=new)


def move_content_types(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _relabel(apps, schema_editor, "registry", "network")


def restore_content_types(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _relabel(apps, schema_editor, "network", "registry")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("registry", "0003_establishment_code_and_more"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="NetworkVersion",
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
                        ("geojson", models.TextField()),
                        ("sha256", models.CharField(db_index=True, max_length=64)),
                        ("source_name", models.CharField(blank=True, max_length=300)),
                        ("imported_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("active", models.BooleanField(default=False)),
                        ("manhole_count", models.PositiveIntegerField(default=0)),
                        ("pipe_count", models.PositiveIntegerField(default=0)),
                        ("connection_count", models.PositiveIntegerField(default=0)),
                        (
                            "imported_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "replaces",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="replaced_by",
                                to="network.networkversion",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "registry_networkversion",
                        "ordering": ("-imported_at", "-id"),
                    },
                ),
                migrations.CreateModel(
                    name="Manhole",
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
                        ("ident", models.CharField(max_length=60)),
                        ("public", models.BooleanField(default=True)),
                        (
                            "x",
                            models.FloatField(
                                help_text="longitude (WGS 84) or easting in the file's CRS"
                            ),
                        ),
                        (
                            "y",
                            models.FloatField(
                                help_text="latitude (WGS 84) or northing in the file's CRS"
                            ),
                        ),
                        (
                            "version",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="manholes",
                                to="network.networkversion",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "registry_manhole",
                        "ordering": ("version", "ident"),
                    },
                ),
                migrations.CreateModel(
                    name="SamplingPointOverride",
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
                        ("manhole", models.CharField(max_length=60)),
                        ("reason", models.TextField()),
                        ("recorded_at", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "property",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="sampling_overrides",
                                to="registry.property",
                            ),
                        ),
                        (
                            "recorded_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "registry_samplingpointoverride",
                        "ordering": ("property", "-recorded_at", "-id"),
                    },
                ),
                migrations.CreateModel(
                    name="SewerPipe",
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
                        ("ident", models.CharField(max_length=60)),
                        (
                            "diameter_in",
                            models.DecimalField(
                                blank=True, decimal_places=2, max_digits=6, null=True
                            ),
                        ),
                        ("public", models.BooleanField(default=True)),
                        ("length_m", models.FloatField()),
                        (
                            "from_manhole",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="network.manhole",
                            ),
                        ),
                        (
                            "to_manhole",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="network.manhole",
                            ),
                        ),
                        (
                            "version",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="pipes",
                                to="network.networkversion",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "registry_sewerpipe",
                        "ordering": ("version", "ident"),
                    },
                ),
                migrations.CreateModel(
                    name="BuildingConnection",
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
                            "position",
                            models.PositiveIntegerField(
                                help_text="index of the connection in the network"
                            ),
                        ),
                        (
                            "property",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="network_connections",
                                to="registry.property",
                            ),
                        ),
                        (
                            "manhole",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                to="network.manhole",
                            ),
                        ),
                        (
                            "version",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="connections",
                                to="network.networkversion",
                            ),
                        ),
                        (
                            "pipe",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                to="network.sewerpipe",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "registry_buildingconnection",
                        "ordering": ("version", "position"),
                    },
                ),
                migrations.AddConstraint(
                    model_name="networkversion",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("active", True)),
                        fields=("active",),
                        name="one_active_network",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="manhole",
                    constraint=models.UniqueConstraint(
                        fields=("version", "ident"), name="manhole_ident_per_version"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="sewerpipe",
                    constraint=models.UniqueConstraint(
                        fields=("version", "ident"), name="pipe_ident_per_version"
                    ),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
