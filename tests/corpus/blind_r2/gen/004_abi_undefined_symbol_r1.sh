#!/bin/bash
# Two torchrun agents (--nnodes 2, static rendezvous, node ranks 0 and 1) on localhost, simulating
# two nodes whose images differ: node B's fastops/_C.so references a missing torch symbol.
# Both agents write to one shared job output file (like an sbatch output file).
set -u
RUN=/work/blind/r2/runs/004_abi_undefined_symbol_r1; D=/work/blind/r2/data/004
rm -rf $RUN $D; mkdir -p $RUN $D/nodeA/fastops $D/nodeB/fastops; cd $RUN
INC=/root/.pyenv/versions/3.11.7/include/python3.11
for n in A B; do
cat > $D/node$n/fastops/__init__.py <<'PY'
__version__ = "0.4.1"
from ._C import abi_tag  # compiled part
import torch
def fused_square_mean(x):
    return x.pow(2).mean()
PY
if [ $n = A ]; then EXTRA=""; else EXTRA="-DUSE_OLD_TORCH_SYMBOL"; fi
cat > $D/c_src.c <<'C'
#include <Python.h>
#ifdef USE_OLD_TORCH_SYMBOL
extern void _ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSs(void);
#endif
static PyObject* abi_tag(PyObject* s, PyObject* a) {
#ifdef USE_OLD_TORCH_SYMBOL
  _ZN3c106detail23torchInternalAssertFailEPKcS2_jS2_RKSs();
#endif
  return PyUnicode_FromString("cxx11abi");
}
static PyMethodDef M[] = {{"abi_tag", abi_tag, METH_NOARGS, ""}, {0}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "_C", 0, -1, M};
PyMODINIT_FUNC PyInit__C(void) { return PyModule_Create(&mod); }
C
gcc -shared -fPIC $EXTRA -I$INC $D/c_src.c -o $D/node$n/fastops/_C.cpython-311-x86_64-linux-gnu.so
done
export OMP_NUM_THREADS=1
: > console.log
common="--nnodes 2 --nproc-per-node 1 --rdzv-backend static --master-addr 127.0.0.1 --master-port 29614 --max-restarts 0"
SIM_NODE=nodeA PYTHONPATH=$D/nodeA /work/blind/venv/bin/torchrun $common --node-rank 0 /work/blind/r2/gen/004_abi_undefined_symbol_r1.py >> console.log 2>&1 &
A=$!
sleep 2
SIM_NODE=nodeB PYTHONPATH=$D/nodeB /work/blind/venv/bin/torchrun $common --node-rank 1 /work/blind/r2/gen/004_abi_undefined_symbol_r1.py >> console.log 2>&1 &
B=$!
wait $A; echo "node A exit $?"; wait $B; echo "node B exit $?"
