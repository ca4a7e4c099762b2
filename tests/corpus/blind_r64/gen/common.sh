T=/work/blind/torchenv/bin; PY=$T/python; TR=$T/torchrun; G=/work/blind/r64/gen; R=/work/blind/r64/runs
export PYTHONUNBUFFERED=1
w(){ W=/tmp/b64/w$1; rm -rf $W; mkdir -p $W $R/$1; cd $W; }
