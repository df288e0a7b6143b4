"""Registering, verifying an e-mail address, and linking an account to a person.

1. :func:`register` creates an outside account (role *applicant*), **inactive** until its
   e-mail address is verified, and sends the verification link (:func:`send_verification`).
   Whether a name or an address is already an account's is never said to whoever asks: the
   answer is the same, and the message to the address given says why no account was made.
2. :func:`verify` activates the account from the signed link (valid
   ``SEWER_USE_VERIFY_HOURS``, 48 by default).
3. :func:`request_link`: the account asks to act for a person, with a document (PDF or an
   image, checked by its bytes). Until staff confirm, it sees nothing of anyone's records
   (:mod:`sewer_office.accounts.access`: an account that represents no person sees none).
4. :func:`confirm` (the clerk or the Superintendent) records the identity check — who, when,
   against what document — once, and makes the account a representative of the person
   (``Person.representatives``): from then on it sees that person's records and only those.
   :func:`refuse` says why; :func:`end_link` ends a link (the account loses that access).
Every step writes its audit event in its transaction.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.hashers import make_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from sewer_office.accounts import registration_limits
from sewer_office.accounts.actors import Actor, signed_in
from sewer_office.accounts.roles import APPLICANT, CLERK, SUPERINTENDENT, forget_roles, has_role
from sewer_office.accounts.services import create_user
from sewer_office.core import audit
from sewer_office.core.attachments import DOCUMENT_KINDS, attach
from sewer_office.core.errors import Blocked, Forbidden, InvalidInput
from sewer_office.core.storage import files_of_transaction
from sewer_office.mail.choices import Topic
from sewer_office.mail.services import send_message
from sewer_office.registry.models import Person

from .choices import DocumentKind, LinkState, Relation
from .models import IdentityCheck, LinkRequest, Registration

SALT = "sewer_office.portal.verify"
#: Who checks identities and links accounts to persons.
LINKERS = (CLERK, SUPERINTENDENT)


def verify_hours() -> int:
    return int(getattr(settings, "SEWER_USE_VERIFY_HOURS", 48))


def may_link(user: Actor) -> bool:
    return has_role(user, *LINKERS)


def _require_linker(user: Actor) -> None:
    if not may_link(user):
        raise Forbidden("Accounts are linked to persons by the Town Clerk or the Superintendent.")


def register(
    *,
    username: str,
    email: str,
    password: str,
    name: str,
    verify_url: str,
    register_url: str = "",
    address: str = "",
) -> Registration | None:
    """Create an inactive outside account and send its verification link — or say by e-mail,
    to the address given, why none was created.

    Whoever asks sees the same answer whether the user name or the e-mail address is taken or
    free: no error names them, the password is hashed in every case (the same work, the same
    time), and exactly one message goes to the address given — the verification link; "you
    already have an account" when the address is an account's; "that user name is not
    available" when the name is taken — or none at all, in every case alike, once the address
    has had ``SEWER_USE_REGISTRATION_MAILS_PER_RECIPIENT`` messages within the window
    (:mod:`sewer_office.accounts.registration_limits`). Only the owner of the mailbox learns
    which. Returns the registration when an account was created.

    ``verify_url`` is the absolute URL of the verification page with ``{token}`` where the
    token goes; ``register_url`` the registration page's (for "choose another name");
    ``address`` the client's, counted for the per-address limit the page applies."""
    errors: dict[str, list[str]] = {}
    username, email, name = username.strip(), email.strip(), name.strip()
    user_model = get_user_model()
    try:
        validate_email(email)
    except ValidationError:
        errors["email"] = ["Enter a valid e-mail address."]
    if not name:
        errors["name"] = ["Your name, as on your identification."]
    candidate = user_model(username=username, email=email, first_name=name)
    try:
        # the name's form only: whether it is taken is never said here
        candidate.full_clean(exclude=["password"], validate_unique=False)
    except ValidationError as e:
        for field, messages in e.message_dict.items():
            if field in ("username", "email", "first_name"):
                errors.setdefault("name" if field == "first_name" else field, []).extend(messages)
    try:
        password_validation.validate_password(password, candidate)
    except ValidationError as e:
        errors["password"] = list(e.messages)
    if errors:
        raise InvalidInput(errors)
    may_mail = registration_limits.record(address, email)
    existing = user_model.objects.filter(email__iexact=email).first()
    taken = user_model.objects.filter(username__iexact=username).exists()
    if existing is not None or taken or not may_mail:
        make_password(password)  # the work an account's creation does: no timing difference
        if not may_mail:
            return None
        if existing is not None:
            send_message(
                to=email,
                subject="Sewer office: you already have an account",
                body=(
                    f"Someone asked to register {email} with the Town's sewer office. This "
                    f"address already belongs to the account '{existing.get_username()}': sign "
                    "in with it (or reset its password at the counter). If it was not you, "
                    "ignore this message."
                ),
                topic=Topic.EMAIL_VERIFICATION,
                user=existing,
            )
        else:
            send_message(
                to=email,
                subject="Sewer office: your registration",
                body=(
                    f"Someone asked to register the user name '{username}' with this e-mail "
                    "address at the Town's sewer office. No account was created: that user "
                    "name is not available. Register again with another user name"
                    + (f": {register_url}" if register_url else "")
                    + "\n\nIf it was not you, ignore this message."
                ),
                topic=Topic.EMAIL_VERIFICATION,
            )
        return None
    with transaction.atomic():
        user = create_user(username, password, (APPLICANT,), first_name=name, email=email)
        user.is_active = False
        user.save(update_fields=["is_active"])
        forget_roles(user)
        reg = audit.create_recorded(
            Registration,
            {"user": user, "email": email},
            actor=None,
            action="register",
        )
        send_verification(reg, verify_url)
    return reg


