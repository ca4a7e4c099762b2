#!/bin/bash
# Builds the "fused_ops" extension twice: the current build (node image v2) and a stale build
# compiled against an older torch that references a c10 symbol the installed libc10 lacks.
set -e
B=/work/blind/r8/meta/007_ext; rm -rf $B; mkdir -p $B/node-img-v2/site-packages/fused_ops $B/node-img-v1/site-packages/fused_ops
INC=$(/work/blind/venv/bin/python -c "import sysconfig;print(sysconfig.get_paths()['include'])")
SUF=$(/work/blind/venv/bin/python -c "import sysconfig;print(sysconfig.get_config_var('EXT_SUFFIX'))")
for v in node-img-v2/site-packages node-img-v1/site-packages; do
cat > $B/$v/_C.c <<C
#include <Python.h>
#ifdef STALE
extern void _ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSs(void);
__attribute__((used)) void *fused_ops_keep = (void*)&_ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSs;
#endif
static PyObject* fused_scale(PyObject* self, PyObject* args) { double x, s; if (!PyArg_ParseTuple(args, "dd", &x, &s)) return NULL; return PyFloat_FromDouble(x * s); }
static PyMethodDef M[] = {{"fused_scale", fused_scale, METH_VARARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef D = {PyModuleDef_HEAD_INIT, "_C", NULL, -1, M};
PyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&D); }
C
done
gcc -shared -fPIC -O2 -I$INC -o $B/node-img-v2/site-packages/fused_ops/_C$SUF $B/node-img-v2/site-packages/_C.c
gcc -shared -fPIC -O2 -DSTALE -I$INC -o $B/node-img-v1/site-packages/fused_ops/_C$SUF $B/node-img-v1/site-packages/_C.c
for v in node-img-v2/site-packages node-img-v1/site-packages; do printf 'from fused_ops._C import fused_scale\n__version__ = "0.4.1"\n' > $B/$v/fused_ops/__init__.py; done
echo built
