/*
 * sewer_native._kernels.historian — a meter file's CSV read in one pass over its bytes.
 *
 * This file knows no law. The general reader of meter files (polars, in sewer_engines) says
 * what a file means; this is a shortcut for the files it reads without a remark. Its caller,
 * sewer_engines.monitoring.native, compares nothing: the tests do (test_native_reader.py), on
 * generated files of every layout. At the first line this reader does not take exactly as
 * the general reader would, it returns None, having decided nothing, and the general reader
 * reads the whole file (with its row errors).
 *
 * historian(data, start, columns, t, v, rows, places, meters, edges, offsets, threads)
 *
 * ``data[start:]`` is the body of a CSV file (the header already read by the caller), every
 * line ``columns`` fields separated by commas, no quotes, no blank line, ``\n`` or ``\r\n``
 * at its end. ``columns`` is ``(count, time, value, meter)``: how many fields a line has and
 * which is which (meter -1: none; the other fields are passed over, printable ASCII only).
 *
 * time   ``YYYY-MM-DD`` then ``T`` or a space, ``HH:MM``, optionally ``:SS`` and then
 *        optionally ``.`` and one to nine digits (read to the microsecond, the rest cut as the
 *        general reader cuts it), then ``Z``, ``±HH:MM``, ``±HHMM`` (at most 14 hours) or
 *        nothing: a naive time, on the clocks of the zone described by ``edges`` (local
 *        seconds since 1970, ascending, n + 1 of them) and ``offsets`` (the UTC offset in
 *        seconds of each of the n spans between, or GAP for a span the clocks skipped or
 *        repeated: a row error of the general reader, so a decline here). A naive time
 *        outside the spans is declined. Years 1900..2999.
 * value  a plain decimal ``-?\d+(\.\d+)?`` of at most 18 digits, or a missing value (an
 *        empty field, or na, n/a, nan, null, none in any case): a gap, counted.
 * meter  one to MAX_NAME printable ASCII characters, neither first nor last a space.
 *
 * The general reader takes the layouts of a file's times from a sample, its first 1,000
 * rows of those it does not read on its own shortcut; a later row of a layout not in the
 * sample is a row error there. So this reader sorts each time into its layout (the format
 * that would read it), keeps the layouts of that sample and of all such rows, and declines a
 * file whose rows use a layout its sample does not (never a row error here, no remark there).
 *
 * Writes, for each reading with a value: its instant (microseconds since 1970, UTC) to ``t``,
 * its row as a spreadsheet numbers it (header row 1) to ``rows``, and its value scaled by
 * 10**P to ``v``, P the most decimal places a value of its meter needs (``12.30`` needs one).
 * ``places`` (uint8) and ``meters`` (uint16) are working space, as long as ``t``. Returns
 * ``[(meter, start, count, scale, missing, ordered), ...]`` for each meter in the order of
 * their names' bytes: its name (b"" without a meter column), its readings at
 * ``[start, start + count)`` of the arrays (in file order), their scale, the rows with a
 * missing value, and whether the times strictly increase; or None.
 *
 * It releases the interpreter while it reads, on two threads when asked and the file is
 * longer than a megabyte.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_historian.h"

#define MIN_LINE 18    /* 2026-03-08T03:00, and a newline: the shortest line taken */
#define MAX_DIGITS 18  /* below 10**18: an int64 */
#define MAX_FIELDS 32
#define MAX_METERS 1024
#define SLOTS 4096     /* the meters' hash table: a power of two, at least 2 * MAX_METERS */
#define MAX_NAME 200
#define SAMPLE 1000    /* the general reader's sample of time layouts */
#define GAP INT64_MIN

static const int64_t POW10[MAX_DIGITS + 1] = {
    1LL,
    10LL,
    100LL,
    1000LL,
    10000LL,
    100000LL,
    1000000LL,
    10000000LL,
    100000000LL,
    1000000000LL,
    10000000000LL,
    100000000000LL,
    1000000000000LL,
    10000000000000LL,
    100000000000000LL,
    1000000000000000LL,
    10000000000000000LL,
    100000000000000000LL,
    1000000000000000000LL,
};