def token_for(reg: Registration) -> str:
    return signing.dumps({"u": reg.user_id, "e": reg.email}, salt=SALT)


def send_verification(reg: Registration, verify_url: str) -> None:
    link = verify_url.replace("{token}", token_for(reg))
    send_message(
        to=reg.email,
        subject="Sewer office: confirm your e-mail address",
        body=(
            f"To finish registering '{reg.user.get_username()}' with the Town's sewer office, "
            f"open this link within {verify_hours()} hours:\n\n{link}\n\nThen sign in and ask to "
            "be linked to the property or business you act for. If you did not register, "
            "ignore this message: the account stays unusable."
        ),
        topic=Topic.EMAIL_VERIFICATION,
        user=reg.user,
        about=reg,
    )


def verify(token: str) -> Registration:
    """Activate the account the token names (an expired or altered token is refused)."""
    try:
        data = signing.loads(token, salt=SALT, max_age=verify_hours() * 3600)
    except signing.SignatureExpired:
        raise InvalidInput(
            {"token": ["This link has expired: register again or ask the Town Clerk."]}
        ) from None
    except signing.BadSignature:
        raise InvalidInput({"token": ["This link is not valid."]}) from None
    with transaction.atomic():
        reg = (
            Registration.objects.select_for_update()
            .select_related("user")
            .filter(user_id=data.get("u"), email=data.get("e"))
            .first()
        )
        if reg is None:
            raise InvalidInput({"token": ["This link is not valid."]})
        if reg.verified_at is None:
            before = audit.snapshot(reg)
            reg.verified_at = timezone.now()
            reg.save(update_fields=["verified_at", "updated_at"])
            reg.user.is_active = True
            reg.user.save(update_fields=["is_active"])
            audit.record(
                actor=reg.user,
                action="verify_email",
                obj=reg,
                before=before,
                after=audit.snapshot(reg),
            )
    return reg


def request_link(
    user: Actor, *, relation: str, person_name: str, place: str, note: str, document: Any
) -> LinkRequest:
    """Ask to act for a person, with the document that shows it (stored with the request)."""
    if not has_role(user, APPLICANT):
        raise Forbidden("Staff accounts see every record: they need no link to a person.")
    requester = signed_in(user)
    errors: dict[str, list[str]] = {}
    if relation not in Relation.values:
        errors["relation"] = ["Choose how you are related to the person."]
    if not person_name.strip():
        errors["person_name"] = ["Who do you act for (the owner's or the business's name)?"]
    if not place.strip():
        errors["place"] = ["The property's address or parcel id, or the establishment."]
    if document is None:
        errors["document"] = ["Attach a document that shows your identity and authority."]
    if errors:
        raise InvalidInput(errors)
    pending = LinkRequest.objects.filter(
        user=requester, state=LinkState.PENDING, person_name__iexact=person_name.strip()
    )
    if pending.exists():
        raise Blocked("You already asked to act for this person: the Town is checking it.")
    with files_of_transaction(), transaction.atomic():
        link = audit.create_recorded(
            LinkRequest,
            {
                "user": requester,
                "relation": relation,
                "person_name": person_name.strip(),
                "place": place.strip(),
                "note": note.strip(),
            },
            actor=user,
            action="request_link",
            state_to=LinkState.PENDING,
        )
        attach(link, document, user, title="Identity and authority", kinds=DOCUMENT_KINDS)
    return link


