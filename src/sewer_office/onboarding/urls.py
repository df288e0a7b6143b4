from __future__ import annotations

from django.urls import URLPattern, URLResolver, path, register_converter

from . import mapping_views, review_views, views


class Digest:
    """A SHA-256 digest in a URL: 64 lower-case hexadecimal digits, nothing else."""

    regex = "[0-9a-f]{64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(Digest, "upload_sha256")

app_name = "onboarding"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="index"),
    path("import/", views.upload, name="upload"),
    path("import/<upload_sha256:digest>/mapping/", views.mapping_choose, name="mapping-choose"),
    path("import/<upload_sha256:digest>/preview/", views.preview, name="preview"),
    path("import/<upload_sha256:digest>/apply/", views.apply, name="apply"),
    path("imports/<int:pk>/", views.import_detail, name="import-detail"),
    path("review/", review_views.review_list, name="review"),
    path("review/<int:pk>/", review_views.review_item, name="review-item"),
    path("review/<int:pk>/resolve/", review_views.review_resolve, name="review-resolve"),
    path("review/<int:pk>/dismiss/", review_views.review_dismiss, name="review-dismiss"),
    path("mappings/", mapping_views.mapping_list, name="mappings"),
    path("mappings/<int:pk>/", mapping_views.mapping_edit, name="mapping-edit"),
    path("mappings/<int:pk>/delete/", mapping_views.mapping_delete, name="mapping-delete"),
]
