# work id, packer, class, initiating_rank, alt_class, notes
add("001", copy("node0.log", "node1.log"), "nccl_timeout", 3, "job_hang_no_progress",
    "Two torchrun agents (--nnodes 2, 2 procs each), one console per node. Rank 3 (node1) silently sleeps at step 4 and prints nothing; ranks 0-2 hit gloo 15 s send/recv timeouts; agents SIGTERM the rest. Rank 3 is the only rank without a timeout traceback.")
add("002", copy("node0.log", "node1.log"), "native_crash", 2, None,
    "Two agents. Rank 2 (node1) segfaults via ctypes.string_at(0) at step 6 without any Python trace; peers report 'Connection reset/closed by peer'; node1's summary shows rank 2 exitcode -11 (SIGSEGV) as root cause, node0's shows rank 1 exit 1.")
add("003", copy("node0.log", "node1.log"), "host_oom_killed", 1, None,
    "Two agents, logging with rank in format. Rank 1 has RLIMIT_AS=3 GiB and allocates 6 GiB of activations: 'DefaultCPUAllocator: can't allocate memory ... Error code 12'. Others: connection closed by peer.")
add("004", copy("node0.log", "node1.log"), "native_crash", None, "collective_mismatch",
    "PLANNED collective mismatch (rank 2 all_reduce of 7 elements vs 4) with TORCH_DISTRIBUTED_DEBUG=DETAIL; REAL: all 4 ranks died with SIGSEGV at the first DDP step (no step lines printed), before the mismatching call ran. Both launchers report only SIGSEGV exit codes; no single rank started it.")
add("005", zipdir("torchrun_logs", "torchrun_logs.zip"), "tokenizer_or_data_error", 3, "python_exception_other",
    "Two agents with --log-dir torchrun_logs --tee 3; the user uploads the zipped log-dir tree (per node run id / attempt_0 / local rank stdout+stderr). Rank 3 (node1, local rank 1): KeyError: 'labels' when reading the batch dict at step 7; others connection closed by peer.")
add("006", copy("node0.log", "node1.log"), "host_oom_killed", 3, "nccl_remote_peer_exited",
    "Two agents, JSON-lines logs. Rank 3 (node1) is SIGKILLed (self-kill standing in for the OOM killer) at step 8 and prints nothing; only node1's launcher shows 'exitcode -9 (SIGKILL)' for rank 3. Peers: connection reset/closed by peer.")
add("007", copy("node0.log", "node1.log"), "tokenizer_or_data_error", 2, "python_exception_other",
    "Two agents. Rank 2's background prefetch/tokenization thread dies on a bad sample ('Exception in thread prefetch' TypeError: NoneType has no len(), unprefixed in node1's console); rank 2's main thread then blocks on the empty queue silently; ranks 0,1,3 hit gloo 15 s timeouts; rank 2 is SIGTERMed.")
add("008", targz("logs", "logs.tar.gz", ("node0.log", "node1.log")), "healthy", None, None,
    "Two agents with --log-dir logs --redirects 3, JSON-lines logs, 25 steps, both agents exit 0. Inputs: the two consoles plus a tar.gz of the log-dir tree.")
add("009", copy("node0.log", "node1.log"), "hub_network_error", 2, "nccl_system_error",
    "PLANNED healthy restart. Two agents with c10d rendezvous and --max-restarts 1; rank 2 raises a transient 'ConnectionError: failed to fetch shard index from data server' before init (attempt 0, unprefixed traceback in node1). REAL: the restarted group failed too: all ranks 'Gloo connectFullMesh failed ... Connection refused' in init_process_group, then RendezvousClosedError. Labelled by the first failure (data server unreachable at start-up on rank 2).")
