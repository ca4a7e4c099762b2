L = []
def add(run, cls, rank, alt, launcher, how, ev):
    L.append(dict(run=run, inputs=["."], **{"class": cls}, initiating_rank=rank, alt_class=alt, launcher=launcher, how=how, evidence=ev))
add("001_stalled_epoch","nccl_timeout",1,"job_hang_no_progress","torchrun --tee 3 (3 procs)",
    "rank 1 blocks forever reading a FIFO with no writer at step 12; ranks 0,2 hit the gloo 20s timeout in DDP allreduce; torchrun SIGTERMs rank 1",
    ["rank1 last line: 'switching to streamed shard via .../prefetch.pipe'","ranks 0,2: 'Timed out waiting 20000ms for recv/send operation'","rank 1 exit -15 SIGTERM, root cause points to rank 0"])
add("002_pretrain_2x","host_oom_killed",0,None,"torchrun --log-dir --redirects 3 (2 procs)",
    "rank 0 leaks ~384MB/step of host RAM; an external memory watchdog (OOM-killer stand-in) SIGKILLs it at RSS>2.2GB; rank 1 gets connection closed by peer",
    ["rank 0 stdout host_rss_mb 304->1841 over 4 steps","torchrun: rank 0 exitcode -9 (SIGKILL)","rank 1: 'Connection closed by peer'"])
add("003_finetune_spawn","nccl_remote_peer_exited",2,"tokenizer_or_data_error","mp.spawn (3 procs)",
    "rank 2's data shard is shorter (22 vs 30 batches); it finishes its epoch and exits 0 without a barrier; ranks 0,1 fail with connection closed by peer",
    ["worker2: 'dataset shard 2: 176 samples, 22 batches' vs 240/30 on others","worker2: 'epoch finished after 22 batches, exiting'","ProcessRaisedException for Process 0: Connection closed by peer"])
add("004_srun_sft","collective_mismatch",2,None,"srun --label (3 tasks), TORCH_DISTRIBUTED_DEBUG=DETAIL",
    "at step 14 rank 2 calls all_reduce(stats) before broadcast(lr) while ranks 0,1 call broadcast first",
    ["'Detected mismatch between collectives on ranks'","rank 2 running ALLREDUCE TensorShape=[2], ranks 0,1 BROADCAST [1]","srun: tasks 0,1,2 exit code 1"])
add("005_bash_launch","collective_mismatch",1,None,"bash loop, per-rank log files (4 procs)",
    "at step 17 rank 1 all_reduces a 40-element histogram while others use 32; gloo on rank 0 aborts (EnforceNotMet size mismatch), ranks 1-3 get connection reset/closed",
    ["worker_1.log: 'buckets=40' vs 'buckets=32' elsewhere","worker_0.log: 'Received data size doesn't match expected size. Is there a distributed collective mismatch'","launch.log: worker 0 exit 134, others 1"])
add("006_homegrown_launcher","tokenizer_or_data_error",2,"python_exception_other","custom Python subprocess launcher (3 procs), stderr unprefixed",
    "rank 2's prefetch thread hits a malformed JSONL record and dies (unprefixed 'Exception in thread prefetch'); rank 2's main thread blocks on the queue; ranks 0,1 gloo-timeout after 20s; launcher SIGTERMs rank 2",
    ["'Exception in thread prefetch: ... JSONDecodeError: Invalid control character' with no rank prefix","w2 stops logging steps earlier; ranks 0,1 'Timed out waiting 20000ms'","launch: worker 2 returncode=-15"])
add("007_two_rank_filtered","python_exception_other",0,"dependency_abi_mismatch","torchrun --standalone --tee 3 --local-ranks-filter 1 (2 procs)",
    "rank 0 segfaults (ctypes null-pointer read in a 'fused' fast path) at step 9; console only shows rank 1, which gets connection reset by peer",
    ["torchrun Root Cause: rank 0 exitcode -11 (SIGSEGV)","rank 1: 'Read error ... Connection reset by peer'","no rank 0 output on console (filtered)"])
add("008_srun_kob","shape_mismatch",1,None,"srun --label --kill-on-bad-exit=1 (3 tasks)",
    "rank 1 gets a batch with 33 features at step 13 -> mat1/mat2 shape error; srun kills tasks 0,2 which also report connection closed by peer",
    ["1: RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x33 and 32x64)","srun: error: vm: task 1: Exited with exit code 1","STEP CANCELLED; tasks 0,2: Terminated"])
add("009_nightly_sbatch","job_hang_no_progress",1,"slurm_time_limit","sbatch + srun --label (3 tasks), --time=1, gloo timeout 1800s",
    "at step 16 rank 1's main thread and a metrics-flush thread deadlock on two locks (opposite order); ranks 0,2 wait in DDP allreduce (30 min timeout) until Slurm kills the job at its 1-minute limit; faulthandler dumps stacks on SIGTERM",
    ["last step logged 00:18:10, then nothing until 'CANCELLED ... DUE TO TIME LIMIT' at 00:19:03","rank 1 stack: thread in flusher, main at train.py:153 (not in backward)","ranks 0,2 stacks in autograd backward (DDP allreduce)"])
add("010_long_pretrain","slurm_time_limit",None,None,"sbatch + srun (2 tasks, no label), --time=1",
    "healthy training that keeps logging steps and checkpointing until Slurm cancels the job at its 1-minute time limit",
    ["steps keep advancing until the end","'JOB n ON vm CANCELLED AT ... DUE TO TIME LIMIT'","tasks Terminated, no Python exception"])
