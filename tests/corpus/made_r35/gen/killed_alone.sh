#!/bin/bash
# One worker killed by the kernel's cgroup OOM killer while its torchrun agent and siblings live on.
# Usage: killed_alone.sh OUTDIR MODE PORT
#   MODE=one   one torchrun agent, 3 workers, --log-dir OUT/logs --tee 3; local rank 2 leaks 32 MB a step
#              and is moved into a cgroup v1 memory cgroup limited to 300 MB: the OOM killer SIGKILLs it.
#   MODE=two   two agents (c10d rendezvous) standing for two nodes, 2 workers each, each with its own
#              --log-dir; global rank 3 (node 1, local rank 1) leaks and is OOM-killed the same way.
#   MODE=node  two agents as in `two`, no leak; after 12 s node 1's agent and both its workers are SIGKILLed
#              together, as when the machine dies (the near miss: a node lost, not one process).
# Needs root (cgroup v1 memory controller at /sys/fs/cgroup/memory), torch, a free PORT.
set -u
out=$1; mode=$2; port=$3
mkdir -p "$out/pids"; here=$(cd "$(dirname "$0")" && pwd)
export PIDDIR="$out/pids" STEPS=120
cg=/sys/fs/cgroup/memory/denpex_killed_alone_$$
confine() {  # put rank $1's process into a 300 MB memory cgroup once it has written its pid
  for _ in $(seq 100); do [ -s "$PIDDIR/rank$1.pid" ] && break; sleep 0.2; done
  mkdir -p "$cg"; echo $((300 << 20)) > "$cg/memory.limit_in_bytes"; echo 0 > "$cg/memory.swappiness"
  cat "$PIDDIR/rank$1.pid" > "$cg/cgroup.procs"
}
if [ "$mode" = one ]; then
  LEAK_RANK=2 torchrun --nproc-per-node 3 --master-port "$port" --log-dir "$out/logs" --tee 3 --monitor-interval 1 \
    "$here/train_leak.py" > "$out/console.log" 2>&1 &
  agent=$!; confine 2; wait $agent; echo "agent exit: $?"
else
  common=(--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$port --rdzv-id ka$$
          --monitor-interval 1 --tee 3)
  leak=-1; [ "$mode" = two ] && leak=3
  LEAK_RANK=$leak torchrun "${common[@]}" --log-dir "$out/node0" "$here/train_leak.py" > "$out/node0.console" 2>&1 &
  a0=$!; sleep 1
  LEAK_RANK=$leak torchrun "${common[@]}" --log-dir "$out/node1" "$here/train_leak.py" > "$out/node1.console" 2>&1 &
  a1=$!
  if [ "$mode" = two ]; then confine 3; else sleep 12; kill -9 $a1 $(pgrep -P $a1); fi
  wait $a0; echo "node0 agent exit: $?"; wait $a1 2>/dev/null
fi
dmesg 2>/dev/null | grep -i -E "oom|killed process" | tail -3 > "$out/dmesg_tail.txt"
rmdir "$cg" 2>/dev/null
true
