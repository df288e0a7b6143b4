"""Federal rules the article works within: 40 CFR 136 (laboratory) and 403 (pretreatment)."""
