"""Billing: charges from every source of the article, billing runs, invoices, payments,
statements. Money where the article meets the Town's books: fees set by Town Board
resolution (those the article names, § 196-18 B and § 196-23 C, D, and others the Town Board
sets on its own), the extra-strength surcharge (§ 196-19 E(1)(d), J) and the Town's costs
recovered from a violator (§ 196-22 C)."""
