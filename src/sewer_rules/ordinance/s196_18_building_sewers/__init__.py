"""§ 196-18 Building sewers and connections.

Who may connect to a public sewer and how: the two classes of building sewer permit and their
fees (§ 196-18 B), and the design of a building sewer checked against the article — one
building sewer for every building (D), its size, slope and materials (F), its elevation and
the lifting of wastewater that cannot flow by gravity (G), and what may be connected to it (H).
One module per group of subsections; :mod:`.design` reads the design the checks are run on and
:mod:`.checks` runs every check of a design in the law's order.
"""
