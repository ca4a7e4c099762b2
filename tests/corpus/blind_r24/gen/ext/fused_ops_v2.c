/* fused_ops extension, current build (no external deps) */
#include <Python.h>
static PyObject* version(PyObject* self, PyObject* args) { return PyUnicode_FromString("2.1.0"); }
static PyMethodDef M[] = {{"version", version, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "fused_ops", NULL, -1, M};
PyMODINIT_FUNC PyInit_fused_ops(void) { return PyModule_Create(&mod); }
