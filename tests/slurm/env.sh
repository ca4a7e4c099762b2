# Sourced by start.sh and stop.sh: where the test cluster keeps its state, pid files and its own slurm.conf.
# Its daemons and every client the tests run read $SLURM_CONF (tests/conftest.py points there too), so a
# machine's /etc/slurm is never read or written.
STATE=${DENPEX_SLURM_DIR:-/var/tmp/denpex-slurm}
export SLURM_CONF=$STATE/slurm.conf

# The pid of our DAEMON (slurmctld, slurmd) from the pid file its config names, while that process is it and alive.
our_pid() {
  local pid stat
  pid=$(cat "$STATE/$1.pid" 2>/dev/null) && [ -n "$pid" ] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$1" ] || return 1
  stat=$(ps -o stat= -p "$pid") && [[ $stat != Z* ]] && echo "$pid"  # a zombie has exited
}
