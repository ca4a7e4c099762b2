/* tiny "fused ops" extension. The STALE build was compiled against an older
 * libc10 and references a symbol the installed torch no longer exports. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#ifdef STALE
extern void _ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_ib(void);
static void touch(void) { _ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_ib(); }
#endif
static PyObject *version(PyObject *self, PyObject *args) {
#ifdef STALE
    if (args == (PyObject *)1) touch();
#endif
    return PyUnicode_FromString("0.4.1");
}
static PyMethodDef M[] = {{"version", version, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef D = {PyModuleDef_HEAD_INIT, "_C", NULL, -1, M};
PyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&D); }
