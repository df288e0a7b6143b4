"""sewer_office — the office that administers the sewer-use law: a Django project.

It stores the town's records, runs the permit and approval workflows the article creates,
and serves people (server-rendered pages) and programs (a REST API). Every rule is computed
by :mod:`sewer_rules`; this package only records facts, decisions and their audit trail.
"""
