"""Enforcement pages, one module per concept: the list (:mod:`.listing`), one violation
(:mod:`.violation`), opening one (:mod:`.opening`), the letters as files (:mod:`.documents`),
compliance schedules (:mod:`.schedules`) and the response plan (:mod:`.plan`). The URLs
(``enforcement/urls.py``) import each module; nothing is re-exported here."""
