/*
 * sewer_native._kernels — two loops that Python and numpy cannot run fast enough.
 *
 * This file knows no law. It holds the mechanics of two steps whose meaning is decided in
 * sewer_rules, which calls them through sewer_rules.monitoring.native and keeps its own
 * numpy and polars implementations of both (used whenever this module is not built, and
 * compared with it by the tests on generated inputs):
 *
 * historian(data, start, t, v, places, threads)
 *     Reads the body of a CSV file of two columns, ``timestamp,value``, written the way meter
 *     historians export: every line ``YYYY-MM-DDTHH:MM:SS±HH:MM,<plain decimal>`` and the
 *     times strictly increasing. It writes the instants (microseconds since 1970, UTC) to
 *     ``t`` and the values, scaled by 10**P for P the most decimal places a value needs
 *     (``12.30`` needs one), to ``v`` (int64), and returns ``(rows, P)``. At the first line that is anything else — another
 *     layout, an impossible date, a value with more than 18 digits, a time not after the one
 *     before, a blank line, quotes, spaces — it returns None, having decided nothing: the
 *     caller then reads the file with its general reader, which reports row errors. So this
 *     is a shortcut for files the general reader would read without a remark, never a second
 *     reading of what a file means.
 *
 * trailing_normal(t, v, starts, stops, windows, ps, qs, live, normal)
 *     The sequential judgement of readings against the mean of the readings of the window
 *     before them that were themselves not above p/q times their own mean (the caller's
 *     "normal operation"): one pass, reading by reading, with an exact running sum (128-bit
 *     integers). A window holding no such reading carries the mean of the window that ends
 *     with the last one (that reading included). Readings with less than a window of history
 *     are not judged. Writes ``normal`` (1 normal, 0 exceeded) and returns
 *     ``(judged, unjudged, carried)``, carried: the readings judged on a carried mean.
 *
 * Both release the interpreter while they run.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define WIDTH 25       /* 2026-03-08T03:00:00-04:00 */
#define MIN_LINE 27    /* the time, a comma, one digit */
#define MAX_DIGITS 18  /* below 10**18: an int64 */

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

/* ---- reading a historian's export ---------------------------------------------------- */

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

/* The digit positions of YYYY-MM-DDTHH:MM:SS±HH:MM, and its separators. */
static const int TIME_DIGITS[18] = {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 23, 24};

typedef struct {
    char text[10];  /* the date of the line before, as written */
    int64_t days;   /* its days since 1970, or -1 for none yet */
    int valid;
} date_memo;

/* The instant of one time (microseconds, UTC); 0 when it is not a time this reader takes. */
static int read_time(const char *s, date_memo *memo, int64_t *out) {
    for (int k = 0; k < 18; k++) {
        if (!is_digit(s[TIME_DIGITS[k]])) return 0;
    }
    if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
        s[22] != ':' || (s[19] != '+' && s[19] != '-'))
        return 0;
    int64_t days;
    if (memo->valid && memcmp(memo->text, s, 10) == 0) {
        days = memo->days;
    } else {
        int y = two(s) * 100 + two(s + 2), m = two(s + 5), d = two(s + 8);
        /* years any reader of ISO 8601 takes alike; others are left to the general reader */
        if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m)) return 0;
        days = days_from_civil(y, m, d);
        memcpy(memo->text, s, 10);
        memo->days = days;
        memo->valid = 1;
    }
    int hh = two(s + 11), mm = two(s + 14), ss = two(s + 17);
    int oh = two(s + 20), om = two(s + 23);
    if (hh > 23 || mm > 59 || ss > 59 || om > 59 || oh * 60 + om > 14 * 60) return 0;
    int64_t offset = (int64_t)(oh * 3600 + om * 60) * (s[19] == '-' ? -1 : 1);
    *out = ((days * 86400 + hh * 3600 + mm * 60 + ss) - offset) * 1000000LL;
    return 1;
}

/* A plain decimal ``-?\d+(\.\d+)?`` of at most MAX_DIGITS digits over [s, e): its digits as
 * an integer, the places written and the places it needs (``12.30``: two, one); 0 when it is
 * anything else. */
