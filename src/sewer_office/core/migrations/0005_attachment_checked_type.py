"""Attachments keep the sender's file name as data and the type their content was checked to be
(the stored name is generated, its extension chosen from that type)."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("core", "0004_letters")]

    operations = [
        migrations.AddField(
            model_name="attachment",
            name="original_name",
            field=models.CharField(blank=True, default="", max_length=255),
        ),
        migrations.AddField(
            model_name="attachment",
            name="media_type",
            field=models.CharField(blank=True, default="", max_length=100),
        ),
    ]