add("011_spot_queue","preemption_sigterm",None,None,"sbatch + srun (3 tasks, no label)",
    "healthy training; the scheduler sends SIGTERM to all tasks of the job step (scancel -s TERM, as a preemption/spot reclaim would); every rank writes an emergency checkpoint and exits 143",
    ["'STEP n.0 ON vm CANCELLED' then all ranks 'received signal SIGTERM; will checkpoint and stop'","'emergency checkpoint written at step 66, exiting with 143'","srun: tasks 0-2 exited with exit code 143"])
add("012_resilient_run","nan_inf_loss",1,"rendezvous_failure","torchrun --max-restarts 1 (2 procs), JSON logs",
    "attempt 0: rank 1 gets a batch with an inf feature at step 18 -> loss NaN -> FloatingPointError; rank 0 loses its peer; attempt 1 (restart) dies at start-up with a gloo connectFullMesh 'Connection refused' on rank 0",
    ["[rank1]: FloatingPointError: Loss is nan at step 18","attempt 0: rank 0 'Connection closed by peer'","after restart: 'Gloo connectFullMesh failed ... Connection refused'; final root cause names rank 0"])
add("013_ckpt_every_10","checkpoint_disk_full",1,"checkpoint_corrupt","torchrun --max-restarts 1 --log-dir --redirects 3 (2 procs)",
    "rank 1's checkpoint shard dir is a full 1 MiB filesystem: torch.save at step 10 fails ('basic_ios::clear: iostream error' / 'unexpected pos'), leaving a truncated 1048576-byte file; after the restart rank 1 cannot read it ('failed finding central directory')",
    ["attempt_0/1/stderr: 'basic_ios::clear: iostream error' then 'inline_container.cc:672 unexpected pos 10240 vs 10132' during torch.save","attempt_1/1: shard is 1048576 bytes; 'PytorchStreamReader failed reading zip archive: failed finding central directory'","rank 0 shard 1611267 bytes loads fine (step=10)"])
add("014_restart_after_crash","port_in_use",0,None,"bash loop, rankN.out/.err files (3 procs)",
    "a leftover process holds MASTER_PORT 26414; rank 0 cannot bind the TCPStore (EADDRINUSE); ranks 1,2 connect to the stale listener and get connection reset",
    ["rank0.err: 'failed to listen ... port: 26414 ... EADDRINUSE'","rank1.err/rank2.err: DistNetworkError: Connection reset by peer (TCPStore client)","all ranks exit 1 before any step"])
add("015_two_node_bringup","rendezvous_failure",None,None,"two torchrun agents (c10d rendezvous) as two nodes, 1 proc each",
    "node 1's agent is given a wrong rendezvous endpoint (10.255.255.1:26415, not the master); the sandbox network answers with a non-store reply, so node 1 fails to connect to the C10d store and node 0 waits out its 30s join timeout; no worker ever starts",
    ["node1: 'RendezvousConnectionError: The connection to the C10d store has failed' (Ping failed, invalid value)","node0: RendezvousTimeoutError","no training output on either node"])
add("016_tokenizer_fetch","hub_network_error",1,"tokenizer_or_data_error","torchrun --tee 1 --log-dir --redirects 3 (2 procs)",
    "rank 1 has a tokenizer cache miss and downloads the vocab from a remote hub URL before init; the request fails (the sandbox network answers HTTP 404); torchrun SIGTERMs rank 0",
    ["[default1]: 'tokenizer cache miss ... downloading http://10.255.255.1:26080/...'","attempt_0/1/stderr.log: urllib.error.HTTPError: HTTP Error 404: Not Found","torchrun Root Cause: rank 1 exitcode 1; rank 0 SIGTERM"])
add("017_plain_srun","too_many_open_files",0,None,"srun without --label (3 tasks), ulimit -n 256, unprefixed 'bare' log lines",
    "rank 0 opens metrics files every step without closing them; at step 39 it hits EMFILE; ranks 1,2 get connection closed by peer",
    ["[rank0]: OSError: [Errno 24] Too many open files: '.../metrics/r0_s00039_0.json'","ranks 1,2: Connection closed by peer","srun: error: vm: task 0: Exited with exit code 1 (listed first)"])
add("018_baseline_4proc","healthy",None,None,"torchrun --standalone --tee 3 (4 procs)",
    "normal 25-step run; DDP warns find_unused_parameters=True found no unused parameters",
    ["all 4 ranks 'training complete, 25 steps'","reducer.cpp Warning: find_unused_parameters=True ... did not find any unused parameters","torchrun exit 0"])
add("019_srun_json_ok","healthy",None,None,"srun --label (3 tasks), JSON logs",
    "normal 30-step run with benign retry/clipping warnings",
    ["'shard read slow, retrying ... Read timed out' then 'shard read ok on retry'","'grad norm 41.2 exceeds clip 1.0, clipping'","all ranks 'training complete, 30 steps'"])
add("020_spawn_progress","healthy",None,None,"mp.spawn (2 procs), tqdm-like progress",
    "normal 30-step run with benign warnings",
    ["progress bars reach 100% 30/30","'Read timed out ... ok on retry'","'training complete' on worker0 and worker1"])
import json
with open("/work/blind/r21/labels.jsonl","w") as f:
    for d in L: f.write(json.dumps(d)+"\n")
print(len(L))