static int read_value(const char *s, const char *e, int64_t *value, uint8_t *places,
                      int *needed) {
    int negative = 0;
    if (s < e && *s == '-') {
        negative = 1;
        s++;
    }
    uint64_t m = 0;
    int digits = 0, after = 0, zeros = 0;
    while (s < e && is_digit(*s)) {
        m = m * 10 + (uint64_t)(*s++ - '0');
        digits++;
    }
    if (digits == 0) return 0;
    if (s < e && *s == '.') {
        s++;
        while (s < e && is_digit(*s)) {
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

typedef struct {
    const char *begin, *end; /* whole lines (the last may lack its newline) */
    int64_t *t, *v;
    uint8_t *places;
    Py_ssize_t capacity; /* rows t, v and places can hold */
    Py_ssize_t rows;     /* rows read */
    int needed;          /* the most decimal places a value needs */
    int ok;
} part;

static void *read_part(void *arg) {
    part *p = (part *)arg;
    const char *s = p->begin, *end = p->end;
    date_memo memo = {{0}, 0, 0};
    Py_ssize_t i = 0;
    int64_t before = INT64_MIN;
    int needed = 0, most = 0;
    p->ok = 0;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        if (e > s && e[-1] == '\r') e--;
        if (e - s < MIN_LINE || s[WIDTH] != ',' || i >= p->capacity) return NULL;
        int64_t at;
        if (!read_time(s, &memo, &at) || at <= before) return NULL;
        if (!read_value(s + WIDTH + 1, e, &p->v[i], &p->places[i], &needed)) return NULL;
        if (needed > most) most = needed;
        p->t[i++] = before = at;
        s = nl ? nl + 1 : end;
    }
    p->rows = i;
    p->needed = most;
    p->ok = 1;
    return NULL;
}

/* Scale the values of rows [0, n) to ``scale`` places, the most any value needs (a value
 * written with more places has that many trailing zeros: divided exactly); 0 if one does not
 * fit an int64. */
static int rescale(int64_t *v, const uint8_t *places, Py_ssize_t n, int scale) {
    for (Py_ssize_t i = 0; i < n; i++) {
        int shift = scale - places[i];
        if (shift > 0) {
            if (__builtin_mul_overflow(v[i], POW10[shift], &v[i])) return 0;
        } else if (shift < 0) {
            v[i] /= POW10[-shift];
        }
    }
    return 1;
}

static int whole_items(Py_buffer *b, Py_ssize_t itemsize, const char *name) {
    if (b->len % itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes is not a whole number of items", name,
                     b->len);
        return 0;
    }
    return 1;
}

static PyObject *historian(PyObject *self, PyObject *args) {
    Py_buffer data, tb, vb, pb;
    Py_ssize_t start;
    int threads;
    if (!PyArg_ParseTuple(args, "y*nw*w*w*i", &data, &start, &tb, &vb, &pb, &threads))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t capacity = pb.len;
    if (!whole_items(&tb, 8, "t") || !whole_items(&vb, 8, "v")) goto done;
    if (tb.len / 8 < capacity) capacity = tb.len / 8;
    if (vb.len / 8 < capacity) capacity = vb.len / 8;
    if (start < 0 || start > data.len) {
        PyErr_SetString(PyExc_ValueError, "start: outside the data");
        goto done;
    }
    const char *begin = (const char *)data.buf + start, *end = (const char *)data.buf + data.len;
    int64_t *t = (int64_t *)tb.buf, *v = (int64_t *)vb.buf;
    uint8_t *pl = (uint8_t *)pb.buf;
    part parts[2];
    int n_parts = (threads > 1 && end - begin > (1 << 20)) ? 2 : 1;
    int ok = 1, scale = 0;
    Py_ssize_t rows = 0;
    Py_BEGIN_ALLOW_THREADS;
    /* two parts split at a line's end; the second writes from the row it cannot precede */
    const char *cut = end;
    if (n_parts == 2) {
        const char *middle = begin + (end - begin) / 2;
        const char *nl = memchr(middle, '\n', (size_t)(end - middle));
        if (nl == NULL || nl + 1 >= end) n_parts = 1;
        else cut = nl + 1;
    }
    Py_ssize_t second = n_parts == 2 ? (cut - begin) / (MIN_LINE + 1) + 1 : capacity;
    if (second > capacity) n_parts = 1, cut = end, second = capacity;
    parts[0] = (part){begin, cut, t, v, pl, second, 0, 0, 0};
    if (n_parts == 2)
        parts[1] = (part){cut, end, t + second, v + second, pl + second, capacity - second, 0, 0, 0};
    pthread_t other;
    int spawned = n_parts == 2 && pthread_create(&other, NULL, read_part, &parts[1]) == 0;
    if (n_parts == 2 && !spawned) read_part(&parts[1]);
    read_part(&parts[0]);
    if (spawned) pthread_join(other, NULL);
    for (int k = 0; k < n_parts; k++) ok = ok && parts[k].ok;
    if (ok && n_parts == 2) {
        Py_ssize_t a = parts[0].rows, b = parts[1].rows;
        /* the second part's first time must follow the first part's last */
        if (a > 0 && b > 0 && t[second] <= t[a - 1]) ok = 0;
        if (ok && b > 0 && second != a) {
            memmove(t + a, t + second, (size_t)b * sizeof(int64_t));
            memmove(v + a, v + second, (size_t)b * sizeof(int64_t));
            memmove(pl + a, pl + second, (size_t)b);
        }
        rows = a + b;
    } else if (ok) {
        rows = parts[0].rows;
    }
    if (ok && rows > 0) {
        for (int k = 0; k < n_parts; k++)
            if (parts[k].needed > scale) scale = parts[k].needed;
        ok = rescale(v, pl, rows, scale);
    }
    Py_END_ALLOW_THREADS;
    if (ok && rows > 0) result = Py_BuildValue("(ni)", rows, scale);
    else result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&data);
    PyBuffer_Release(&tb);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&pb);
    return result;
}

