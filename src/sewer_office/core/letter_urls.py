"""``/letters/``: the office's letters editor (see :mod:`sewer_office.core.letter_views`)."""

from __future__ import annotations

from django.urls import path

from . import letter_views as views

app_name = "letters"

urlpatterns = [
    path("", views.letter_list, name="list"),
    path("letterhead/", views.letterhead_edit, name="letterhead"),
    path("letterhead/preview.pdf", views.letterhead_preview, name="letterhead-preview"),
    path("<str:key>/", views.letter_detail, name="detail"),
    path("<str:key>/preview.pdf", views.letter_preview, name="preview"),
]
