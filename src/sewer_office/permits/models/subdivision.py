"""Subdivision sewer construction (§ 196-16 G; § 196-23)."""

from __future__ import annotations

from django.db import models

from sewer_office.permits.choices import Provision

from .base import Application, filed_order_index, town_indexes


class SubdivisionSewer(Application):
    name = models.CharField("subdivision name", max_length=200)
    lots = models.PositiveIntegerField()
    smallest_lot_acres = models.DecimalField(max_digits=8, decimal_places=3)
    estimated_cost = models.DecimalField(
        "estimated cost of sewer construction (USD)", max_digits=12, decimal_places=2
    )
    provision = models.CharField(max_length=20, choices=Provision.choices)
    fee_amount = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    fee_rate = models.DecimalField(max_digits=8, decimal_places=5, null=True, blank=True)
    fee_effective = models.DateField(null=True, blank=True)
    fee_authority = models.CharField(max_length=200, blank=True)
    fee_paid_on = models.DateField(null=True, blank=True)
    fee_receipt = models.CharField(max_length=40, blank=True)
    health_approval_ref = models.CharField(max_length=60, blank=True)
    health_approved_on = models.DateField(null=True, blank=True)
    plans_approved_on = models.DateField(null=True, blank=True)
    filed_with_planning_board_on = models.DateField(null=True, blank=True)

    NUMBER_PREFIX = "SUB"
    KIND_SLUG = "subdivision"
    CITATION = "§ 196-23"

    class Meta(Application.Meta):
        verbose_name = "subdivision sewer"
        indexes = (filed_order_index("subdivision"), *town_indexes("subdivision"))
