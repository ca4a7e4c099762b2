set -u
S=/work/blind/r63
PY=/work/blind/torchenv/bin/python
TR=/work/blind/torchenv/bin/torchrun
G=$S/gen
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 HF_HUB_OFFLINE=0 TOKENIZERS_PARALLELISM=false
rd() { mkdir -p $S/runs/$1; cd $S/runs/$1; }
