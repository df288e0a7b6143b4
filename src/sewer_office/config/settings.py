"""Settings of the sewer office.

Two modes, chosen by the environment:

- **laptop** (default): SQLite in ``SEWER_USE_DATA_DIR`` (default ``./var/``), a secret key
  generated once and kept in that directory, hosts limited to this machine. Safe to run on a
  laptop with no configuration.
- **production** (``SEWER_USE_PRODUCTION=1``, set by ``sewer-use serve --production``): DEBUG
  off (``SEWER_USE_DEBUG=1`` is refused, not overridden), secret key and allowed hosts from the
  environment (refused when missing, a key that is the shipped placeholder, short or guessable
  — :mod:`.secret_key` — and hosts ``*``), secure cookies, HTTPS redirect and HSTS, so that
  ``manage.py check --deploy`` passes.

``DATABASE_URL`` selects PostgreSQL (or another SQLite file) in either mode.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from sewer_office.core import audit_keys

from . import api_settings, logging_settings
from .database import parse_database_url, sqlite_database, truthy
from .secret_key import MAKE_ONE, weakness

# Django's generic classes (ModelAdmin[M], ModelChoiceField[M], ...) subscriptable at run time,
# as django-stubs types them (docs/architecture.md, "Typing").
django_stubs_ext.monkeypatch()


def _flag(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    return default if raw is None else truthy(raw)


def _list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


PACKAGE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("SEWER_USE_DATA_DIR") or "var").resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

PRODUCTION = _flag("SEWER_USE_PRODUCTION", False)
if PRODUCTION and _flag("SEWER_USE_DEBUG", False):
    # Refused rather than quietly turned off: whoever set it expects what production must not
    # do (tracebacks and settings in error pages).
    raise ImproperlyConfigured(
        "SEWER_USE_DEBUG is on in production (SEWER_USE_PRODUCTION=1): remove it or set it to 0"
    )
DEBUG = False if PRODUCTION else _flag("SEWER_USE_DEBUG", True)


def _secret_key() -> str:
    key = os.environ.get("SEWER_USE_SECRET_KEY", "")
    # a guessable key forges sessions: config/secret_key.py says what is refused and why
    problem = weakness(key) if key and PRODUCTION else ""
    if problem:
        raise ImproperlyConfigured(
            f"SEWER_USE_SECRET_KEY {problem}: set 50 or more random characters ({MAKE_ONE})"
        )
    if key:
        return key
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SEWER_USE_SECRET_KEY must be set in production (50 or more random characters)"
        )
    # Laptop mode: one random key per data directory, kept beside the database.
    path = DATA_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(64), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


SECRET_KEY = _secret_key()

if PRODUCTION:
    ALLOWED_HOSTS = _list("SEWER_USE_ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("SEWER_USE_ALLOWED_HOSTS must be set in production")
    if "*" in ALLOWED_HOSTS:
        # any Host header accepted: a forged one shapes the links of password-reset e-mails
        raise ImproperlyConfigured(
            "SEWER_USE_ALLOWED_HOSTS is '*' in production: name the office's host name(s)"
        )
else:
    ALLOWED_HOSTS = _list(
        "SEWER_USE_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"]
    )
CSRF_TRUSTED_ORIGINS = _list("SEWER_USE_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Redoc's files, served from our static files (never a CDN)
    # The second factor (docs/sign-in.md): before the office's apps, whose accounts app takes
    # django-otp's device pages out of the back office (resets are audited on its own page).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "sewer_office.core",
    "sewer_office.accounts",
    "sewer_office.mail",
    "sewer_office.findings",
    "sewer_office.registry",
    "sewer_office.network",
    "sewer_office.parcels",
    "sewer_office.onboarding",
    "sewer_office.permits",
    "sewer_office.portal",
    "sewer_office.monitoring",
    "sewer_office.meters",
    "sewer_office.grease",
    "sewer_office.inspections",
    "sewer_office.enforcement",
    "sewer_office.pretreatment",
    "sewer_office.billing",
    "sewer_office.archive",
    "sewer_office.reports",
    "sewer_office.api",
    "sewer_office.demo",
]

MIDDLEWARE = [
    "sewer_office.core.requestlog.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "sewer_office.core.security.ContentSecurityPolicyMiddleware",
    # a control character anywhere in the request: 400 naming the field, before the session
    "sewer_office.core.control_chars.ControlCharacterMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",  # user.is_verified(): the session gave its code
    "sewer_office.accounts.middleware.SecondFactorMiddleware",  # owed a code: only the code
    "django.contrib.messages.middleware.MessageMiddleware",
    "sewer_office.core.sessions.StaffIdleSessionMiddleware",  # staff: a working day idle
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "sewer_office.core.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "sewer_office.config.urls"
WSGI_APPLICATION = "sewer_office.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            # {% url %} with its reversals remembered (core/templatetags/office_links.py)
            "builtins": ["sewer_office.core.templatetags.office_links"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "sewer_office.core.context.office",
            ],
        },
    }
]

_database_url = os.environ.get("DATABASE_URL", "").strip()
DATABASES = {
    "default": (
        # Persistent connections (60 s) under gunicorn; none under Django's development server,
        # whose thread per request would leave each thread's connection open until collected.
        parse_database_url(_database_url, persistent=not DEBUG)
        if _database_url
        else sqlite_database(DATA_DIR / "sewer_office.sqlite3")
    )
}
#: The PostgreSQL role the office runs as, granted its privileges after every ``migrate`` run
#: as the tables' owner (sewer_office.core.db_roles, docs/database-roles.md). Empty: no grants.
SEWER_USE_RUNTIME_ROLE = os.environ.get("SEWER_USE_RUNTIME_ROLE", "").strip()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/New_York"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "static"
MEDIA_ROOT = DATA_DIR / "media"
# Uploaded files are never served directly: downloads go through a view that checks access.
MEDIA_URL = "/media-not-served/"
# Uploads are written whole or not at all (a full disk leaves no partial file): core.storage.
STORAGES = {
    "default": {"BACKEND": "sewer_office.core.storage.AtomicFileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Larger uploads stream to a private directory of the data directory (core.uploads: removed
# when an upload fails, a killed process's leftovers swept after a day); stored files and
# their directories are the service's alone.
FILE_UPLOAD_TEMP_DIR = str(DATA_DIR / "tmp")
(DATA_DIR / "tmp").mkdir(mode=0o700, exist_ok=True)
(DATA_DIR / "tmp").chmod(0o700)
FILE_UPLOAD_PERMISSIONS = 0o600
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700
DATA_UPLOAD_MAX_MEMORY_SIZE = 20 * 1024 * 1024
SEWER_USE_MAX_UPLOAD_BYTES = int(os.environ.get("SEWER_USE_MAX_UPLOAD_BYTES", 20 * 1024 * 1024))
# A county's parcel roll is the one large file the clerk uploads (100,000 parcels: 11 MB as a
# zipped Shapefile, 70-90 MB as GeoJSON); it is streamed to the private temporary directory,
# never held in memory, so it has its own cap (docs/parcels.md).
SEWER_USE_MAX_ROLL_UPLOAD_BYTES = int(
    os.environ.get("SEWER_USE_MAX_ROLL_UPLOAD_BYTES", 256 * 1024 * 1024)
)
# Without a front web server serving /static/ (deploy/nginx.conf does), the office serves its
# collected static files itself, through WhiteNoise (compressed, cached).
SEWER_USE_SERVE_STATIC = _flag("SEWER_USE_SERVE_STATIC", True)
if SEWER_USE_SERVE_STATIC and not DEBUG:
    MIDDLEWARE.insert(2, "whitenoise.middleware.WhiteNoiseMiddleware")
#: /readyz answers 503 when the uploads' disk has no more free space than this (default 1 GiB).
SEWER_USE_MIN_FREE_BYTES = int(os.environ.get("SEWER_USE_MIN_FREE_BYTES", str(1 << 30)))

#: Which parameter file the rules read: ``wappinger`` (amounts not configured) or ``demo``.
SEWER_USE_JURISDICTION = os.environ.get("SEWER_USE_JURISDICTION", "wappinger")
#: The member towns one installation serves (comma-separated law packages, e.g.
#: ``wappinger,town-of-poughkeepsie``); ``SEWER_USE_JURISDICTION`` is always one of them, the
#: one a record belongs to when nothing says otherwise. With more than one, a staff member sees
#: the towns they are granted (sewer_office.accounts.jurisdictions).
SEWER_USE_JURISDICTIONS = [
    j.strip() for j in os.environ.get("SEWER_USE_JURISDICTIONS", "").split(",") if j.strip()
]
#: The office's reading of "immediately" (§ 196-19 D(9)(d)): hours after a slug's start within
#: which the user's report counts as immediate. Local policy, not a number of the law.
SEWER_USE_SLUG_REPORT_HOURS = int(os.environ.get("SEWER_USE_SLUG_REPORT_HOURS", "24"))
#: The network map's background: a tile URL template ({z}/{x}/{y}, e.g. a town's own tile
#: server) and its attribution. Empty (the default): the map draws the network on a plain
#: background, and the office fetches nothing from outside.
SEWER_USE_MAP_TILE_URL = os.environ.get("SEWER_USE_MAP_TILE_URL", "")
SEWER_USE_MAP_TILE_ATTRIBUTION = os.environ.get("SEWER_USE_MAP_TILE_ATTRIBUTION", "")
#: Replaces the office's Content-Security-Policy (sewer_office.core.security) when set.
SEWER_USE_CONTENT_SECURITY_POLICY = os.environ.get("SEWER_USE_CONTENT_SECURITY_POLICY", "")

# E-mail (sewer_office.mail): SMTP in production, from the environment; on a laptop each
# message is written as a file under var/mail/ (EMAIL_BACKEND=...console.EmailBackend prints
# them instead). Every message, whatever the backend, is recorded in the message log.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.filebased.EmailBackend"
)
EMAIL_FILE_PATH = str(DATA_DIR / "mail")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _flag("EMAIL_USE_TLS", False)
#: Seconds before an unanswering SMTP server counts as a failed send (recorded, retried next run).
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "30"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Sewer office <sewer-office@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# The API's (Django REST framework's and its OpenAPI schema's): :mod:`.api_settings`.
REST_FRAMEWORK = api_settings.REST_FRAMEWORK
SPECTACULAR_SETTINGS = api_settings.SPECTACULAR_SETTINGS

# Sign-in pause (sewer_office.accounts.throttle): failures of one name, or from one address,
# within the window before further attempts wait for the window to pass.
AUTHENTICATION_BACKENDS = ["sewer_office.accounts.backends.ThrottledModelBackend"]
SEWER_USE_SIGNIN_FAILURES = int(os.environ.get("SEWER_USE_SIGNIN_FAILURES", "5"))
SEWER_USE_SIGNIN_ADDRESS_FAILURES = int(os.environ.get("SEWER_USE_SIGNIN_ADDRESS_FAILURES", "30"))
SEWER_USE_SIGNIN_PAUSE_MINUTES = int(os.environ.get("SEWER_USE_SIGNIN_PAUSE_MINUTES", "15"))
# Across addresses a name is slowed, never locked: after this many failures within the window,
# from any addresses, an unrecognised device tries it at most once every SLOW_SECONDS.
SEWER_USE_SIGNIN_SLOW_AFTER = int(os.environ.get("SEWER_USE_SIGNIN_SLOW_AFTER", "10"))
SEWER_USE_SIGNIN_SLOW_SECONDS = int(os.environ.get("SEWER_USE_SIGNIN_SLOW_SECONDS", "5"))
#: How long a browser stays a known device of an account after it signed in (its cookie).
SEWER_USE_KNOWN_DEVICE_DAYS = int(os.environ.get("SEWER_USE_KNOWN_DEVICE_DAYS", "180"))
# Second factor (sewer_office.accounts.second_factor): "required" for these roles (and every
# superuser) in production; "offered" on a laptop, so the demo's logins need no authenticator.
SEWER_USE_SECOND_FACTOR = (
    os.environ.get("SEWER_USE_SECOND_FACTOR", "required" if PRODUCTION else "offered")
    .strip()
    .lower()
)
if SEWER_USE_SECOND_FACTOR not in ("required", "offered"):
    raise ImproperlyConfigured(
        f"SEWER_USE_SECOND_FACTOR={SEWER_USE_SECOND_FACTOR[:20]!r}: 'required' or 'offered'"
    )
SEWER_USE_SECOND_FACTOR_ROLES = _list(
    "SEWER_USE_SECOND_FACTOR_ROLES", ["superintendent", "engineer", "clerk"]
)
OTP_TOTP_ISSUER = os.environ.get("SEWER_USE_OTP_ISSUER", "Sewer office")
# Portal registration (sewer_office.accounts.registration_limits): per client address, and
# messages per e-mail address, within the window.
SEWER_USE_REGISTRATIONS_PER_ADDRESS = int(
    os.environ.get("SEWER_USE_REGISTRATIONS_PER_ADDRESS", "5")
)
SEWER_USE_REGISTRATION_MAILS_PER_RECIPIENT = int(
    os.environ.get("SEWER_USE_REGISTRATION_MAILS_PER_RECIPIENT", "3")
)
SEWER_USE_REGISTRATION_WINDOW_MINUTES = int(
    os.environ.get("SEWER_USE_REGISTRATION_WINDOW_MINUTES", "60")
)
SEWER_USE_BEHIND_PROXY = _flag("SEWER_USE_BEHIND_PROXY", False)

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
#: Office policy, in effect since 2026-12-06: a staff session ends after this many hours
#: without a request (sewer_office.core.sessions); outside users keep SESSION_COOKIE_AGE.
SEWER_USE_STAFF_SESSION_IDLE_HOURS = float(
    os.environ.get("SEWER_USE_STAFF_SESSION_IDLE_HOURS", "10")
)
SESSION_COOKIE_AGE = 14 * 24 * 60 * 60  # Django's two weeks, written out: outside users
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

if PRODUCTION:
    SESSION_COOKIE_SECURE = _flag("SEWER_USE_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = _flag("SEWER_USE_SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = _flag("SEWER_USE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SEWER_USE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _flag("SEWER_USE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = _flag("SEWER_USE_HSTS_PRELOAD", True)
    if SEWER_USE_BEHIND_PROXY:
        # A TLS-terminating proxy in front: trust its scheme header.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # /healthz and /readyz are probed over plain HTTP by load balancers and orchestrators.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]

# Logs: JSON lines on standard error, or plain text (:mod:`.logging_settings`).
LOGGING = logging_settings.logging_config(PRODUCTION)

# The audit chain's keys and anchors (docs/audit-chain.md): new audit events are signed with an
# HMAC key the database does not hold (a key file, or the environment; generated once in the
# data directory on a laptop, refused when missing or short in production), and the chain's
# head is written outside the database (anchor files, the log, e-mail to the Superintendent).
try:
    SEWER_USE_AUDIT_KEYS = audit_keys.load(
        key_file=os.environ.get(audit_keys.FILE_VARIABLE, ""),
        env_key=os.environ.get(audit_keys.ENV_VARIABLE, ""),
        data_dir=DATA_DIR,
        production=PRODUCTION,
    )
except audit_keys.AuditKeyError as e:
    raise ImproperlyConfigured(str(e)) from None
SEWER_USE_AUDIT_ANCHOR_DIR = Path(
    os.environ.get("SEWER_USE_AUDIT_ANCHOR_DIR") or DATA_DIR / "audit-anchors"
).resolve()