add("010", copy("node0.log", "node1.log"), "shape_mismatch", 2, "python_exception_other",
    "Two agents, c10d rendezvous, --max-restarts 1. Attempt 0: rank 2 raises RuntimeError 'expected input batch_size (8) to match target batch_size (6)' at step 3; peers connection closed. The restart then failed with Gloo connectFullMesh connection refused, a third worker set hung in init and the user stopped both agents with SIGTERM (SignalException in the agent traces).")
add("011", copy("node0.log"), "rendezvous_failure", None, None,
    "Only node0's torchrun was started for --nnodes 2 (c10d rendezvous, join_timeout=25): the second node never joined; RendezvousTimeoutError. Input: node0 console only.")
add("012", copy("slurm-*.out"), "native_crash", 2, None,
    "sbatch + srun -l --kill-on-bad-exit=1, 4 tasks. Task 2 calls os.abort() at step 6: 'srun: error: vm: task 2: Aborted', then the step is terminated/CANCELLED and the others report connection closed by peer / Terminated.")
add("013", copy("*.out"), "nccl_timeout", 1, "job_hang_no_progress",
    "sbatch + srun -o %x-%j-%t.out (per-task files) + slurm-%j.out. Task 1 silently sleeps at step 5 (its file ends after 'initialized' and steps); tasks 0,2,3 hit gloo 15 s timeouts and exit 1; the step stayed alive because rank 1 kept sleeping, and the user scancelled the job (CANCELLED line).")
add("014", copy("*.out"), "dtype_mismatch", 3, None,
    "sbatch + srun --kill-on-bad-exit=1 with per-task output files. Task 3: 'expected m1 and m2 to have the same dtype, but got: float != double' at the first step; srun terminates tasks 0-2 (CANCELLED), which had connection-closed errors.")
add("015", copy("slurm-*.out"), "slurm_time_limit", None, None,
    "sbatch -t 1 with srun -l, logging without rank; a healthy but slow 1000-step run is cancelled: 'CANCELLED AT ... DUE TO TIME LIMIT'.")
add("016", copy("slurm-*.out"), "tokenizer_or_data_error", 1, "slurm_time_limit",
    "sbatch -t 1 + srun -l, 3 tasks, gloo timeout 900 s. Task 1's prefetch thread dies on a bad sample (TypeError, prefixed '1:' by srun -l); its main thread blocks, the others wait in the all-reduce, and Slurm kills the job at its time limit (DUE TO TIME LIMIT). The time limit is teardown after the real cause.")
add("017", copy("slurm-*.out"), "preemption_sigterm", None, None,
    "sbatch + srun -l; the job is cancelled from outside after ~25 s (scancel, SIGTERM to the tasks); the training script's handler logs 'received signal 15, writing emergency checkpoint and exiting'; 'JOB ... CANCELLED' line.")
add("018", copy("slurm-*.out"), "healthy", None, None,
    "sbatch + srun -l, 4 tasks, 30 steps, with benign FutureWarning/UserWarning at start-up on every rank; 'srun exited with 0'.")
add("019", copy("*.out"), "job_hang_no_progress", None, None,
    "sbatch + srun per-task files, JSON-lines logs, gloo timeout 1800 s. Rank 2 silently blocks at step 6; all four ranks' last line is step 5 and nothing more is printed for ~40 s (step time 0.2 s); no timeout fires; the user scancels the job. Nothing in the logs singles out rank 2.")
add("020", copy("console.log"), "port_in_use", None, None,
    "Single-node torchrun with --master-port 29675 while another process holds the port: DistNetworkError ... EADDRINUSE.")
add("022", copy("node0.log", "node1.log"), "nan_inf_loss", 1, None,
    "Two agents. Rank 1 gets an inf input from step 9; its loss-guard raises 'FloatingPointError: Loss is nan at step 9'; others connection closed by peer; SIGTERMs.")
add("023", copy("node0.log", "node1.log"), "checkpoint_disk_full", 0, "storage_io_error",
    "Two agents, logging without rank prefix on the INFO lines. Rank 0 saves its checkpoint to /dev/full (always ENOSPC): torch.save fails with 'basic_ios::clear: iostream error' and 'unexpected pos 1280 vs 1174' (no errno text); ranks 1-3 fail in the barrier after it (connection closed).")
