"""Forms to file each kind of application (validation shared by the pages and the API).

The choices a form offers are narrowed to what the user may see: an outside user picks among
the persons they represent and those persons' properties, buildings and establishments.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth.models import AnonymousUser
from django.http import QueryDict

from sewer_office.accounts.access import visible
from sewer_office.accounts.actors import Actor
from sewer_office.accounts.roles import is_staff_member
from sewer_office.core.forms import DateInput
from sewer_office.registry.models import Building, Establishment, Person, Property
from sewer_office.registry.pickers import use_pickers
from sewer_rules.hostile import JSONRefused, loads_json
from sewer_rules.ordinance.s196_18_building_sewers.design import BuildingSewerDesign
from sewer_rules.ordinance.s196_18_building_sewers.design_fields import DesignError
from sewer_rules.ordinance.s196_18_building_sewers.vocabulary import (
    LIFTS,
    SANITARY_SOURCES,
    SURFACE_OR_GROUNDWATER_SOURCES,
)

from .choices import DischargeKind, InterceptorKind, PermitClass, ServiceUse, SystemType
from .models import IndustrialDischargeApproval

#: Analytes an industrial user declares (canonical names of :mod:`sewer_rules.analytes`).
DECLARED_ANALYTES: tuple[tuple[str, str], ...] = (
    ("bod5", "BOD, 5-day (mg/l)"),
    ("tss", "Total suspended solids (mg/l)"),
    ("oil_grease", "Oil and grease (mg/l)"),
    ("ph", "pH (SU)"),
    ("cyanide_total", "Cyanide, total (mg/l)"),
    ("copper", "Copper (mg/l)"),
    ("chromium", "Chromium (mg/l)"),
    ("zinc", "Zinc (mg/l)"),
    ("nickel", "Nickel (mg/l)"),
    ("lead", "Lead (mg/l)"),
    ("phenols", "Phenols (mg/l)"),
    ("chloride", "Chloride (mg/l)"),
    ("dissolved_solids", "Total dissolved solids (mg/l)"),
)


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (plans, specifications).

    The forms declare it as ``files``, which the stubs read as overriding ``BaseForm.files``
    (hence its ``type: ignore[assignment]``); at run time Django's form metaclass moves a
    declared field into ``base_fields``, and ``form.files`` stays the uploaded files.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        kwargs.setdefault("required", False)
        kwargs.setdefault("allow_empty_file", True)  # refused on filing, naming the file
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data if d]
        return [single(data, initial)] if data else []


class ApplicationForm(forms.Form):
    """Base: the applicant and, for most kinds, the property, narrowed to the user's reach."""

    applicant = forms.ModelChoiceField(queryset=Person.objects.none())
    description = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, user: Actor | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Built without a user (the API's schema reads its fields): narrowed as for no one.
        self.user: Actor = user if user is not None else AnonymousUser()
        user = self.user
        for name, model in (
            ("applicant", Person),
            ("property", Property),
            ("building", Building),
            ("establishment", Establishment),
        ):
            field = self.fields.get(name)
            if isinstance(field, forms.ModelChoiceField):
                field.queryset = visible(model.objects.all(), user)
        narrow_choices(self, user)


def narrow_choices(form: forms.Form, user: Actor) -> None:
    """Staff pick records by search (hundreds of them: name, address, parcel or id; the
    registry pages link here with the id filled in); outside users pick from the few records
    that are theirs, and a choice with only one possible answer comes filled in."""
    if user is None or not is_staff_member(user):
        use_pickers(form, ("person", "property", "building", "establishment"), select=True)
        for name in ("applicant", "property", "building", "establishment"):
            field = form.fields.get(name)
            if isinstance(field, forms.ModelChoiceField):
                only = list(field.queryset[:2]) if field.queryset is not None else []
                if len(only) == 1:
                    form.initial.setdefault(name, only[0].pk)
                    if field.required:
                        field.empty_label = None
        return
    use_pickers(form, ("person", "property", "building", "establishment"))


#: The building sewer form's technical fields in an owner's words (outside users).
OWNER_WORDS: dict[str, tuple[str, str]] = {
    "permit_class": (
        "Class you apply for",
        "Class 1: residential and commercial service; class 2: service to an establishment "
        "producing industrial wastes (§ 196-18 B). The office applies the class the law gives "
        "from the use and wastes you state, and shows it with its fee before you pay.",
    ),
    "service_use": ("What the building is used for", "A home, a shop or office, or an industry."),
    "industrial_wastes": (
        "Industrial wastes",
        "Any wastes from manufacturing, processing or a trade other than toilets, sinks and "
        "kitchens (e.g. plating rinse water): describe them. Leave blank if none.",
    ),
    "diameter": ("Pipe size", "The inside diameter of the new sewer pipe, e.g. 4 in."),
    "slope": ("Pipe slope", "How much the pipe falls per foot, e.g. 1/4 in/ft."),
    "length_ft": ("Pipe length (ft)", "From the house to the Town sewer, if known."),
    "building_drain_elevation_ft": (
        "Height of the house drain where it leaves the building (ft)",
        "From your plumber's or engineer's plans; leave blank if you do not know it.",
    ),
    "basement_floor_elevation_ft": (
        "Height of the basement floor (ft)",
        "From the plans; leave blank if there is no basement or you do not know it.",
    ),
    "public_sewer_elevation_ft": (
        "Height of the Town sewer at the connection (ft)",
        "The Town's engineer can give it to you; leave blank if you do not know it.",
    ),
    "connected_sources": (
        "What will drain into the sewer",
        "Roof, yard, sump and footing drains may not be connected (§ 196-18 F).",
    ),
    "lift": ("Pump", "Only if the sewage must be pumped up to the Town sewer (§ 196-18 H)."),
    "files": ("Plans", "Your plans and specifications (PDF or pictures)."),
}


#: The longest design (JSON text) the filing form takes: a design of a hundred buildings.
DESIGN_JSON_LIMIT = 50_000


class BuildingSewerForm(ApplicationForm):
    property = forms.ModelChoiceField(queryset=Property.objects.none())
    building = forms.ModelChoiceField(queryset=Building.objects.none(), required=False)
    permit_class = forms.TypedChoiceField(
        choices=PermitClass.choices, coerce=int, label="Class declared"
    )
    service_use = forms.ChoiceField(
        label="Use",
        required=False,
        choices=[("", "—"), *ServiceUse.choices],
        help_text="§ 196-18 B: the class follows the use and the wastes",
    )
    industrial_wastes = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="the industrial wastes the establishment will discharge (blank: none)",
    )
    reuses_old_sewer = forms.BooleanField(
        required=False, label="Reuses an old building sewer (§ 196-18 E)"
    )
    diameter = forms.CharField(initial="4 in", help_text="e.g. 4 in, 6 inches")
    slope = forms.CharField(initial="1/4 in/ft", help_text="e.g. 1/4 in/ft, 2 %")
    material = forms.CharField(required=False, initial="PVC SDR 35")
    length_ft = forms.DecimalField(required=False, label="Length (ft)")
    building_drain_elevation_ft = forms.DecimalField(
        required=False, label="Building drain invert (ft)"
    )
    basement_floor_elevation_ft = forms.DecimalField(required=False, label="Basement floor (ft)")
    public_sewer_elevation_ft = forms.DecimalField(required=False, label="Public sewer invert (ft)")
    connected_sources = forms.MultipleChoiceField(
        required=False, widget=forms.CheckboxSelectMultiple, choices=()
    )
    lift = forms.ChoiceField(required=False, choices=())
    design_json = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="Design (JSON, several buildings)",
        help_text="Optional: a full design in the sewer-use sewer-design format; replaces the fields above.",
    )
    files = MultipleFileField(label="Plans and specifications")  # type: ignore[assignment]  # see MultipleFileField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A design longer than any building's is refused, and not shown back in the form
        # (the page would echo it whole): the error says how long it was.
        self.design_too_long = 0
        raw = self.data.get("design_json") if self.is_bound else None
        if isinstance(raw, str) and len(raw) > DESIGN_JSON_LIMIT:
            self.design_too_long = len(raw)
            # a copy (a QueryDict keeps its lists: connected_sources) without the design
            shown = self.data.copy() if isinstance(self.data, QueryDict) else dict(self.data)
            shown["design_json"] = ""
            self.data = shown

        cast(forms.ChoiceField, self.fields["connected_sources"]).choices = [
            *SANITARY_SOURCES.items(),
            *SURFACE_OR_GROUNDWATER_SOURCES.items(),
        ]
        cast(forms.ChoiceField, self.fields["lift"]).choices = [
            ("", "none (gravity)"),
            *LIFTS.items(),
        ]
        if not is_staff_member(self.user):
            # An owner's words: no JSON, and the pipe heights explained.
            del self.fields["design_json"]
            for name, (label, help_text) in OWNER_WORDS.items():
                self.fields[name].label = label
                self.fields[name].help_text = help_text

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.design_too_long:
            self.add_error(
                "design_json",
                f"a design of {self.design_too_long:,} characters, longer than the "
                f"{DESIGN_JSON_LIMIT:,} a design may have",
            )
            return data
        raw = (data.get("design_json") or "").strip()
        if raw:
            try:
                design = loads_json(raw)
            except JSONRefused as e:
                self.add_error("design_json", f"not valid JSON: {e}")
                return data
        else:
            sewer: dict[str, Any] = {
                "id": "S1",
                "diameter": data.get("diameter"),
                "slope": data.get("slope"),
            }
            if data.get("material"):
                sewer["material"] = data["material"]
            for key in ("length_ft", "public_sewer_elevation_ft"):
                if data.get(key) is not None:
                    sewer[key] = str(data[key])
            building: dict[str, Any] = {"id": "B1", "building_sewer": "S1"}
            for key in ("building_drain_elevation_ft", "basement_floor_elevation_ft"):
                if data.get(key) is not None:
                    building[key] = str(data[key])
            if data.get("connected_sources"):
                building["connected_sources"] = list(data["connected_sources"])
            if data.get("lift"):
                building["lift"] = data["lift"]
            design = {"buildings": [building], "building_sewers": [sewer]}

        try:
            BuildingSewerDesign.from_dict(design)
        except DesignError as e:
            leaf = e.field.rsplit(".", 1)[-1].split("[")[0]
            target = leaf if (leaf in self.fields and not raw) else ("design_json" if raw else None)
            self.add_error(target, f"{e.field}: {e.message}" if raw else e.message)
        data["design"] = design
        return data


