/*
 * sewer_native._kernels — two loops that Python and numpy cannot run fast enough.
 *
 * This file knows no law. It holds the mechanics of two steps whose meaning is decided in
 * sewer_rules, which calls them through sewer_engines.monitoring.native and keeps its own
 * numpy and polars implementations of both (used whenever this module is not built, and
 * compared with it by the tests on generated inputs):
 *
 * historian(data, start, columns, t, v, rows, places, meters, edges, offsets, threads)
 *     Reads the body of a meter file's CSV (``timestamp,value``, with or without a meter
 *     column, the times in any layout the general reader takes without a remark) into
 *     instants and exact scaled values, meter by meter; None at the first line it does not
 *     take as the general reader would. In ``_historian.c``, whose header says what it takes.
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

#include "_historian.h"

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
     "historian(data, start, columns, t, v, rows, places, meters, edges, offsets, threads)"
     " -> [(meter, start, count, scale, missing, ordered), ...] | None"},
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
