"""How a spreadsheet's row finds its parcel and its operator in the registry.

**The parcel.** By the SBL or tax map number when the row gives one: compared with each
property's SBL, its SBL preceded by its SWIS code, and its tax parcel id (the roll's print
key), all without spaces, dashes, dots or slashes and without regard to case
(``6158-02-103848`` is ``6158 02 103848`` is ``615802103848``). Else by the street address,
compared word by word after :func:`address_key`: case and punctuation dropped, the usual
abbreviations made one word (``Road`` and ``Rd``, ``Street`` and ``St``, ``Route`` and
``Rte``…), a unit (``Suite 2``, ``Unit B``, ``#4``) dropped. Exactly one property, or the row is
unmatched with the reason (none, or "2 parcels at that address"). A given SBL that names no
parcel leaves the row unmatched even when its address would match: the two disagree, and the
clerk decides.

**The operator.** A person with the same name (compared by the registry's
:func:`~sewer_office.registry.names.normalized`: case, accents, punctuation and company-form
words such as "Inc." or "Corp." aside) and the same mailing address (its delivery line by
:func:`address_key` and its five-digit ZIP code) is the operator; a person merged into another
stands for the survivor (:meth:`~sewer_office.registry.models.Person.current`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field

from sewer_office.registry.models import Person, Property
from sewer_office.registry.names import normalized

#: Words written two ways on the same street: every spelling → one.
ABBREVIATIONS: dict[str, str] = {
    "road": "rd",
    "street": "st",
    "str": "st",
    "route": "rte",
    "rt": "rte",
    "avenue": "ave",
    "av": "ave",
    "lane": "ln",
    "drive": "dr",
    "boulevard": "blvd",
    "court": "ct",
    "place": "pl",
    "highway": "hwy",
    "turnpike": "tpke",
    "tpk": "tpke",
    "parkway": "pkwy",
    "pky": "pkwy",
    "circle": "cir",
    "terrace": "ter",
    "square": "sq",
    "extension": "ext",
    "heights": "hts",
    "mount": "mt",
    "saint": "st",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
}
#: Words that begin a unit within a building: they and what follows are not the parcel's.
UNIT_WORDS = frozenset(
    {"suite", "ste", "unit", "apt", "apartment", "bldg", "building", "fl", "floor", "rm", "room"}
)

_NOT_KEY = re.compile(r"[\s\-./]+")


def sbl_key(text: str) -> str:
    """A tax map number or SBL as compared: upper case, no spaces, dashes, dots or slashes."""
    return _NOT_KEY.sub("", text or "").upper()


def address_key(text: str) -> str:
    """A street line as compared (see the module): ``"1000 Route 9, Suite 2"`` and
    ``"1000 RTE. 9"`` both give ``"1000 rte 9"``."""
    plain = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode().lower()
    plain = plain.split("#", 1)[0]  # "#4": a unit
    words: list[str] = []
    for word in re.sub(r"[^a-z0-9]+", " ", plain).split():
        if word in UNIT_WORDS:
            break
        words.append(ABBREVIATIONS.get(word, word))
    return " ".join(words)


def zip5(text: str) -> str:
    digits = re.sub(r"\D", "", text or "")
    return digits[:5]


def mailing_key(street: str, zip_code: str) -> str:
    """A mailing address as compared: its delivery line (the last street line, after a
    care-of or attention line) and its five-digit ZIP code; "" when no street is given."""
    lines = [ln for ln in (street or "").replace("\r", "").split("\n") if ln.strip()]
    if not lines:
        return ""
    return f"{address_key(lines[-1])}|{zip5(zip_code)}"


@dataclass(frozen=True)
class ParcelMatch:
    """The property found for a row, or why none was."""

    property_id: int | None
    reason: str = ""
    note: str = ""
    by: str = ""


@dataclass
class ParcelIndex:
    """Every property by its keys (SBL, SWIS + SBL, parcel id; address), read once."""

    by_sbl: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    by_address: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    labels: dict[int, str] = field(default_factory=dict)

    @classmethod
    def load(cls) -> ParcelIndex:
        index = cls()
        rows = Property.objects.values_list("id", "parcel_id", "sbl", "swis", "address")
        for pk, parcel_id, sbl, swis, address in rows.iterator(chunk_size=2000):
            for key in {sbl_key(parcel_id), sbl_key(sbl), sbl_key(swis + sbl) if sbl else ""}:
                if key:
                    index.by_sbl[key].add(pk)
            if (akey := address_key(address)) != "":
                index.by_address[akey].add(pk)
            index.labels[pk] = f"{address} (parcel {parcel_id})"
        return index

    def find(self, sbl: str, address: str) -> ParcelMatch:
        """The one property the row's SBL (else its address) names (see the module)."""
        if sbl.strip():
            found = sorted(self.by_sbl.get(sbl_key(sbl), ()))
            if len(found) == 1:
                note = ""
                akey = address_key(address)
                if akey and found[0] not in self.by_address.get(akey, ()):
                    note = f"the address {address!r} is not the parcel's: {self.labels[found[0]]}"
                return ParcelMatch(found[0], note=note, by="SBL")
            if found:
                return ParcelMatch(None, f"{len(found)} parcels with the SBL {sbl!r}")
            reason = f"no parcel with the SBL or tax map number {sbl!r}"
            by_address = sorted(self.by_address.get(address_key(address), ()))
            if len(by_address) == 1:
                reason += f" (the address would be {self.labels[by_address[0]]})"
            return ParcelMatch(None, reason)
        if not address.strip():
            return ParcelMatch(None, "neither an SBL nor an address to find the parcel by")
        key = address_key(address)
        found = sorted(self.by_address.get(key, ())) if key else []
        if len(found) == 1:
            return ParcelMatch(found[0], by="address")
        if found:
            return ParcelMatch(None, f"{len(found)} parcels at that address ({address!r})")
        return ParcelMatch(None, f"no parcel at {address!r}")


@dataclass
class PersonIndex:
    """Every person by normalised name, a merged duplicate standing for its survivor; each
    survivor with the mailing addresses recorded on it or on its duplicates."""

    by_name: dict[str, set[int]] = field(default_factory=lambda: defaultdict(set))
    mailings: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    #: survivors with any part of a mailing address recorded (on them or a duplicate)
    with_mailing: set[int] = field(default_factory=set)
    #: a merged person → the survivor it stands for (at the end of the chain)
    survivor: dict[int, int] = field(default_factory=dict)

    @classmethod
    def load(cls) -> PersonIndex:
        index = cls()
        rows = list(
            Person.objects.values_list(
                "id", "name", "merged_into_id", "mail_street", "mail_city", "mail_state", "mail_zip"
            )
        )
        merged = {pk: into for pk, _n, into, *_rest in rows if into is not None}
        for pk, name, _into, street, city, state, zip_code in rows:
            current, seen = pk, {pk}
            while current in merged and merged[current] not in seen:
                current = merged[current]
                seen.add(current)
            if pk in merged:
                index.survivor[pk] = current
            if key := normalized(name):
                index.by_name[key].add(current)
            if any((p or "").strip() for p in (street, city, state, zip_code)):
                index.with_mailing.add(current)
            if mail := mailing_key(street, zip_code):
                index.mailings[current].add(mail)
        return index

    def candidates(self, name: str) -> set[int]:
        """The survivors named ``name`` (normalised)."""
        return set(self.by_name.get(normalized(name), ()))