class IndustrialForm(ApplicationForm):
    establishment = forms.ModelChoiceField(queryset=Establishment.objects.none())
    discharge_kind = forms.ChoiceField(choices=DischargeKind.choices)
    flow_gpd = forms.DecimalField(required=False, min_value=0, label="Flow (gallons per day)")
    process_flow_gpd = forms.DecimalField(
        required=False,
        min_value=0,
        max_digits=12,
        decimal_places=2,
        label="Process wastewater flow (gallons per day)",
        help_text="of the flow, the wastewater of the industrial process (at most the flow; "
        "40 CFR 403.3(v)(1)(ii))",
    )
    temperature_f = forms.DecimalField(required=False, label="Temperature (°F)")
    categorical_category = forms.CharField(
        required=False, label="Categorical standard (40 CFR part)"
    )
    renews = forms.ModelChoiceField(
        queryset=IndustrialDischargeApproval.objects.none(),
        required=False,
        label="Renews approval",
        help_text="the approval this application renews: apply before it expires "
        "(40 CFR 403.8(f)(1)(iii))",
    )
    files = MultipleFileField(label="Supporting documents")  # type: ignore[assignment]  # see MultipleFileField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["renews"].queryset = visible(  # type: ignore[attr-defined]
            IndustrialDischargeApproval.objects.filter(
                state__in=("approved", "approved_with_conditions")
            ),
            self.user,
        )
        for name, label in DECLARED_ANALYTES:
            self.fields[f"c_{name}"] = forms.DecimalField(required=False, label=label, min_value=0)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["concentrations"] = {
            name: str(data[f"c_{name}"])
            for name, _ in DECLARED_ANALYTES
            if data.get(f"c_{name}") is not None
        }
        return data