/* The layouts of times, as the general reader's formats read them (after it writes a space
 * as ``T`` and ``Z`` as ``+00:00``): each is read by one format, chosen when a time of that
 * layout is in its sample. */
enum {
    AWARE_SECONDS = 1,   /* ...T03:00:00-04:00, ...T03:00:00Z: its shortcut (FAST) */
    AWARE_FRACTION = 2,  /* ...T03:00:00.5-04:00, ...T03:00:00-0400: %Y-%m-%dT%H:%M:%S%.f%z */
    AWARE_MINUTES = 4,   /* ...T03:00-04:00, ...T03:00Z: %Y-%m-%dT%H:%M%z */
    NAIVE_SECONDS = 8,   /* ...T03:00:00 (town time): its shortcut (FAST) */
    NAIVE_FRACTION = 16, /* ...T03:00:00.5: %Y-%m-%dT%H:%M:%S%.f */
    NAIVE_MINUTES = 32,  /* ...T03:00: %Y-%m-%dT%H:%M */
};

static inline int is_digit(char c) { return (unsigned char)(c - '0') < 10; }

static inline int two(const char *s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int days_in_month(int y, int m) {
    static const int days[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return days[m] + (m == 2 && leap);
}

typedef struct {
    const int64_t *edges, *offsets; /* the zone's spans of local time (see the header) */
    Py_ssize_t spans;
} zone;

/* One time read: its instant, its layout, its year, and the two facts the general reader's
 * own shortcut turns on: 25 bytes long, and read by it (``T``, seconds, ``±HH:MM``). */
typedef struct {
    int64_t at;
    int layout, year, long25, strict;
} stamp;

typedef struct {
    char text[10]; /* the date of the line before, as written */
    int64_t days;
    int year, valid;
    Py_ssize_t span; /* the zone's span of the naive time before */
} memo;

static int offset_of(const zone *z, memo *m, int64_t local, int64_t *offset) {
    Py_ssize_t i = m->span;
    if (z->spans == 0 || local < z->edges[0] || local >= z->edges[z->spans]) return 0;
    if (!(i >= 0 && i < z->spans && z->edges[i] <= local && local < z->edges[i + 1])) {
        Py_ssize_t lo = 0, hi = z->spans; /* the last edge <= local */
        while (hi - lo > 1) {
            Py_ssize_t mid = lo + (hi - lo) / 2;
            if (z->edges[mid] <= local) lo = mid;
            else hi = mid;
        }
        i = m->span = lo;
    }
    if (z->offsets[i] == GAP) return 0;
    *offset = z->offsets[i];
    return 1;
}

/* The time over [s, e); 0 when it is not one this reader takes. */
static int read_stamp(const char *s, const char *e, const zone *z, memo *m, stamp *out) {
    static const int digits[12] = {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15};
    if (e - s < 16) return 0;
    for (int k = 0; k < 12; k++)
        if (!is_digit(s[digits[k]])) return 0;
    if (s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != ' ') || s[13] != ':') return 0;
    if (!(m->valid && memcmp(m->text, s, 10) == 0)) {
        int y = two(s) * 100 + two(s + 2), mo = two(s + 5), d = two(s + 8);
        /* years any reader of ISO 8601 takes alike; others are left to the general reader */
        if (y < 1900 || y > 2999 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
            return 0;
        m->days = days_from_civil(y, mo, d);
        m->year = y;
        memcpy(m->text, s, 10);
        m->valid = 1;
    }
    int hh = two(s + 11), mm = two(s + 14), ss = 0, seconds = 0, fraction = 0;
    int64_t micro = 0;
    if (hh > 23 || mm > 59) return 0;
    const char *p = s + 16;
    if (p < e && *p == ':') {
        if (e - p < 3 || !is_digit(p[1]) || !is_digit(p[2])) return 0;
        ss = two(p + 1);
        if (ss > 59) return 0;
        seconds = 1;
        p += 3;
        if (p < e && *p == '.') {
            int n = 0;
            for (p++; p < e && is_digit(*p); p++, n++)
                if (n < 6) micro = micro * 10 + (*p - '0');
            if (n < 1 || n > 9) return 0;
            for (; n < 6; n++) micro *= 10;
            fraction = 1;
        }
    }
    int64_t local = m->days * 86400 + hh * 3600 + mm * 60 + ss, offset = 0;
    int aware = 1, colon = 1;
    if (p == e) {
        aware = 0;
        if (!offset_of(z, m, local, &offset)) return 0;
    } else if (*p == 'Z' && e - p == 1) {
        offset = 0;
    } else if (*p == '+' || *p == '-') {
        int oh, om;
        if (e - p == 6 && is_digit(p[1]) && is_digit(p[2]) && p[3] == ':' && is_digit(p[4]) &&
            is_digit(p[5])) {
            oh = two(p + 1), om = two(p + 4);
        } else if (e - p == 5 && is_digit(p[1]) && is_digit(p[2]) && is_digit(p[3]) &&
                   is_digit(p[4])) {
            oh = two(p + 1), om = two(p + 3), colon = 0;
        } else {
            return 0;
        }
        if (om > 59 || oh * 60 + om > 14 * 60) return 0;
        offset = (int64_t)(oh * 3600 + om * 60) * (*p == '-' ? -1 : 1);
    } else {
        return 0;
    }
    if (aware)
        out->layout = !seconds ? AWARE_MINUTES
                      : fraction || !colon ? AWARE_FRACTION
                                           : AWARE_SECONDS;
    else
        out->layout = !seconds ? NAIVE_MINUTES : fraction ? NAIVE_FRACTION : NAIVE_SECONDS;
    out->at = (local - offset) * 1000000LL + micro;
    out->year = m->year;
    out->long25 = e - s == 25;
    out->strict = out->long25 && out->layout == AWARE_SECONDS && s[10] == 'T' && *p != 'Z';
    return 1;
}

static int lower(char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Whether [s, e) is a word the general reader takes as a missing value (case aside). */
static int missing_word(const char *s, const char *e) {
    static const char *words[] = {"na", "n/a", "nan", "null", "none"};
    Py_ssize_t n = e - s;
    if (n == 0) return 1;
    for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
        if ((Py_ssize_t)strlen(words[k]) != n) continue;
        Py_ssize_t i = 0;
        while (i < n && lower(s[i]) == words[k][i]) i++;
        if (i == n) return 1;
    }
    return 0;
}

/* A plain decimal ``-?\d+(\.\d+)?`` of at most MAX_DIGITS digits over [s, e): its digits as
 * an integer, the places written and the places it needs (``12.30``: two, one), and 1; a
 * missing value: 2; anything else: 0. */
static int read_value(const char *s, const char *e, int64_t *value, uint8_t *places,
                      int *needed) {
    const char *start = s;
    int negative = 0;
    if (s < e && *s == '-') {
        negative = 1;
        s++;
    }
    uint64_t m = 0;
    int digits = 0, after = 0, zeros = 0;
    while (s < e && is_digit(*s) && digits <= MAX_DIGITS) {
        m = m * 10 + (uint64_t)(*s++ - '0');
        digits++;
    }
    if (digits == 0) return missing_word(start, e) ? 2 : 0;
    if (s < e && *s == '.') {
        s++;
        while (s < e && is_digit(*s) && digits + after <= MAX_DIGITS) {
            zeros = *s == '0' ? zeros + 1 : 0;
            m = m * 10 + (uint64_t)(*s++ - '0');
            after++;
        }
        if (after == 0) return 0;
    }
    if (s != e || digits + after > MAX_DIGITS) return 0;
    *value = negative ? -(int64_t)m : (int64_t)m;
    *places = (uint8_t)after;
    *needed = after - zeros;
    return 1;
}

/* What a part of the file tells of each meter. */
typedef struct {
    const char *name;
    int length, needed;
    int64_t missing, count, first, last;
    int ordered;
} meter;

typedef struct {
    meter list[MAX_METERS];
    int16_t slots[SLOTS]; /* -1: free */
    int count;
} meters;

static uint32_t hash(const char *s, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The meter named [s, s + n): its index, added if new; -1 when there are too many. */
static int meter_of(meters *ms, const char *s, int n) {
    uint32_t h = hash(s, n) & (SLOTS - 1);
    for (;;) {
        int k = ms->slots[h];
        if (k < 0) break;
        if (ms->list[k].length == n && memcmp(ms->list[k].name, s, (size_t)n) == 0) return k;
        h = (h + 1) & (SLOTS - 1);
    }
    if (ms->count >= MAX_METERS) return -1;
    int k = ms->count++;
    ms->slots[h] = (int16_t)k;
    ms->list[k] = (meter){s, n, 0, 0, 0, 0, 0, 1};
    return k;
}

/* A meter's name as the general reader reads it: no quote, no control, not padded. */
static int good_name(const char *s, const char *e) {
    if (e <= s || e - s > MAX_NAME || s[0] == ' ' || e[-1] == ' ') return 0;
    for (; s < e; s++)
        if (*s < 0x20 || *s > 0x7e || *s == '"') return 0;
    return 1;
}

/* A field passed over: printable ASCII and no quote (so the general reader's CSV parser
 * splits the line where this one does). */
static int plain_field(const char *s, const char *e) {
    for (; s < e; s++)
        if (*s < 0x20 || *s > 0x7e || *s == '"') return 0;
    return 1;
}

typedef struct {
    int fields, time, value, meter;
} layout_of_lines;

typedef struct {
    const char *begin, *end; /* whole lines (the last may lack its newline) */
    layout_of_lines cols;
    const zone *z;
    int64_t *t, *v, *rows;
    uint8_t *places;
    uint16_t *ids;
    Py_ssize_t capacity; /* readings the arrays can hold */
    Py_ssize_t count;    /* readings read (rows with a value) */
    Py_ssize_t lines;    /* lines read */
    meters *ms;
    /* the layouts of the first SAMPLE rows the general reader's shortcut leaves (sample[k]:
     * of the first k), of all of them, and how many */
    uint8_t sample[SAMPLE + 1];
    int layouts;
    Py_ssize_t left;
    /* the years of the first and last 25-byte times, and the least and greatest of the
     * times the general reader's shortcut reads (see check_years) */
    int first25, last25, least, most;
    Py_ssize_t strict;
    int ok;
} part;

static void *read_part(void *arg) {
    part *p = (part *)arg;
    const char *s = p->begin, *end = p->end;
    memo mem = {{0}, 0, 0, 0, -1};
    Py_ssize_t i = 0, line = 0;
    meters *ms = p->ms;
    int single = -1; /* without a meter column: meter 0 */
    if (p->cols.meter < 0) single = meter_of(ms, "", 0);
    int last_meter = single;
    p->ok = 0;
    p->sample[0] = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        if (e > s && e[-1] == '\r') e--;
        if (e - s < MIN_LINE - 1 || i >= p->capacity) return NULL;
        const char *fs[MAX_FIELDS], *fe[MAX_FIELDS];
        const char *f = s;
        for (int k = 0; k < p->cols.fields; k++) {
            const char *comma = k + 1 < p->cols.fields ? memchr(f, ',', (size_t)(e - f)) : e;
            if (comma == NULL) return NULL;
            fs[k] = f, fe[k] = comma;
            f = comma + 1;
        }
        if (memchr(fs[p->cols.fields - 1], ',', (size_t)(e - fs[p->cols.fields - 1])))
            return NULL; /* more fields than the header's */
        stamp st;
        if (!read_stamp(fs[p->cols.time], fe[p->cols.time], p->z, &mem, &st)) return NULL;
        int needed = 0;
        int got = read_value(fs[p->cols.value], fe[p->cols.value], &p->v[i], &p->places[i],
                             &needed);
        if (!got) return NULL;
        for (int k = 0; k < p->cols.fields; k++)
            if (k != p->cols.time && k != p->cols.value && k != p->cols.meter &&
                !plain_field(fs[k], fe[k]))
                return NULL;
        int id = single;
        if (id < 0) {
            const char *ns = fs[p->cols.meter], *ne = fe[p->cols.meter];
            meter *lm = &ms->list[last_meter >= 0 ? last_meter : 0];
            if (last_meter >= 0 && lm->length == ne - ns &&
                memcmp(lm->name, ns, (size_t)(ne - ns)) == 0) {
                id = last_meter;
            } else {
                if (!good_name(ns, ne)) return NULL;
                id = last_meter = meter_of(ms, ns, (int)(ne - ns));
                if (id < 0) return NULL;
            }
        }
        meter *mt = &ms->list[id];
        int quick = st.strict && got == 1;
        if (!quick) {
            if (p->left < SAMPLE) p->sample[p->left + 1] = p->sample[p->left] | st.layout;
            p->left++;
            p->layouts |= st.layout;
        } else {
            if (p->strict == 0 || st.year < p->least) p->least = st.year;
            if (p->strict == 0 || st.year > p->most) p->most = st.year;
            p->strict++;
        }
        if (st.long25) {
            if (p->first25 < 0) p->first25 = st.year;
            p->last25 = st.year;
        }
        if (got == 2) {
            mt->missing++;
        } else {
            if (mt->count == 0) mt->first = st.at;
            else if (st.at <= mt->last) mt->ordered = 0;
            mt->last = st.at;
            mt->count++;
            if (needed > mt->needed) mt->needed = needed;
            p->t[i] = st.at;
            p->rows[i] = line + 2; /* the header is row 1 */
            p->ids[i] = (uint16_t)id;
            i++;
        }
        line++;
        s = nl ? nl + 1 : end;
    }
    p->count = i;
    p->lines = line;
    p->ok = 1;
    return NULL;
}

/* ``v`` (its places written) scaled to ``scale`` places: 0 if it does not fit an int64. A
 * value written with more places than the scale has that many trailing zeros (the scale is
 * the most any value of its meter needs): divided exactly. */
static inline int rescaled(int64_t *v, int places, int scale) {
    int shift = scale - places;
    if (shift > 0) return !__builtin_mul_overflow(*v, POW10[shift], v);
    if (shift < 0) *v /= POW10[-shift];
    return 1;
}

/* The general reader's own shortcut reads a 25-byte time only when its year lies within one
 * of the years it samples (the first and last 25-byte times among them) — any other goes to
 * its layouts' sample and could push a time of another layout out of it. Such a file is
 * declined: 1 when none is. */
static int check_years(const part *parts, int n) {
    int first = -1, last = -1, least = 0, most = 0;
    Py_ssize_t strict = 0, left = 0;
    for (int k = 0; k < n; k++) {
        const part *p = &parts[k];
        if (first < 0) first = p->first25;
        if (p->last25 >= 0) last = p->last25;
        if (p->strict && (strict == 0 || p->least < least)) least = p->least;
        if (p->strict && (strict == 0 || p->most > most)) most = p->most;
        strict += p->strict;
        left += p->left;
    }
    if (strict == 0 || left == 0) return 1;
    int low = (first < last ? first : last) - 1, high = (first > last ? first : last) + 1;
    return least >= low && most <= high;
}

/* Whether every row the general reader's shortcut leaves has a layout of its sample. */
static int check_layouts(const part *parts, int n) {
    int sample = 0, all = 0;
    Py_ssize_t taken = 0;
    for (int k = 0; k < n; k++) {
        const part *p = &parts[k];
        Py_ssize_t more = p->left < SAMPLE - taken ? p->left : SAMPLE - taken;
        sample |= p->sample[more];
        taken += more;
        all |= p->layouts;
    }
    return (all & ~sample) == 0;
}

static int by_name(const void *a, const void *b) {
    const meter *x = *(const meter *const *)a, *y = *(const meter *const *)b;
    int n = x->length < y->length ? x->length : y->length;
    int c = memcmp(x->name, y->name, (size_t)n);
    return c ? c : (x->length > y->length) - (x->length < y->length);
}

typedef struct {
    meter m;         /* the meter over the whole file */
    Py_ssize_t start; /* where its readings go */
    int scale;
} merged;

static PyObject *build_result(merged *out, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int k = 0; k < n; k++) {
        meter *m = &out[k].m;
        PyObject *item = Py_BuildValue("(y#nniLO)", m->name, (Py_ssize_t)m->length,
                                       out[k].start, (Py_ssize_t)m->count, out[k].scale,
                                       (long long)m->missing, m->ordered ? Py_True : Py_False);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, item);
    }
    return list;
}