add("025", copy("node0.log", "node1.log"), "checkpoint_corrupt", 2, None,
    "Two agents, resume from per-rank checkpoint files; rank 2's file is truncated (half its bytes): 'PytorchStreamReader failed reading zip archive: failed finding central directory'; the others resumed and then lost their peer.")
add("024", copy("node0.log", "node1.log"), "checkpoint_writer_hang", 0, "nccl_timeout",
    "Two agents. Rank 0 logs 'saving checkpoint to /tmp/r65fifo' and the save never completes (the path is a FIFO with no reader, open() blocks forever); ranks 1-3 time out after 15 s in the barrier that follows the save; node0's agent SIGTERMs rank 0, which never printed an error.")
add("026", copy("node0.log", "node1.log"), "checkpoint_load_mismatch", 1, None,
    "Two agents, resume from per-rank checkpoints; rank 1's file holds a model with hidden size 64: 'Error(s) in loading state_dict for Sequential: size mismatch for 0.weight ...'; the other ranks resumed and then lost their peer.")
add("027", copy("node0.log", "node1.log"), "hub_network_error", 0, "nccl_timeout",
    "Two agents, HF hub unreachable (no network). Rank 0 calls AutoTokenizer.from_pretrained('bert-base-uncased'): 'Name or service not known ... Retrying in Ns [Retry k/5]' lines (unprefixed); ranks 1-3 wait in a barrier and time out after 30 s before rank 0 gives up; node0's agent then SIGTERMs rank 0 and names rank 1 as root cause.")
add("028", copy("node0.log", "node1.log"), "too_many_open_files", 3, None,
    "Two agents. Rank 3 runs with RLIMIT_NOFILE=64 and opens 100 shard index files at start-up: 'OSError: [Errno 24] Too many open files'; the others opened theirs and then lose their peer in the following barrier.")
add("029", copy("node0.log", "node1.log"), "cuda_driver_mismatch", 2, None,
    "Two agents on a CPU-only torch build. Rank 2 (node1) takes a code path that puts a tensor on 'cuda' at its first step: 'AssertionError: Torch not compiled with CUDA enabled'; peers connection closed.")
add("030", copy("node0.log", "node1.log"), "dependency_abi_mismatch", 2, "nccl_timeout",
    "Two agents. Rank 2 (node1, local rank 0) fails at import before init_process_group: 'ModuleNotFoundError: No module named flash_attn_2_cuda' (unprefixed traceback); node1's agent tears down rank 3; ranks 0,1 on node0 fail 20 s later in init_process_group with 'DistStoreError: wait timeout after 20000ms, keys: /default_pg/0//cpu//0/2'.")
add("031", copy("node0.log", "node1.log"), "shape_mismatch", 0, None,
    "Two agents, plain print logs. Rank 0 at step 12: 'mat1 and mat2 shapes cannot be multiplied (4x12 and 16x8)'; ranks 1-3 connection closed by peer.")
add("032", copy("node0.log", "node1.log"), "loss_spike_divergence", None, None,
    "Two agents. The learning rate is raised 40x from step 6; the loss climbs from ~0.1 to 1e4-1e5 within three steps; ranks 0, 2 and 3 all raise 'loss diverged: ... at step 9 (threshold 1e4)' together (parameters are shared by DDP), so no single rank started it.")
add("033", copy("node0.log", "node1.log"), "dataloader_worker_killed", 1, None,
    "Two agents, DataLoader with 2 workers per rank. A worker of rank 1 dies of SIGBUS: 'ERROR: Unexpected bus error encountered in worker ... (shm)' and 'DataLoader worker (pid N) is killed by signal: Bus error'; ranks 0,2,3 lose their peer.")
