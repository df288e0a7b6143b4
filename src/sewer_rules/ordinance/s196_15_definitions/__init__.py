"""§ 196-15 Definitions.

"A. Unless the context specifically indicates otherwise, the meaning of terms used in this
article shall be as follows: ..." — the defined terms that decide something (normal sewage,
cooling water, unpolluted water, properly shredded garbage, slug) as rules, one module per
term; the others are read by the rules that use them. Definitions are cited by their term,
e.g. ``§ 196-15 PROPERLY SHREDDED GARBAGE``.
"""
