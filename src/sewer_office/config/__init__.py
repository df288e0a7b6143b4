"""Project configuration: settings, URLs and the WSGI entry point."""
