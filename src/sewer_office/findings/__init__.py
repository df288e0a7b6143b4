"""The findings ledger: every app's determinations of the law, stored and reviewed in one place."""
