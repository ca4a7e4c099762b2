V=/work/blind/venv/bin
PY=$V/python
TR=$V/torchrun
G=/work/blind/r45/set/gen
R=/work/blind/r45/set/runs
W=/work/blind/r45/work
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkrun() { rm -rf "$R/$1"; mkdir -p "$R/$1"; cd "$R/$1"; }
