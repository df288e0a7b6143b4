"""The demo town: a plausible, deterministic town to try the office with (``sewer-use demo``).

Everything is created through the same services people use — fees from the ``demo``
jurisdiction's example amounts, every transition by a user holding the role the law names,
back-dated so that the records have histories. Names, parcels and acts are invented.

An installed app of its own (for its ``load_demo`` command), at the top of the office: it
builds through every app's services and nothing imports it. The package itself imports
nothing, so that Django can load the app before the models: build with
:func:`sewer_office.demo.build.build_demo_town`.
"""
