#include <Python.h>
extern void at_fused_layernorm_fwd_v2(void);   /* symbol from an older torch build */
static PyObject* ln(PyObject* s, PyObject* a){ at_fused_layernorm_fwd_v2(); Py_RETURN_NONE; }
static PyMethodDef M[] = {{"layernorm", ln, METH_VARARGS, ""}, {0}};
static struct PyModuleDef D = {PyModuleDef_HEAD_INIT, "fused_ops", 0, -1, M};
PyMODINIT_FUNC PyInit_fused_ops(void){ return PyModule_Create(&D); }
