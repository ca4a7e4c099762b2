source /work/blind/r64/gen/common.sh
e052(){ w 052; HF_HOME=$W/hf timeout 300 $TR --nproc-per-node 2 --master-port 29752 $G/acc_hub.py > $R/052/console.log 2>&1; echo "052 rc=$?"; }
for r in "$@"; do e$r; done
