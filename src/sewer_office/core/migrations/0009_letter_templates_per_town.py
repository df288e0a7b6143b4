"""Each member town keeps its own versions of each letter's wording, as of its letterhead;
the versions already stored are the primary town's."""

from django.conf import settings
from django.db import migrations, models

import sewer_office.accounts.towns


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0008_letterhead_per_town"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="lettertemplate",
            options={"ordering": ("jurisdiction", "kind", "-version")},
        ),
        migrations.RemoveConstraint(
            model_name="lettertemplate",
            name="letter_template_version",
        ),
        migrations.AddField(
            model_name="lettertemplate",
            name="jurisdiction",
            field=models.CharField(default=sewer_office.accounts.towns.primary, max_length=40),
        ),
        migrations.AddConstraint(
            model_name="lettertemplate",
            constraint=models.UniqueConstraint(
                fields=("jurisdiction", "kind", "version"), name="letter_template_town_version"
            ),
        ),
    ]
