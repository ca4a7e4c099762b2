#!/bin/bash
# the site software stack provides 'fastops'. node-a has the current build; node-b (task 2) still has a build
# compiled against an older torch, whose .so references an ATen symbol this torch does not export.
R=/work/blind/r9/runs/002_stale_ext_node_b; rm -rf $R; mkdir -p $R/stack/node-a/fastops $R/stack/node-b/fastops $R/build; cd $R
printf '__version__ = "0.4.2"\ndef step(*a, **k):\n    return None\n' > stack/node-a/fastops/__init__.py
cat > build/fastops.c <<'C'
#include <Python.h>
extern void _ZN2at4_ops19fused_adam_step_out4callERKNS_6TensorE(void *);
static PyObject* step(PyObject* self, PyObject* args) { _ZN2at4_ops19fused_adam_step_out4callERKNS_6TensorE(NULL); Py_RETURN_NONE; }
static PyMethodDef M[] = {{"step", step, METH_VARARGS, ""}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "_C", NULL, -1, M};
PyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&mod); }
C
gcc -shared -fPIC -I/root/.pyenv/versions/3.11.7/include/python3.11 build/fastops.c -o stack/node-b/fastops/_C.cpython-311-x86_64-linux-gnu.so
printf '__version__ = "0.3.9"\nfrom ._C import step\n' > stack/node-b/fastops/__init__.py
cat > $R/task_wrapper.sh <<'W'
#!/bin/bash
if [ "$SLURM_PROCID" -lt 2 ]; then export FAKE_NODE=node-a; else export FAKE_NODE=node-b; fi
export PYTHONPATH=$STACK/$FAKE_NODE
exec /work/blind/venv/bin/python -u /work/blind/r9/gen/002_stale_ext_node_b.py
W
chmod +x $R/task_wrapper.sh
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=30002 STACK=$R/stack
timeout 90 srun -p debug -n 3 --label -J fused-opt $R/task_wrapper.sh > $R/job.out 2>&1
echo "exit=$?" >> $R/job.out