class PrivateSystemForm(ApplicationForm):
    property = forms.ModelChoiceField(queryset=Property.objects.none())
    system_type = forms.ChoiceField(choices=SystemType.choices)
    design_flow_gpd = forms.IntegerField(required=False, min_value=1, label="Design flow (gpd)")
    files = MultipleFileField(label="Plans")  # type: ignore[assignment]  # see MultipleFileField


class SubdivisionForm(ApplicationForm):
    property = forms.ModelChoiceField(queryset=Property.objects.none())
    name = forms.CharField(max_length=200, label="Subdivision name")
    lots = forms.IntegerField(min_value=2)
    smallest_lot_acres = forms.DecimalField(min_value=0, decimal_places=3)
    estimated_cost = forms.DecimalField(
        min_value=0, decimal_places=2, label="Estimated cost of sewer construction (USD)"
    )
    files = MultipleFileField(label="Map, plans, profiles and drawings")  # type: ignore[assignment]  # see MultipleFileField


class GrinderForm(ApplicationForm):
    property = forms.ModelChoiceField(queryset=Property.objects.none())
    establishment = forms.ModelChoiceField(queryset=Establishment.objects.none(), required=False)
    make_model = forms.CharField(max_length=120, label="Make and model")
    motor_hp = forms.DecimalField(min_value=0, decimal_places=3, label="Motor rating (hp)")