/* The parts' meters as one list in the order of their names (``out``, ``n``), and each
 * part's index to the list (``ranks``): 0 when a meter's times do not follow from one part
 * to the next is impossible to tell (never), 1 otherwise. */
static int merge_meters(part *parts, int n_parts, merged *out, int *n_out,
                        int ranks[2][MAX_METERS]) {
    meters *all = calloc(1, sizeof(meters));
    if (all == NULL) return 0;
    memset(all->slots, -1, sizeof all->slots);
    int into[2][MAX_METERS];
    for (int k = 0; k < n_parts; k++) {
        meters *ms = parts[k].ms;
        for (int j = 0; j < ms->count; j++) {
            meter *m = &ms->list[j];
            int g = meter_of(all, m->name, m->length);
            if (g < 0) {
                free(all);
                return 0;
            }
            into[k][j] = g;
            meter *a = &all->list[g];
            if (m->count && a->count) {
                a->ordered = a->ordered && m->ordered && m->first > a->last;
                a->last = m->last;
            } else if (m->count) {
                a->ordered = m->ordered, a->first = m->first, a->last = m->last;
            }
            a->count += m->count;
            a->missing += m->missing;
            if (m->needed > a->needed) a->needed = m->needed;
        }
    }
    meter *order[MAX_METERS];
    for (int g = 0; g < all->count; g++) order[g] = &all->list[g];
    qsort(order, (size_t)all->count, sizeof *order, by_name);
    int rank[MAX_METERS];
    Py_ssize_t at = 0;
    for (int r = 0; r < all->count; r++) {
        int g = (int)(order[r] - all->list);
        rank[g] = r;
        out[r].m = *order[r];
        out[r].start = at;
        out[r].scale = order[r]->needed;
        at += order[r]->count;
    }
    for (int k = 0; k < n_parts; k++)
        for (int j = 0; j < parts[k].ms->count; j++) ranks[k][j] = rank[into[k][j]];
    *n_out = all->count;
    free(all);
    return 1;
}

