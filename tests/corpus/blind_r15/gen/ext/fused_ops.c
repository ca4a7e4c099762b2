#include <Python.h>
#ifdef STALE_BUILD
/* built against an older libtorch: references a c10 symbol that no longer exists */
extern void _ZN3c106detail14torchCheckFailEPKcS2_jRKSs(const char*, const char*, unsigned, const void*);
static PyObject* check(PyObject* self, PyObject* args) {
    _ZN3c106detail14torchCheckFailEPKcS2_jRKSs("f", "x.cpp", 1, NULL);
    Py_RETURN_NONE;
}
#else
static PyObject* check(PyObject* self, PyObject* args) { Py_RETURN_NONE; }
#endif
static PyMethodDef M[] = {{"check", check, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "fused_ops", NULL, -1, M};
PyMODINIT_FUNC PyInit_fused_ops(void) { return PyModule_Create(&mod); }