add("034", copy("node0.log", "node1.log"), "collective_mismatch", 2, "nccl_timeout",
    "Two agents, uneven data: rank 2 runs out of batches after 6 steps (no message) and enters the final dist.barrier() while ranks 0,1,3 are in step 6's DDP gradient all-reduce. Nobody matches: all four time out after 15 s; rank 2's traceback is the only one in barrier(), the others are in backward().")
add("035", copy("node0.log", "node1.log"), "nccl_timeout", 0, "job_hang_no_progress",
    "Two agents, JSON-lines logs. Rank 0 (node0) busy-spins silently at step 7 (pure-Python loop, prints nothing); ranks 1-3 hit gloo 15 s timeouts; node0's agent SIGTERMs rank 0, which has no traceback.")
add("036", copy("console.log"), "native_crash", 1, None,
    "torch.multiprocessing.spawn with 3 ranks, logging only on rank 0. Rank 1 calls os.abort() at step 8 and prints nothing; mp.spawn terminates the others: 'ProcessExitedException: process 1 terminated with signal SIGABRT'.")
add("037", copy("console.log"), "healthy", None, None,
    "mp.spawn, 2 ranks, CPU GradScaler: four gradient-overflow warnings in the first steps (loss scale 65536 -> 4096, steps skipped), then training recovers and finishes 60 steps.")
add("038", copy("console.log"), "fp16_loss_scale_overflow", None, None,
    "mp.spawn, 3 ranks, CPU GradScaler, only rank 0 logs. From step 5 one rank's loss is inf every step, so after the all-reduce every rank overflows; rank 0 warns 'gradient overflow detected, skipping step; reducing loss scale' each step from 65536 down to 6.1e-05, then every rank raises 'Current loss scale ... already at minimum'; mp.spawn reports process 1. Which rank's data overflowed is not in the logs.")
add("039", copy("console.log"), "python_exception_other", 1, None,
    "Lightning Trainer (ddp, 2 CPU processes, rich progress bars, benign Lightning warnings). In validation of epoch 0, rank 1's validation_step raises ValueError: validation metric 'bleu' not found; rank 0 fails in the metric sync barrier with connection closed by peer.")
add("040", copy("console.log"), "healthy", None, None,
    "accelerate launch --cpu --num_processes 2; tqdm bars on the main process, 3 epochs, 'done'.")
add("041", targz(".", "job_logs.tar.gz", arcname="job_4412_logs"), "healthy", None, None,
    "Two agents, DataLoader with 2 workers per rank, 150 steps per rank (~600 step lines); both consoles (node0.log, node1.log) uploaded as a tar.gz of the job's log directory.")
add("043", summary_only("node1.log", "torchrun_summary.txt"), "native_crash", 3, None,
    "Partial paste: only the launcher's ChildFailedError summary from node1's console of a two-agent job. Rank 3 called os.abort() at step 9 without printing anything; the summary names rank 3 'exitcode -6 (SIGABRT)' as root cause and rank 2 as SIGTERMed.")
add("044", tail("node0.log", 58, "tail_node0.log"), "tokenizer_or_data_error", 0, "python_exception_other",
    "Partial paste: the last 58 lines of node0's console (the traceback header is cut off). Rank 0 raised at step 10 'RuntimeError: Expected eval batch to contain attention_mask' (a missing field in the batch); rank 1 then lost its peer; node0's summary names rank 0 (exit 1) as root cause. Plain print logs.")
add("042", zipdir(".", "llama-ft-9_logs.zip"), "healthy", None, None,
    "sbatch + srun -o %x-%j-%t.out, 3 tasks, logging with rank in the format, 40 steps; per-task files and slurm-9.out zipped together; srun exits 0.")
