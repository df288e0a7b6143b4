"""Signed compliance reports (40 CFR 403.12(e), (h), (l); 403.6(a)(2)(ii); CROMERR, 40 CFR 3
Subpart D): assembled from the facility's stored results, signed by an authorized signatory
with a second factor, bound to the SHA-256 of the exact document, kept as a copy of record that
never changes, acknowledged by e-mail, verified on demand, and reviewed by the office."""
