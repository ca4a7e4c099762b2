# helpers for generating runs
export PY=/work/blind/torchenv/bin/python TR=/work/blind/torchenv/bin/torchrun
export OMP_NUM_THREADS=1
R=/work/blind/r60/runs
G=/work/blind/r60/gen
mk() { D=$R/$1; rm -rf $D; mkdir -p $D; echo $D; }
