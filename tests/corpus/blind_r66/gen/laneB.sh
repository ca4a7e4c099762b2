#!/bin/bash
# Lane B: Slurm (sbatch+srun) runs on the private cluster. Usage: laneB.sh [run ...]
source /work/blind/slurm66/env.sh
export PATH=/work/blind/torchenv/bin:$PATH
G=/work/blind/r66/gen; R=/work/blind/r66/runs
prep() { rm -rf $R/$1; mkdir -p $R/$1; cd $R/$1; }
# wrapper exporting torch env from Slurm's
W='export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID MASTER_ADDR=127.0.0.1; exec python '$G/train.py
sb() { # name port srunopts env... ; extra sbatch opts in SBOPTS
  local name=$1 port=$2 sopts=$3; shift 3
  cat > job.sbatch <<J
#!/bin/bash
#SBATCH -J $name
#SBATCH -n ${NT:-3}
#SBATCH --time=${TL:-5}
echo "job \$SLURM_JOB_ID on \$(hostname) tasks=\$SLURM_NTASKS"
export MASTER_PORT=$port $*
srun $sopts bash -c '$W'
echo "srun exit code \$?"
J
  jid=$(sbatch --parsable $SBOPTS job.sbatch); echo $jid > /tmp/r66_jid_$name
  while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; [ -n "$CANCEL_AFTER" ] && [ $SECONDS -ge $CANCEL_AFTER ] && { scancel $jid; CANCEL_AFTER=; }; done
  scontrol show job $jid | grep -E 'JobState|RunTime' > /tmp/r66_state_$name
  cp job.sbatch $G/job_$name.sbatch; rm job.sbatch
}
run() {
case $1 in
017) prep 017; mkdir -p /tmp/r66_017ck; ln -sf /dev/full /tmp/r66_017ck/step3.pt; sb r017 29817 "-l" FAULT=ckpt_full FAULT_RANK=0 FAULT_STEP=3 CKPT_DIR=/tmp/r66_017ck; rm -rf /tmp/r66_017ck ;;
018) prep 018; rm -rf /tmp/r66_018ck; sb r018 29818 "-o %x-%j-%t.out" FAULT=ckpt_load_mismatch CKPT_DIR=/tmp/r66_018ck; rm -rf /tmp/r66_018ck ;;
020) prep 020; NT=2 TL=1 sb r020 29820 "-l" STEPS=100000 STEP_SLEEP=0.5 PG_TIMEOUT=600 LOGFMT=logging ;;
021) prep 021; SECONDS=0; CANCEL_AFTER=25 NT=2 sb r021 29821 "" STEPS=100000 STEP_SLEEP=0.5 PG_TIMEOUT=600 ;;
022) prep 022; sb r022 29822 "-l --kill-on-bad-exit=1" FAULT=segv FAULT_RANK=2 FAULT_STEP=4 ;;
023) prep 023; TL=1 sb r023 29823 "-l" FAULT=thread_data FAULT_RANK=1 FAULT_STEP=2 PG_TIMEOUT=600 ;;
031) prep 031; NT=2 sb r031 29831 "-l" LOGFMT=json ;;
032) prep 032; sb r032 29832 "-o %x-%j-%t.out" FAULT=spin FAULT_RANK=0 FAULT_STEP=3 PG_TIMEOUT=15 ;;
esac
}
for r in "$@"; do echo "== $r $(date +%T)"; run $r; echo "== $r done $(date +%T)"; cat /tmp/r66_state_* 2>/dev/null | tail -2; done
