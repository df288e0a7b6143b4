"""The ``sewer-use`` command line: one entry point for the rules and (later) the office."""
