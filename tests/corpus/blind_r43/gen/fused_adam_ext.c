/* a Python extension built against another torch: references a c10 symbol the installed torch lacks */
#include <Python.h>
extern void _ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSsv2(void);
static PyObject *step(PyObject *self, PyObject *args) { _ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSsv2(); Py_RETURN_NONE; }
static PyMethodDef M[] = {{"step", step, METH_VARARGS, ""}, {0}};
static struct PyModuleDef D = {PyModuleDef_HEAD_INIT, "fused_adam_ext", 0, -1, M};
PyMODINIT_FUNC PyInit_fused_adam_ext(void) { return PyModule_Create(&D); }
