export PY=/work/blind/torchenv/bin/python TR=/work/blind/torchenv/bin/torchrun W=/work/blind/r59/gen/w.py
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
R=/work/blind/r59/runs
mk() { rm -rf $R/$1; mkdir -p $R/$1; cd $R/$1; echo "== run $1"; }
