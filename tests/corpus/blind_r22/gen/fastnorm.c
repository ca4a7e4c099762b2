#define PY_SSIZE_T_CLEAN
#include <Python.h>
/* GOOD build: the kernel is compiled in. BAD build (-DSTALE): it refers to a symbol of a
   newer libfastnorm_core that this node does not have. */
#ifdef STALE
extern double fastnorm_forward_v2(double);
#else
static double fastnorm_forward_v2(double x) { return x; }
#endif
static PyObject *fwd(PyObject *self, PyObject *args) { double x; if (!PyArg_ParseTuple(args, "d", &x)) return NULL; return PyFloat_FromDouble(fastnorm_forward_v2(x)); }
static PyMethodDef M[] = {{"forward", fwd, METH_VARARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "_fastnorm", NULL, -1, M};
PyMODINIT_FUNC PyInit__fastnorm(void) { return PyModule_Create(&mod); }
