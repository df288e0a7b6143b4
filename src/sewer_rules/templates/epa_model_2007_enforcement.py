"""EPA's Model Pretreatment Ordinance (EPA 833-B-06-002, January 2007): Sections 10 to 15.

How the model enforces itself: the administrative remedies of Section 10 (the steps of the
ladder in :mod:`.epa_model_2007`), the judicial remedies and supplemental actions, the
affirmative defenses, and the closing provisions. As in :mod:`.epa_model_2007_duties`, each
heading is the model's and each line is ours; the bracketed numbers are said to be so.
"""

from __future__ import annotations

from . import ModelSection

_ROWS: tuple[tuple[str, str, str], ...] = (
    (
        "Section 10",
        "Administrative Enforcement Remedies",
        "The steps the Superintendent may take without going to court.",
    ),
    (
        "Section 10.1",
        "Notification of Violation",
        "A written notice of violation; within a number of days of receiving it, left in "
        "brackets, the user explains the violation and plans its correction and prevention.",
    ),
    (
        "Section 10.2",
        "Consent Orders",
        "An agreement with the user setting what it will do, and by when, to comply; as binding "
        "as an order.",
    ),
    (
        "Section 10.3",
        "Show Cause Hearing",
        "An order to appear and show why a proposed enforcement action should not be taken, "
        "served a bracketed number of days before the hearing.",
    ),
    (
        "Section 10.4",
        "Compliance Orders",
        "An order to comply within a stated time; sewer service may be discontinued if the "
        "user does not.",
    ),
    (
        "Section 10.5",
        "Cease and Desist Orders",
        "An order to stop a violation at once and take the remedial action it needs, up to "
        "halting operations.",
    ),
    (
        "Section 10.6",
        "Administrative Fines",
        "A fine for each violation on each day, up to an amount in brackets; a user disputing it "
        "asks the Superintendent to reconsider, within bracketed days and paying it in full.",
    ),
    (
        "Section 10.7",
        "Emergency Suspensions",
        "Immediate suspension of a discharge that threatens health, the environment or the "
        "works; the connection may be severed if the user does not stop.",
    ),
    (
        "Section 10.8",
        "Termination of Discharge",
        "Ending a user's discharge on the grounds listed, after notice and a chance to show cause.",
    ),
    ("Section 11", "Judicial Enforcement Remedies", "What the town may ask of a court."),
    ("Section 11.1", "Injunctive Relief", "A court order to stop a violation or to comply."),
    (
        "Section 11.2",
        "Civil Penalties",
        "A civil penalty for each violation on each day, in an amount the town fills in, with "
        "the town's costs.",
    ),
    (
        "Section 11.3",
        "Criminal Prosecution",
        "Wilful or negligent violations, and false statements, prosecuted with the fines and "
        "terms the town fills in.",
    ),
    (
        "Section 11.4",
        "Remedies Nonexclusive",
        "The remedies may be used together and in any order; the enforcement response plan "
        "guides the choice.",
    ),
    (
        "Section 12",
        "Supplemental Enforcement Action",
        "Further means of bringing a user into compliance.",
    ),
    (
        "Section 12.1",
        "Penalties for Late Reports",
        "A penalty for each day a report is late, in an amount the town fills in.",
    ),
    (
        "Section 12.2",
        "Performance Bonds",
        "A permit may be withheld from a past violator until it posts a bond.",
    ),
    (
        "Section 12.3",
        "Liability Insurance",
        "A permit may be withheld from a past violator until it shows it can pay for damage to "
        "the works.",
    ),
    (
        "Section 12.4",
        "Payment of Outstanding Fees and Penalties",
        "A permit may be withheld until the user pays the fees, fines and penalties it owes.",
    ),
    (
        "Section 12.5",
        "Water Supply Severance",
        "A violator's water service may be cut off, and restored only once it complies.",
    ),
    (
        "Section 12.6",
        "Public Nuisances",
        "A violation may be declared a public nuisance and abated at the user's cost.",
    ),
    (
        "Section 12.7",
        "Informant Rewards",
        "A reward, in an amount the town fills in, for information that reveals a violation.",
    ),
    (
        "Section 12.8",
        "Contractor Listing",
        "Users out of compliance may be kept from the town's contracts.",
    ),
    (
        "Section 13",
        "Affirmative Defenses to Discharge Violations",
        "Defenses a user may prove against a charge of breaking a discharge standard.",
    ),
    (
        "Section 13.1",
        "Upset",
        "An exceptional, unintended and temporary failure beyond the user's reasonable control, "
        "proved by records and reported promptly, excuses a breach of a categorical limit.",
    ),
    (
        "Section 13.2",
        "Prohibited Discharge Standards",
        "A user that did not know, and had no reason to know, its discharge would cause pass "
        "through or interference has a defense to some of the prohibitions.",
    ),
    (
        "Section 13.3",
        "Bypass",
        "Diverting waste around treatment is forbidden unless it is unavoidable to prevent loss "
        "of life, injury or severe damage and is reported; routine bypass within limits is "
        "allowed.",
    ),
    (
        "Section 14",
        "Miscellaneous Provisions",
        "Charges for the program and the ordinance's severability.",
    ),
    (
        "Section 14.1",
        "Pretreatment Charges and Fees",
        "The town may charge fees to recover the cost of its pretreatment program.",
    ),
    (
        "Section 14.2",
        "Severability",
        "A provision held invalid leaves the rest of the ordinance in force.",
    ),
    (
        "Section 15",
        "Effective Date",
        "When the ordinance takes effect after its adoption and publication.",
    ),
)

#: Sections 10 to 15 and their subsections, in the model's order.
ENFORCEMENT: tuple[ModelSection, ...] = tuple(ModelSection(c, h, s) for c, h, s in _ROWS)
