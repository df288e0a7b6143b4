"""Each permit and approval keeps its parcel's town (docs/scale.md); those already stored take it
from their parcel."""

from django.conf import settings
from django.db import migrations, models

import sewer_office.accounts.towns
from sewer_office.core.parcel_towns import copy_parcel_towns


class Migration(migrations.Migration):
    dependencies = [
        ("permits", "0006_control_mechanism_terms"),
        ("registry", "0009_establishment_jurisdiction"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="buildingsewerpermit",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="flushingnotice",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="grinderapproval",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="industrialdischargeapproval",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="interceptorrequirement",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="privatedisposalsystem",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.AddField(
            model_name="subdivisionsewer",
            name="jurisdiction",
            field=models.CharField(
                default=sewer_office.accounts.towns.primary,
                editable=False,
                help_text="the member town of the record's parcel, kept with the record",
                max_length=40,
            ),
        ),
        migrations.RunPython(
            copy_parcel_towns(
                "permits",
                {
                    "BuildingSewerPermit": ("property",),
                    "FlushingNotice": ("property",),
                    "GrinderApproval": ("property",),
                    "IndustrialDischargeApproval": ("property",),
                    "InterceptorRequirement": ("property",),
                    "PrivateDisposalSystem": ("property",),
                    "SubdivisionSewer": ("property",),
                },
            ),
            migrations.RunPython.noop,
        ),
        migrations.AddIndex(
            model_name="buildingsewerpermit",
            index=models.Index(fields=["jurisdiction", "state"], name="bsp_town_state"),
        ),
        migrations.AddIndex(
            model_name="buildingsewerpermit",
            index=models.Index(fields=["jurisdiction", "filed_on", "id"], name="bsp_town_filed"),
        ),
        migrations.AddIndex(
            model_name="flushingnotice",
            index=models.Index(fields=["jurisdiction", "state"], name="flushing_town_state"),
        ),
        migrations.AddIndex(
            model_name="flushingnotice",
            index=models.Index(
                fields=["jurisdiction", "filed_on", "id"], name="flushing_town_filed"
            ),
        ),
        migrations.AddIndex(
            model_name="grinderapproval",
            index=models.Index(fields=["jurisdiction", "state"], name="grinder_town_state"),
        ),
        migrations.AddIndex(
            model_name="grinderapproval",
            index=models.Index(
                fields=["jurisdiction", "filed_on", "id"], name="grinder_town_filed"
            ),
        ),
        migrations.AddIndex(
            model_name="industrialdischargeapproval",
            index=models.Index(fields=["jurisdiction", "state"], name="ida_town_state"),
        ),
        migrations.AddIndex(
            model_name="industrialdischargeapproval",
            index=models.Index(fields=["jurisdiction", "filed_on", "id"], name="ida_town_filed"),
        ),
        migrations.AddIndex(
            model_name="interceptorrequirement",
            index=models.Index(fields=["jurisdiction", "state"], name="interceptor_town_state"),
        ),
        migrations.AddIndex(
            model_name="interceptorrequirement",
            index=models.Index(
                fields=["jurisdiction", "filed_on", "id"], name="interceptor_town_filed"
            ),
        ),
        migrations.AddIndex(
            model_name="privatedisposalsystem",
            index=models.Index(fields=["jurisdiction", "state"], name="pds_town_state"),
        ),
        migrations.AddIndex(
            model_name="privatedisposalsystem",
            index=models.Index(fields=["jurisdiction", "filed_on", "id"], name="pds_town_filed"),
        ),
        migrations.AddIndex(
            model_name="subdivisionsewer",
            index=models.Index(fields=["jurisdiction", "state"], name="subdivision_town_state"),
        ),
        migrations.AddIndex(
            model_name="subdivisionsewer",
            index=models.Index(
                fields=["jurisdiction", "filed_on", "id"], name="subdivision_town_filed"
            ),
        ),
    ]
