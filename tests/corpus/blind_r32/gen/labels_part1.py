import json
L=[
("001",["console.log"],"healthy",None,None,"torchrun 2 procs, 30% label noise, batch 8: noisy per-batch loss 1.4->~1.05, completes exit 0"),
("002",["console.log"],"healthy",None,None,"srun --label 3 tasks; at steps 20 and 45 a batch with x*30 and shifted labels gives loss spikes 39.7 and 98.9, recovers next step (grad clip), exit 0"),
("003",["console.log"],"healthy",None,None,"mp.spawn 2 procs, rank0 logging; eval val_loss rises 1.2->7.5 (shifting eval labels) while training loss falls; completes exit 0"),
("004",["logs"],"healthy",None,None,"torchrun --log-dir --tee 3, per-rank dir handed over; CPU autocast fp16 + GradScaler init_scale 2**24: ~8 overflow/skip steps at warm-up then periodic after growth, recovers; exit 0 (redone: first attempt had no overflow)"),
("005",["console.log"],"healthy",None,None,"torchrun 3 procs; NaN injected into rank0 batch at step 23, all ranks all-reduce a bad flag and skip the batch with a log line; completes exit 0"),
("006",["."],"healthy",None,None,"sbatch + srun -o rank_%t.out: caught FileNotFoundError for optional vocab file and 3 ConnectionRefusedError retries to a metrics server, with printed tracebacks, fallback to CSV; completes exit 0"),
("007",["console.log"],"healthy",None,None,"torchrun 2; warnings.warn FutureWarning/UserWarning/RuntimeWarning + real numpy overflow RuntimeWarning, config dump with nan_check/error_rate/killed_jobs; completes exit 0"),
("008",["part1.log","part2.log"],"healthy",None,None,"two torchrun invocations: part1 trains to step 40 saving /tmp ckpt; part2 resumes from last.pt at step 40 and finishes step 100, exit 0"),
("009",["logs.tar.gz"],"healthy",None,None,"torchrun --log-dir --tee 3, 1600 steps x 2 ranks (~3200 lines), tar.gz of the log dir; exit 0"),
("010",["console.log"],"healthy",None,None,"srun -n 2 without label; random labels: loss plateaus ~1.43 (ln4) for 100 steps without diverging; exit 0"),
("011",["tail.log"],"healthy",None,None,"torchrun 2, label noise 25% + 2 recovering loss spikes, 150 steps; last 200 lines handed over; exit 0"),
("012",["console.log"],"healthy",None,None,"mp.spawn 3 procs, CPU autocast fp16 GradScaler overflow skips (warm-up + periodic) with PYTHONWARNINGS=always; exit 0"),
("013",["console.log"],"nccl_timeout",1,"job_hang_no_progress","torchrun 3 procs; at step 25 rank 1 opens a FIFO nobody writes and blocks silently; ranks 0/2 hit Gloo 20s recv/send timeout in backward; torchrun tears down"),
("014",["console.log"],"nan_inf_loss",2,None,"srun --label 3; rank 2 gets inf*0=NaN in input at step 31, script raises FloatingPointError('loss is nan'); ranks 0/1 then Connection closed by peer"),
("015",["console.log"],"loss_spike_divergence",None,None,"torchrun 2, rank0-only logging; LR ramps 0.05->1.03 from step 30, loss climbs 0.3->5->1e3->2.4e5 and never recovers; script still exits 0"),
("016",["console.log"],"host_oom_killed",1,"nccl_remote_peer_exited","torchrun 2 (--log-dir without tee, only console handed); rank 1 SIGKILLed from outside (kill -9 pid) mid-training, NOT memory: no class for external kill; torchrun reports Signal 9 on rank 1 and SIGTERMs rank 0"),
("017",["slurm-4.out"],"host_oom_killed",1,None,"sbatch+srun 2 tasks; rank 1 sets RLIMIT_AS=3GB (ulimit -v) and leaks growing tensors from step 10 -> DefaultCPUAllocator can't allocate memory; rank 0 Connection closed by peer"),
("018",["logs"],"host_oom_killed",1,None,"torchrun --log-dir --tee 3, per-rank dir handed; rank 1 (leaking 32MB/step) moved into a cgroup v1 with memory.limit 300M; kernel cgroup OOM killer SIGKILLed it (memory.oom_control oom_kill 1); torchrun Signal 9"),
("019",["console.log"],"checkpoint_disk_full",0,"storage_io_error","srun --label 2; rank 0 torch.save of ~4MB to a 2M tmpfs (df 100%) fails: 'basic_ios::clear: iostream error' / 'unexpected pos' (no ENOSPC text); rank 1 Connection closed by peer"),
("020",["console.log"],"checkpoint_permission_denied",0,None,"mp.spawn 2; checkpoint dir is a read-only tmpfs mount; rank 0 torch.save: open file failed: Read-only file system"),
("021",["console.log"],"tokenizer_or_data_error",1,"python_exception_other","torchrun --tee 3 (console); rank 1 DataLoader worker parses a truncated JSON record at index 300 -> Caught JSONDecodeError in DataLoader worker process; rank 0 Connection closed by peer"),
("022",["console.log"],"dataloader_worker_killed",0,None,"torchrun 2; kill -9 of a DataLoader worker child of rank 0 from outside -> 'DataLoader worker (pid) is killed by signal: Killed'; rank 1 Connection closed by peer"),
("023",["console.log"],"nccl_remote_peer_exited",1,"collective_mismatch","torchrun 2; uneven data: rank 1 has half the batches, breaks after 40 steps, exits 0 without barrier; rank 0's next allreduce gets Connection closed by peer (torchrun calls rank 0 the root cause)"),
]
with open('/work/blind/r32/gen/labels_part1.jsonl','w') as f:
    for run,inp,c,r,alt,n in L:
        f.write(json.dumps({"run":run,"inputs":inp,"class":c,"initiating_rank":r,"alt_class":alt,"notes":n})+"\n")
