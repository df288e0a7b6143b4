"""Permits and approvals of Article VII, each an explicit workflow with an audit trail."""
