"""Rules of one jurisdiction's own law, where it says what no other bundled law says.

Shared rules (the clocks of a ladder, the parameters' dates, the federal program) serve every
jurisdiction; a provision only one town has gets a module here, named after the town, and the
town's registry names its function (``implemented_by``). A rule here reads its numbers from
the town's dated parameters like any other, and its legal cases live in the town's package.
"""
