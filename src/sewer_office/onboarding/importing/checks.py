"""A row's values checked on their own, before the registry is asked anything: control
characters, lengths, required fields, the kind and building use, the state, ZIP code, e-mail
address and telephone number. Every fault is a refusal named by the file's column.

Kept apart from the planner: these checks read the mapping and the row only.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from sewer_office.registry.choices import BuildingUse, EstablishmentKind
from sewer_office.registry.postal import (
    normalize_state,
    normalize_zip,
    validate_state,
    validate_zip,
)
from sewer_rules.hostile import control_character, shorten

from .plan import RowPlan
from .targets import BY_NAME, REQUIRED, TARGETS, USE_WORDS, MappingSpec, word_key

PHONE = re.compile(r"^[0-9()+.\-\s/#xXeEtT:]+$")


def check_row(plan: RowPlan, mapping: MappingSpec) -> None:
    """Check ``plan``'s values, refusing on ``plan.errors``; the row's kind set on
    ``plan.kind``, its state and ZIP code written as the registry keeps them, its facility code
    in capitals, a text holding a control character blanked."""
    v, col = plan.values, mapping.column
    for target in TARGETS:
        text = v.get(target.name, "")
        if (bad := control_character(text)) is not None:
            plan.errors.append((col(target.name), f"holds a control character ({bad})"))
            v[target.name] = ""
            continue
        if target.max_length and len(text) > target.max_length:
            plan.errors.append(
                (
                    col(target.name),
                    f"{target.label}: {len(text)} characters, longer than the "
                    f"{target.max_length} the registry keeps",
                )
            )
    for name in REQUIRED:
        if not v.get(name, ""):
            plan.errors.append((col(name), f"{BY_NAME[name].label}: missing"))
    if word := v.get("kind", ""):
        kind = mapping.kind_of(word)
        if kind is None or kind not in EstablishmentKind.values:
            known = sorted(mapping.kind_values) or ["none yet"]
            plan.errors.append(
                (
                    col("kind"),
                    f"{shorten(word)!r} is not a kind the mapping {mapping.name!r} "
                    f"knows (its words: {', '.join(shorten(k) for k in known)}; or a kind's "
                    "own name such as Restaurant or Industrial user): add it to the mapping",
                )
            )
        else:
            plan.kind = kind
    if (use := v.get("building_use", "")) and word_key(use) not in USE_WORDS:
        plan.errors.append(
            (
                col("building_use"),
                f"{shorten(use)!r} is not a building use (one of: "
                f"{', '.join(str(label) for _v, label in BuildingUse.choices)})",
            )
        )
    for name, check, norm in (
        ("mailing_state", validate_state, normalize_state),
        ("mailing_zip", validate_zip, normalize_zip),
    ):
        if text := v.get(name, ""):
            try:
                check(text)
            except ValidationError as e:
                plan.errors.append((col(name), " ".join(e.messages)))
            else:
                v[name] = norm(text)
    if email := v.get("email", ""):
        try:
            validate_email(email)
        except ValidationError:
            plan.errors.append((col("email"), f"{shorten(email)!r} is not an e-mail address"))
    if phone := v.get("phone", ""):
        digits = re.sub(r"\D", "", phone)
        if not PHONE.match(phone) or not 7 <= len(digits) <= 15:
            plan.errors.append((col("phone"), f"{shorten(phone)!r} is not a telephone number"))
    if code := v.get("facility_code", ""):
        v["facility_code"] = code.upper()
