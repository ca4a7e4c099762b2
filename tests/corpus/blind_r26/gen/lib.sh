# shared helpers for r26 generators
set -u
source /work/blind/venv/bin/activate
R=/work/blind/r26
T=$R/gen/train.py
W=$R/work
export SLURM_CONF=/work/blind/slurm26/slurm.conf
export PYTHONUNBUFFERED=1
# mkrun NAME: logs are produced under a neutral path ($R/stage/jNNN, work dir $R/work/jNNN) so that
# the run's descriptive name never appears inside its logs; on exit they are moved to runs/NAME.
mkrun() {
  RUNNAME=$1; NUM=${1%%_*}
  RUN=$R/stage/j$NUM; rm -rf "$RUN"; mkdir -p "$RUN"
  WD=$W/j$NUM; rm -rf "$WD"; mkdir -p "$WD"; cd "$WD"
  trap publish EXIT
}
publish() { rm -rf "$R/runs/$RUNNAME"; mv "$RUN" "$R/runs/$RUNNAME"; echo "published $RUNNAME"; }
# onnode HOST CMD...: run CMD in its own UTS namespace with hostname HOST
onnode() { local h=$1; shift; unshare --uts sh -c "hostname $h; exec \"\$@\"" sh "$@"; }
waitjob() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 2; done; }
