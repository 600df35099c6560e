"""One settings file for every environment; everything that differs comes from the environment.

Development (no variables set): DEBUG on, SQLite, the in-memory channel layer, one process.
Scaled out: DATABASE_URL (PostgreSQL) and REDIS_URL (channels-redis) switch the backing services.
Production: DJANGO_DEBUG=0, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS; `check --deploy` is clean.
"""

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    # Set but empty (as container files often leave a variable) means unset, for every variable.
    return os.environ.get(name) or default


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

# A fixed key is fine for local play; production must bring its own, and refuses to start without.
_DEV_SECRET_KEY = "dev-only-insecure-kilforth-key-never-use-in-production"
SECRET_KEY = env_str("DJANGO_SECRET_KEY", _DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # daphne first: its runserver serves HTTP and websockets from one process.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "games.tables",
    "games.kilforth",
    "games.knightfall",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A guest's 30 days start again on their latest visit (at most one session save a day).
    "games.tables.middleware.KeepActiveGuests",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Content-Security-Policy on every answer (CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    # A rate-limited request gets games.tables.views.rate_limited (429), not a bare 403.
    "django_ratelimit.middleware.RatelimitMiddleware",
]

# No inline script anywhere (behaviour lives in static/js); inline style attributes are allowed
# (the board places its cells with them). 'self' covers the page's own websocket.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "kilforth_site.urls"
ASGI_APPLICATION = "kilforth_site.asgi.application"
WSGI_APPLICATION = "kilforth_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.tables.context_processors.player",
            ],
        },
    },
    {
        # The Kilforth board's parts, re-rendered for every viewer after every decision
        # (games/kilforth/board/parts.py): Jinja2 renders them several times faster.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja_templates"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "games.kilforth.board.jinja.environment",
            "autoescape": True,
            "keep_trailing_newline": True,
        },
    },
]

# SQLite by default, so that one command starts the whole site; DATABASE_URL for PostgreSQL.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # Connections are kept (10 minutes): Channels runs each socket's database work through
        # database_sync_to_async, which closed and reopened the connection around every call
        # when they were not (a new SQLite or PostgreSQL connection per decision, per socket
        # render, per presence change: 7-10% of a busy server's CPU, docs/benchmarks.md). The
        # health check makes a connection that broke meanwhile (a database restart) reopen
        # instead of failing the next request. 0: a connection per request, as before.
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 600),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The same backend, whose health check sends nothing to an idle connection (its base.py).
    DATABASES["default"]["ENGINE"] = "kilforth_site.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside the one writer; the busy timeout turns brief write contention
    # into a short wait instead of "database is locked" reaching a player.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Tests use a file, not shared-cache memory: only a file gives real WAL locking semantics
    # (racing writers wait on the busy timeout instead of failing with "table is locked").
    # One file per test process, so that test runs side by side never share a database.
    DATABASES["default"]["TEST"] = {
        "NAME": env_str(
            "DJANGO_TEST_SQLITE_NAME",
            str(Path(tempfile.gettempdir()) / f"kilforth-test-{os.getpid()}.sqlite3"),
        )
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Rate limits (games/tables/limits.py) count in the default cache: this process's memory on the
# embedded default, Redis (shared by every process) when REDIS_URL is set.
RATELIMIT_ENABLE = env_bool("KILFORTH_RATE_LIMITS", True)
RATELIMIT_VIEW = "games.tables.views.rate_limited"
KILFORTH_MAX_OPEN_TABLES = env_int("KILFORTH_MAX_OPEN_TABLES", 5)
# Open tables nobody sits at and nothing happened at for this long are closed (0: never).
KILFORTH_IDLE_TABLE_MINUTES = env_int("KILFORTH_IDLE_TABLE_MINUTES", 60)

# The in-memory layer works only inside one process; REDIS_URL scales out to several daphnes.
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # The pub/sub layer measured best for fan-out here (games/tables/layers.py: its
            # sockets share the decoding of each message); its pool must outgrow redis-py's
            # default of 100 connections, which breaks under bursts of hundreds of sockets.
            "BACKEND": "games.tables.layers.SharedDecodePubSubLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": env_int("REDIS_MAX_CONNECTIONS", 1000),
                    }
                ],
                "capacity": 1500,
                "expiry": 30,
            },
        }
    }
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Scaled out, a decision's table message carries the new version's snapshot to the other
# processes' sockets (rendering.pack_snapshot); a process alone has nobody to carry it to.
KILFORTH_SHARE_SNAPSHOTS = bool(REDIS_URL)
# A cache that is down (Redis restarting) lets requests through rather than failing them.
RATELIMIT_FAIL_OPEN = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

# Guests play without an account, so the session is their identity: keep it for a month.
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Test-only: deal every new game from this seed (browser tests replay a known game). Read only
# in DEBUG, so that no production server can be told to deal known cards.
KILFORTH_TEST_SEED = (env_int("KILFORTH_TEST_SEED", 0) or None) if DEBUG else None

# Each server process drives the bots of its tables (games/tables/bots.py); off for unit tests.
KILFORTH_BOT_DRIVER = env_bool("KILFORTH_BOT_DRIVER", True)

# How often each process checks that its sockets show every table's newest version (a lost
# broadcast is healed within this time; see games/tables/consumers.py: Freshness).
KILFORTH_FRESHNESS_SECONDS = float(env_str("KILFORTH_FRESHNESS_SECONDS", "2"))
# Sockets opening and closing are announced at most once per this many seconds per table and
# process: a crowd joining costs one broadcast per window, not one per socket (0: at once).
KILFORTH_PRESENCE_SECONDS = float(env_str("KILFORTH_PRESENCE_SECONDS", "0.25"))

# Each server process records a heartbeat this often; a process silent for HEARTBEAT_MISSED
# beats is dead (killed, crashed) and the survivors clear its sockets' presence rows (0: off).
KILFORTH_HEARTBEAT_SECONDS = float(env_str("KILFORTH_HEARTBEAT_SECONDS", "10"))
KILFORTH_HEARTBEAT_MISSED = env_int("KILFORTH_HEARTBEAT_MISSED", 6)

# Websocket frames from browsers are small JSON forms; anything larger is refused unread.
WEBSOCKET_MAX_MESSAGE_BYTES = env_int("KILFORTH_WS_MAX_MESSAGE_BYTES", 16 * 1024)

# Production hardening; each of these is what `check --deploy` asks for.
# DJANGO_HTTPS=0: a production server on plain http (bin/serve for friends on a LAN): no
# redirect to https, no https-only cookies, no HSTS. Debug stays off either way.
HTTPS = env_bool("DJANGO_HTTPS", True)
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", HTTPS)
    SESSION_COOKIE_SECURE = HTTPS
    CSRF_COOKIE_SECURE = HTTPS
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 60 * 60 * 24 * 365 if HTTPS else 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
}