class InterceptorForm(forms.Form):
    establishment = forms.ModelChoiceField(queryset=Establishment.objects.none())
    kind = forms.ChoiceField(choices=InterceptorKind.choices)
    basis = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, user: Actor | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user: Actor = user if user is not None else AnonymousUser()
        user = self.user
        establishment = cast(forms.ModelChoiceField[Establishment], self.fields["establishment"])
        establishment.queryset = visible(Establishment.objects.all(), user)
        narrow_choices(self, user)


class FlushingForm(ApplicationForm):
    building = forms.ModelChoiceField(queryset=Building.objects.none())
    planned_on = forms.DateField(widget=DateInput)
    water_source = forms.CharField(max_length=120, initial="Town water supply")
    water_unpolluted = forms.BooleanField(
        required=False, label="The flushing water is unpolluted water as defined in § 196-15"
    )
    tri_municipal_notified_on = forms.DateField(widget=DateInput, label="Tri-Municipal notified on")


class AllPermitsForm(forms.Form):
    """The filters of the list of every permit and approval (``/permits/``)."""

    q = forms.CharField(
        required=False,
        label="Search",
        widget=forms.TextInput(attrs={"placeholder": "number, applicant, address"}),
    )
    kind = forms.ChoiceField(required=False, label="Kind")
    open = forms.ChoiceField(
        required=False,
        label="Open or closed",
        choices=(("", "any"), ("true", "open"), ("false", "closed")),
    )
    property = forms.CharField(required=False, label="Property (address or tax parcel)")
    filed_after = forms.DateField(required=False, label="Filed on or after", widget=DateInput)
    filed_before = forms.DateField(required=False, label="Filed on or before", widget=DateInput)

    def __init__(self, *args: Any, kinds: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kind = cast(forms.ChoiceField, self.fields["kind"])
        kind.choices = [("", "every kind"), *kinds]