add("045", copy("node0.log", "node1.log"), "native_crash", 1, "nccl_system_error",
    "Two agents, c10d rendezvous, --max-restarts 1. Attempt 0: rank 1 (node0) segfaults at step 4 with no Python trace; only node0's launcher line 'failed (exitcode: -11) local_rank: 1' shows it; ranks 0,2,3 'Connection reset/closed by peer'. The restart then fails differently (Gloo connectFullMesh ... Connection refused in init_process_group, RendezvousClosedError on node1), and node0's final summary only names the second attempt's rank 0 exit 1. Labelled by the first failure.")
add("046", copy("console.log"), "healthy", None, None,
    "Single-node torchrun (2 procs) with --max-restarts 2. In attempt 0 rank 1 raises a transient 'ConnectionError: failed to fetch shard index from data server (attempt 1)' before init (unprefixed traceback); the agent SIGTERMs rank 0 and restarts the group; the second attempt trains 15 steps and both ranks print 'training done' (exit 0). A restart that recovered.")
add("047", copytree("logs"), "checkpoint_disk_full", 0, None,
    "Two agents with --log-dir logs --redirects 3; the user hands over only the log-dir tree (a directory: <run id>/attempt_0/<local rank>/stdout.log, stderr.log per node). Rank 0 writes its checkpoint to /dev/full: 'OSError: [Errno 28] No space left on device'; ranks 1-3 connection closed by peer in the barrier after the save.")
add("048", copy("node0.log", "node1.log"), "collective_mismatch", 2, "nccl_timeout",
    "Two agents, no debug mode. At step 3 rank 2 all-reduces a 7-element tensor while the others all-reduce 4 elements. Ranks 0,1,3 got through and moved on to step 4's backward; rank 2 is stuck in its all_reduce(t) and times out (15 s), the others time out/lose the peer in backward. Rank 2 is the only rank whose traceback is in the extra all_reduce.")
add("049", copy("node0.log", "node1.log"), "collective_mismatch", 1, "nccl_timeout",
    "Two agents, no debug mode. At step 5 rank 1 calls dist.broadcast while ranks 0,2,3 call dist.all_reduce; all block and time out after 15 s (rank 1's traceback is in broadcast, the others' in all_reduce); SIGTERMs follow.")
add("050", copy("slurm-*.out"), "node_failure", None, None,
    "sbatch + srun -l, 2 tasks training normally; after ~20 s the node is set DOWN under the running job (scontrol update state=down, standing in for a dead node); srun prints 'srun: error: Node failure on vm' and Slurm requeued the job (the user then cancelled the requeued job). No rank error.")
add("051", copy("node0.log", "node1.log"), "healthy", None, None,
    "Two agents with --log-dir --tee 3 (consoles carry [defaultN]: prefixes), logging without rank, benign FutureWarning/UserWarning at start-up on every rank; 30 steps; both agents exit 0. Inputs: the two consoles.")
add("052", copy("slurm-*.out"), "healthy", None, None,
    "sbatch + srun -l, 4 tasks, JSON-lines logs, benign warnings at start-up, 60 steps, 'srun exited with 0'.")
add("053", targz("elastic_logs", "elastic_logs.tar.gz", ("node0.log", "node1.log")), "nan_inf_loss", 2, None,
    "Two agents, main wrapped in torchelastic @record, --log-dir elastic_logs --redirects 3, so each local rank leaves an error.json. Rank 2 (node1, local rank 0) gets inf input at step 7: 'FloatingPointError: Loss is nan at step 7' (in its error.json and in node1's summary with the traceback); the others' error.json files hold 'Connection closed by peer'. Inputs: both consoles plus the log-dir tree as tar.gz.")
add("054", copy("slurm-*.out"), "host_oom_killed", 1, "nccl_remote_peer_exited",
    "sbatch + srun --kill-on-bad-exit=1 without -l. Task 1 is SIGKILLed at step 6 (self-kill standing in for the OOM killer) and prints nothing: 'srun: error: vm: task 1: Killed'; peers print unprefixed-by-srun 'Connection reset/closed by peer' tracebacks, then the step is CANCELLED and tasks 0,2-3 Terminated.")
