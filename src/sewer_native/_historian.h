/* The reader of meter files' CSV (``_historian.c``; its header says what it takes). */
#ifndef SEWER_NATIVE_HISTORIAN_H
#define SEWER_NATIVE_HISTORIAN_H

#include <Python.h>

PyObject *historian(PyObject *self, PyObject *args);

#endif