def _decide(link: LinkRequest) -> LinkRequest:
    locked = LinkRequest.objects.select_for_update().get(pk=link.pk)
    if locked.state != LinkState.PENDING:
        raise Blocked(f"This request is already decided ({locked.get_state_display().lower()}).")
    return locked


def confirm(
    actor: Actor,
    link: LinkRequest,
    *,
    person: Person,
    document_kind: str,
    document_reference: str,
    note: str = "",
) -> LinkRequest:
    """Record the identity check and link the account to ``person`` (audited, once)."""
    _require_linker(actor)
    errors: dict[str, list[str]] = {}
    if document_kind not in DocumentKind.values:
        errors["document_kind"] = ["Choose the document you checked."]
    if not document_reference.strip():
        errors["document_reference"] = ["Its number, or what it is (e.g. 'deed liber 1234 p. 5')."]
    if errors:
        raise InvalidInput(errors)
    officer = signed_in(actor)
    with transaction.atomic():
        locked = _decide(link)
        before = audit.snapshot(locked)
        check = IdentityCheck.objects.create(
            link=locked,
            checked_by=officer,
            document_kind=document_kind,
            document_reference=document_reference.strip(),
            note=note.strip(),
        )
        locked.state, locked.person = LinkState.CONFIRMED, person
        locked.decided_by, locked.decided_at = officer, check.checked_at
        locked.save()
        person.representatives.add(locked.user)
        audit.record(
            actor=actor,
            action="confirm_link",
            obj=locked,
            before=before,
            after={
                **audit.snapshot(locked),
                "identity_check": audit.snapshot(check),
            },
            state_from=LinkState.PENDING,
            state_to=LinkState.CONFIRMED,
        )
    return locked


def refuse(actor: Actor, link: LinkRequest, reason: str) -> LinkRequest:
    """Refuse a request, saying why (the requester sees the reason)."""
    _require_linker(actor)
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why, for the requester."]})
    with transaction.atomic():
        locked = _decide(link)
        before = audit.snapshot(locked)
        locked.state, locked.reason = LinkState.REFUSED, reason.strip()
        locked.decided_by, locked.decided_at = signed_in(actor), timezone.now()
        locked.save()
        audit.record(
            actor=actor,
            action="refuse_link",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=locked.reason,
            state_from=LinkState.PENDING,
            state_to=LinkState.REFUSED,
        )
    return locked


def end_link(actor: Actor, link: LinkRequest, reason: str) -> LinkRequest:
    """End a confirmed link: the account no longer acts for the person (staff, or the
    account itself)."""
    if actor != link.user:
        _require_linker(actor)
    if not reason.strip():
        raise InvalidInput({"reason": ["Say why the link ends."]})
    with transaction.atomic():
        locked = LinkRequest.objects.select_for_update().get(pk=link.pk)
        if locked.state != LinkState.CONFIRMED or locked.person is None:
            raise Blocked("Only a confirmed link can be ended.")
        before = audit.snapshot(locked)
        locked.person.representatives.remove(locked.user)
        locked.state, locked.reason = LinkState.ENDED, reason.strip()
        locked.save()
        audit.record(
            actor=actor,
            action="end_link",
            obj=locked,
            before=before,
            after=audit.snapshot(locked),
            reason=locked.reason,
            state_from=LinkState.CONFIRMED,
            state_to=LinkState.ENDED,
        )
    return locked


def is_linked(user: Actor) -> bool:
    return bool(user.is_authenticated and user.represented_persons.exists())