/* One meter: the second part's readings moved to follow the first's, every value scaled
 * and every row numbered in the file. */
static int gather_one(part *parts, int n_parts, int scale) {
    Py_ssize_t a = parts[0].count;
    for (Py_ssize_t i = 0; i < a; i++)
        if (!rescaled(&parts[0].v[i], parts[0].places[i], scale)) return 0;
    if (n_parts == 2) {
        part *q = &parts[1];
        Py_ssize_t lines = parts[0].lines;
        int64_t *t = parts[0].t + a, *v = parts[0].v + a, *rows = parts[0].rows + a;
        for (Py_ssize_t i = 0; i < q->count; i++) {
            int64_t x = q->v[i];
            if (!rescaled(&x, q->places[i], scale)) return 0;
            t[i] = q->t[i], v[i] = x, rows[i] = q->rows[i] + lines;
        }
    }
    return 1;
}

/* Several meters: each reading moved to its meter's place (in file order within a meter),
 * through a buffer of the readings' size. */
static int gather_many(part *parts, int n_parts, merged *out, int ranks[2][MAX_METERS],
                       Py_ssize_t total) {
    Py_ssize_t *dest = malloc((size_t)(total > 0 ? total : 1) * sizeof *dest);
    int64_t *buffer = malloc((size_t)(total > 0 ? total : 1) * sizeof *buffer);
    Py_ssize_t cursor[MAX_METERS];
    int ok = dest != NULL && buffer != NULL;
    for (int r = 0; ok && r < MAX_METERS; r++) cursor[r] = 0;
    Py_ssize_t k = 0;
    for (int p = 0; ok && p < n_parts; p++) {
        part *q = &parts[p];
        for (Py_ssize_t i = 0; i < q->count; i++) {
            int r = ranks[p][q->ids[i]];
            dest[k++] = out[r].start + cursor[r]++;
            if (!rescaled(&q->v[i], q->places[i], out[r].scale)) ok = 0;
        }
    }
    /* the three columns, one after the other, through the buffer */
    int64_t *base[3] = {parts[0].t, parts[0].v, parts[0].rows};
    for (int c = 0; ok && c < 3; c++) {
        k = 0;
        for (int p = 0; p < n_parts; p++) {
            part *q = &parts[p];
            const int64_t *src = c == 0 ? q->t : c == 1 ? q->v : q->rows;
            int64_t add = c == 2 && p == 1 ? parts[0].lines : 0;
            for (Py_ssize_t i = 0; i < q->count; i++) buffer[dest[k++]] = src[i] + add;
        }
        memcpy(base[c], buffer, (size_t)total * sizeof *buffer);
    }
    free(dest);
    free(buffer);
    return ok;
}

