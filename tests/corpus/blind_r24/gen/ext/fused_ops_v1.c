/* fused_ops extension, stale build compiled against an older torch: references a c10 symbol
   that the installed libtorch no longer exports */
#include <Python.h>
extern void* _ZN3c1019UndefinedTensorImpl10_singletonE_v1(void);
extern int _ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSs(const char*, const char*, unsigned, const char*, void*);
static PyObject* version(PyObject* self, PyObject* args) {
  _ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSs("a", "b", 1, "c", 0);
  return PyUnicode_FromString("1.4.0"); }
static PyMethodDef M[] = {{"version", version, METH_NOARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "fused_ops", NULL, -1, M};
PyMODINIT_FUNC PyInit_fused_ops(void) { return PyModule_Create(&mod); }
