/* tiny "fused ops" extension; built with -DNEW_API it calls into a newer libtorch symbol */
#include <Python.h>
#ifdef NEW_API
extern void _ZN2at4_ops10fast_gelu_4callERKNS_6TensorE(void);
static PyObject *probe(PyObject *s, PyObject *a) { _ZN2at4_ops10fast_gelu_4callERKNS_6TensorE(); Py_RETURN_NONE; }
#else
static PyObject *probe(PyObject *s, PyObject *a) { Py_RETURN_NONE; }
#endif
static PyMethodDef M[] = {{"probe", probe, METH_NOARGS, ""}, {0}};
static struct PyModuleDef D = {PyModuleDef_HEAD_INIT, "fastops", 0, -1, M};
PyMODINIT_FUNC PyInit_fastops(void) { return PyModule_Create(&D); }
