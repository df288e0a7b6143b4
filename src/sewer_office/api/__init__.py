"""The REST API: DRF viewsets over the same services and access rules as the pages."""