/* ---- the sequential judgement against the normal readings' mean --------------------------- */

typedef __int128 wide;

/* The first index in [lo, hi) of sorted ``t`` whose time is at least ``x`` (hi if none):
 * numpy's searchsorted(t, x, side="left"). */
static Py_ssize_t first_at_least(const int64_t *t, Py_ssize_t lo, Py_ssize_t hi, int64_t x) {
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (t[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static PyObject *trailing_normal(PyObject *self, PyObject *args) {
    Py_buffer tb, vb, sb, eb, wb, pb, qb, lb, nb;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*w*", &tb, &vb, &sb, &eb, &wb, &pb, &qb, &lb,
                          &nb))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = tb.len / 8, rules = sb.len / 8;
    if (vb.len != tb.len || nb.len != n || eb.len != sb.len || wb.len != sb.len ||
        pb.len != sb.len || qb.len != sb.len || lb.len != rules) {
        PyErr_SetString(PyExc_ValueError, "trailing_normal: arrays of unequal lengths");
        goto done;
    }
    const int64_t *t = tb.buf, *v = vb.buf, *starts = sb.buf, *stops = eb.buf;
    const int64_t *windows = wb.buf, *ps = pb.buf, *qs = qb.buf;
    const uint8_t *live = lb.buf;
    uint8_t *normal = nb.buf;
    long long judged = 0, unjudged = 0, carried = 0;
    Py_BEGIN_ALLOW_THREADS;
    memset(normal, 1, (size_t)n);
    for (Py_ssize_t r = 0; r < rules; r++) {
        Py_ssize_t a = starts[r] < 0 ? 0 : starts[r], b = stops[r] > n ? n : stops[r];
        if (b <= a) continue;
        if (!live[r]) {
            unjudged += b - a;
            continue;
        }
        int64_t window = windows[r];
        wide p = ps[r], q = qs[r];
        /* the first reading with a whole window of history behind it (b > a: n > 0) */
        Py_ssize_t first = first_at_least(t, 0, n, t[0] + window);
        if (first < a) first = a;
        if (first > b) first = b;
        unjudged += first - a;
        if (first == b) continue;
        /* the window of the first judged reading: [t - window, t) */
        Py_ssize_t j = first_at_least(t, 0, first, t[first] - window);
        wide sum = 0;
        long long count = 0;
        for (Py_ssize_t k = j; k < first; k++)
            if (normal[k]) sum += v[k], count++;
        /* the last normal reading before the one judged, and the mean carried from it: the
         * normal readings of (t[last] - window, t[last]], taken when first needed */
        Py_ssize_t last = first - 1, carried_for = -1;
        while (last >= 0 && !normal[last]) last--;
        wide carried_sum = 0;
        long long carried_count = 0;
        for (Py_ssize_t i = first; i < b; i++) {
            int64_t bound = t[i] - window;
            while (j < i && t[j] < bound) {
                if (normal[j]) sum -= v[j], count--;
                j++;
            }
            if (count > 0) {
                judged++;
                if (q * (wide)count * (wide)v[i] > p * sum) normal[i] = 0;
            } else if (last < 0) {
                unjudged++; /* no normal reading before it at all (never after a first day) */
            } else {
                if (carried_for != last) {
                    carried_sum = 0, carried_count = 0;
                    for (Py_ssize_t k = last; k >= 0 && t[k] > t[last] - window; k--)
                        if (normal[k]) carried_sum += v[k], carried_count++;
                    carried_for = last;
                }
                judged++;
                carried++;
                if (q * (wide)carried_count * (wide)v[i] > p * carried_sum) normal[i] = 0;
            }
            if (normal[i]) sum += v[i], count++, last = i;
        }
    }
    Py_END_ALLOW_THREADS;
    result = Py_BuildValue("(LLL)", judged, unjudged, carried);
done:
    PyBuffer_Release(&tb);
    PyBuffer_Release(&vb);
    PyBuffer_Release(&sb);
    PyBuffer_Release(&eb);
    PyBuffer_Release(&wb);
    PyBuffer_Release(&pb);
    PyBuffer_Release(&qb);
    PyBuffer_Release(&lb);
    PyBuffer_Release(&nb);
    return result;
}

static PyMethodDef methods[] = {
    {"historian", historian, METH_VARARGS,
     "historian(data, start, t, v, places, threads) -> (rows, scale) | None"},
    {"trailing_normal", trailing_normal, METH_VARARGS,
     "trailing_normal(t, v, starts, stops, windows, ps, qs, live, normal) -> (judged, unjudged, carried)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "sewer_native._kernels",
    "Two loops of sewer_rules.monitoring in C (see the source's header).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&module); }
