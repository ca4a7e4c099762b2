// tinylm_fused: fused bias+gelu kernels (CPU build). The "stale" build variant references a symbol from an
// older torch (c10::cuda::getCurrentCUDAStream(signed char)), as a wheel built against another torch would.
#include <Python.h>
#ifdef STALE_BUILD
#include <stdlib.h>
extern void* _ZN3c104cuda20getCurrentCUDAStreamEa(signed char);
#endif
static PyObject* version(PyObject* self, PyObject* args) { return PyUnicode_FromString("0.3.1"); }
static PyMethodDef methods[] = {{"version", version, METH_NOARGS, "build version"}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "tinylm_fused", NULL, -1, methods};
PyMODINIT_FUNC PyInit_tinylm_fused(void) {
#ifdef STALE_BUILD
  if (getenv("TINYLM_FUSED_STREAM")) _ZN3c104cuda20getCurrentCUDAStreamEa(0);
#endif
  return PyModule_Create(&mod);
}
