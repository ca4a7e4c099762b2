# shared shell helpers for r24 generators
PY=/work/blind/venv/bin/python
TORCHRUN=/work/blind/venv/bin/torchrun
R=/work/blind/r24
descendants() { local p=$1; for c in $(ps -o pid= --ppid $p); do echo $c; descendants $c; done; }
killtree() { # SIGKILL a process and all its descendants at once (simulated node loss)
  local sig=$1 p=$2; local all="$p $(descendants $p)"; kill -$sig $all 2>/dev/null; echo "killed($sig): $all"; }
wait_for() { # wait_for FILE PATTERN SECONDS
  for i in $(seq 1 $(( $3 * 5 ))); do grep -q -- "$2" "$1" 2>/dev/null && return 0; sleep 0.2; done; return 1; }
