"""Is a production ``SEWER_USE_SECRET_KEY`` fit to sign sessions, CSRF tokens and password-reset
links? :func:`weakness` says why not, or returns "".

Django signs with the key; whoever knows or guesses it forges a staff session. A key is
refused when it is:

- the placeholder shipped in ``deploy/sewer-use.env``, anything containing ``change-me``, or a
  key Django generated for development (``django-insecure-``);
- shorter than :data:`MIN_LENGTH` (50) characters, or made of fewer than
  :data:`MIN_DISTINCT` (5) distinct characters — Django's own deploy check (security.W009);
- of low entropy: fewer than :data:`MIN_BITS_PER_CHAR` (3.0) bits a character by the Shannon
  entropy of its character frequencies. A key from ``secrets.token_urlsafe(64)`` measures
  about 5.6, ``secrets.token_hex(32)`` about 3.9 (16 symbols: at most 4); a word or a few
  characters repeated to length fall below 3;
- repetitive: a random key rarely repeats three characters in a row of itself (its trigrams
  are nearly all distinct), a pattern typed over and over repeats them. Refused when fewer
  than :data:`MIN_DISTINCT_TRIGRAMS` (3/4) of its trigrams are distinct (``"aB3$xY9!qW" * 5``
  has 10 distinct of 48), or when most steps from one character to the next are to its
  neighbour in the alphabet (``abcdef...``, ``987654...``).

These are estimates of a string's randomness, not proofs: the measures only catch keys a
person made up; the remedy is always the same command,
``python3 -c "import secrets; print(secrets.token_urlsafe(64))"``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

#: The key shipped in deploy/sewer-use.env (tests/office/test_production.py holds them equal).
PLACEHOLDER = "change-me-to-64-random-characters-from-secrets-token-urlsafe-0123456789"
MIN_LENGTH = 50
MIN_DISTINCT = 5
MIN_BITS_PER_CHAR = 3.0
MIN_DISTINCT_TRIGRAMS = 0.75
#: Share of neighbour steps (``a``→``b``, ``9``→``8``) at and above which a key is a sequence.
MAX_NEIGHBOUR_STEPS = 0.5
MAKE_ONE = 'python3 -c "import secrets; print(secrets.token_urlsafe(64))"'


def bits_per_char(text: str) -> float:
    """The Shannon entropy of ``text``'s character frequencies, in bits a character."""
    if not text:
        return 0.0
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


def distinct_trigram_share(text: str) -> float:
    """The share of ``text``'s trigrams (three characters in a row) that are distinct."""
    grams = [text[i : i + 3] for i in range(len(text) - 2)]
    return len(set(grams)) / len(grams) if grams else 0.0


def neighbour_step_share(text: str) -> float:
    """The share of steps from one character to the next that go to a neighbouring code point."""
    steps = [abs(ord(b) - ord(a)) == 1 for a, b in itertools.pairwise(text)]
    return sum(steps) / len(steps) if steps else 0.0


def weakness(key: str) -> str:
    """Why ``key`` is unfit for production (one clause), or "" when it is fit."""
    if key == PLACEHOLDER or "change-me" in key.lower():
        return "is the placeholder of deploy/sewer-use.env"
    if key.startswith("django-insecure-"):
        return "is a development key (django-insecure-...)"
    if len(key) < MIN_LENGTH:
        return f"has {len(key)} characters: 50 or more are needed"
    distinct = len(set(key))
    if distinct < MIN_DISTINCT:
        return f"has {distinct} distinct characters: 5 or more are needed"
    bits = bits_per_char(key)
    if bits < MIN_BITS_PER_CHAR:
        return f"has low entropy ({bits:.1f} bits a character, under {MIN_BITS_PER_CHAR:.0f})"
    share = distinct_trigram_share(key)
    if share < MIN_DISTINCT_TRIGRAMS:
        return f"repeats itself (only {share:.0%} of its three-character runs are distinct)"
    if neighbour_step_share(key) >= MAX_NEIGHBOUR_STEPS:
        return "is a sequence of neighbouring characters (abcd..., 9876...)"
    return ""
