"""What the command line and the office both read and draw: files in, pictures out.

Below both of them and above the pure rules: it may import ``sewer_rules`` and third-party
readers and plotting libraries, never Django, ``sewer_office`` or ``sewer_cli``. That way the
command line stays a leaf (nothing imports it) and the office takes its file readers and
monitoring plots from here, not from the command line.
"""
