"""The parcels pages, one module per family: the imports and their upload → preview → apply
(:mod:`.imports`), a review's decision (:mod:`.review`), and the map of parcels and districts
(:mod:`.map_pages`). The URLs (``parcels/urls.py``) import each module; nothing is re-exported
here."""
