"""The enforcement letters as files: a notice or order as issued, its certificate of service,
and a referral to the Town Attorney or the police (PDF, the document of record)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from sewer_office.accounts.access import visible
from sewer_office.core.decorators import office_view
from sewer_office.core.letters import bytes_response, pdf_response
from sewer_office.enforcement import letters, services
from sewer_office.enforcement.models import Referral

from .listing import visible_notices


@office_view()
def notice_letter(request: HttpRequest, pk: int) -> HttpResponse:
    """The notice (or order) as issued: its document of record, the same bytes before and after
    service, to whoever may see it (an order not yet kept: as it stands)."""
    notice = get_object_or_404(visible_notices(request), pk=pk)
    document, content = letters.notice_document(notice, request.user)
    if document is not None:
        return pdf_response(document)
    return bytes_response(content, letters.kind(letters.kind_of(notice)).filename(notice))


@office_view()
def certificate_letter(request: HttpRequest, pk: int) -> HttpResponse:
    """The certificate of service of a notice, kept when service was complete."""
    notice = get_object_or_404(visible_notices(request), pk=pk)
    document = letters.certificate(notice)
    if document is None:
        raise Http404("No certificate of service: the notice's service is not complete.")
    return pdf_response(document)


@office_view()
def referral_letter(request: HttpRequest, pk: int) -> HttpResponse:
    """The referral to the Town Attorney or the police, as made (staff only: it is the Town's
    communication to its attorney or the police)."""
    if services.is_outside(request.user):
        raise Http404("No such referral.")
    referral = get_object_or_404(
        visible(Referral.objects.select_related("violation"), request.user), pk=pk
    )
    return pdf_response(letters.referral_document(referral))