static int whole_items(Py_buffer *b, Py_ssize_t itemsize, const char *name) {
    if (b->len % itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes is not a whole number of items", name,
                     b->len);
        return 0;
    }
    return 1;
}

PyObject *historian(PyObject *self, PyObject *args) {
    Py_buffer data, tb, vb, rb, pb, ib, eb, ob;
    Py_ssize_t start;
    layout_of_lines cols;
    int threads;
    if (!PyArg_ParseTuple(args, "y*n(iiii)w*w*w*w*w*y*y*i", &data, &start, &cols.fields,
                          &cols.time, &cols.value, &cols.meter, &tb, &vb, &rb, &pb, &ib, &eb,
                          &ob, &threads))
        return NULL;
    PyObject *result = NULL;
    meters *tables[2] = {NULL, NULL};
    part *parts = NULL;
    Py_ssize_t capacity = pb.len;
    if (!whole_items(&tb, 8, "t") || !whole_items(&vb, 8, "v") || !whole_items(&rb, 8, "rows") ||
        !whole_items(&ib, 2, "meters") || !whole_items(&eb, 8, "edges") ||
        !whole_items(&ob, 8, "offsets"))
        goto done;
    if (tb.len / 8 < capacity) capacity = tb.len / 8;
    if (vb.len / 8 < capacity) capacity = vb.len / 8;
    if (rb.len / 8 < capacity) capacity = rb.len / 8;
    if (ib.len / 2 < capacity) capacity = ib.len / 2;
    Py_ssize_t spans = ob.len / 8;
    if (start < 0 || start > data.len) {
        PyErr_SetString(PyExc_ValueError, "start: outside the data");
        goto done;
    }
    if (cols.fields < 1 || cols.fields > MAX_FIELDS || cols.time < 0 || cols.value < 0 ||
        cols.time >= cols.fields || cols.value >= cols.fields || cols.meter >= cols.fields ||
        cols.time == cols.value || cols.meter == cols.time || cols.meter == cols.value) {
        PyErr_SetString(PyExc_ValueError, "columns: (count, time, value, meter) out of order");
        goto done;
    }
    if (spans && eb.len / 8 != spans + 1) {
        PyErr_SetString(PyExc_ValueError, "edges: one more than offsets");
        goto done;
    }
    tables[0] = malloc(sizeof(meters));
    tables[1] = malloc(sizeof(meters));
    parts = calloc(2, sizeof(part));
    merged *out = malloc(MAX_METERS * sizeof(merged));
    int(*ranks)[MAX_METERS] = malloc(2 * sizeof *ranks);
    if (!tables[0] || !tables[1] || !parts || !out || !ranks) {
        free(out);
        free(ranks);
        PyErr_NoMemory();
        goto done;
    }
    const char *begin = (const char *)data.buf + start, *end = (const char *)data.buf + data.len;
    zone z = {(const int64_t *)eb.buf, (const int64_t *)ob.buf, spans};
    int64_t *t = tb.buf, *v = vb.buf, *rows = rb.buf;
    uint8_t *pl = pb.buf;
    uint16_t *ids = ib.buf;
    int n_parts = (threads > 1 && end - begin > (1 << 20)) ? 2 : 1, ok = 1, n_meters = 0;
    Py_ssize_t total = 0;
    Py_BEGIN_ALLOW_THREADS;
    /* two parts split at a line's end; the second writes from the row it cannot precede */
    const char *cut = end;
    if (n_parts == 2) {
        const char *middle = begin + (end - begin) / 2;
        const char *nl = memchr(middle, '\n', (size_t)(end - middle));
        if (nl == NULL || nl + 1 >= end) n_parts = 1;
        else cut = nl + 1;
    }
    Py_ssize_t second = n_parts == 2 ? (cut - begin) / MIN_LINE + 1 : capacity;
    if (second > capacity) n_parts = 1, cut = end, second = capacity;
    for (int k = 0; k < 2; k++) {
        memset(tables[k]->slots, -1, sizeof tables[k]->slots);
        tables[k]->count = 0;
        Py_ssize_t at = k == 0 ? 0 : second;
        parts[k] = (part){.begin = k == 0 ? begin : cut, .end = k == 0 ? cut : end, .cols = cols,
                          .z = &z, .t = t + at, .v = v + at, .rows = rows + at, .places = pl + at,
                          .ids = ids + at, .capacity = k == 0 ? second : capacity - second,
                          .ms = tables[k], .first25 = -1, .last25 = -1};
    }
    pthread_t other;
    int spawned = n_parts == 2 && pthread_create(&other, NULL, read_part, &parts[1]) == 0;
    if (n_parts == 2 && !spawned) read_part(&parts[1]);
    read_part(&parts[0]);
    if (spawned) pthread_join(other, NULL);
    for (int k = 0; k < n_parts; k++) ok = ok && parts[k].ok, total += parts[k].count;
    ok = ok && total > 0 && check_layouts(parts, n_parts) && check_years(parts, n_parts);
    ok = ok && merge_meters(parts, n_parts, out, &n_meters, ranks);
    if (ok && n_meters == 1) ok = gather_one(parts, n_parts, out[0].scale);
    else if (ok) ok = gather_many(parts, n_parts, out, ranks, total);
    Py_END_ALLOW_THREADS;
    result = ok ? build_result(out, n_meters) : Py_NewRef(Py_None);
    free(out);
    free(ranks);
done:
    free(tables[0]);
    free(tables[1]);
    free(parts);
    PyBuffer_Release(&data);
    PyBuffer_Release(&tb);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&rb);
    PyBuffer_Release(&pb);
    PyBuffer_Release(&ib);
    PyBuffer_Release(&eb);
    PyBuffer_Release(&ob);
    return result;
}
