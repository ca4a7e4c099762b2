import json
L=[
("024",["slurm-7.out"],"slurm_time_limit",None,"job_hang_no_progress","sbatch --time=1, srun --label 2 tasks, gloo timeout 600s; rank 0 sleeps forever at step 15, rank 1 blocked in allreduce; Slurm cancels step DUE TO TIME LIMIT"),
("025",["slurm-9.out"],"preemption_sigterm",None,None,"sbatch+srun 2 tasks training normally (3000 steps); scancel of the job after 25 s -> JOB CANCELLED, tasks Terminated"),
("026",["console.log"],"checkpoint_writer_hang",0,"nccl_timeout","torchrun 3; rank 0 torch.save to step.pt which is a FIFO -> open() blocks forever in the save; ranks 1/2 wait in barrier and hit Gloo 20s timeout; torchrun SIGTERMs rank 0"),
("027",["console.log"],"checkpoint_corrupt",None,None,"pre-run saved last.pt (14 KB), then truncated to 3000 bytes; srun --label 2 resume: both ranks PytorchStreamReader failed finding central directory"),
("028",["logs.tar.gz"],"checkpoint_load_mismatch",None,None,"pre-run saved HID=64 checkpoint; resume with HID=96 under torchrun --log-dir --tee 3 (tar.gz): both ranks load_state_dict size mismatch"),
("029",["console.log"],"port_in_use",None,None,"a python listener bound port 38029; torchrun --master-port 38029 -> DistNetworkError EADDRINUSE at store creation"),
("030",["console.log"],"too_many_open_files",0,None,"ulimit -n 200 for the launch; rank 0 dataset leaks a file handle per sample -> OSError Errno 24 Too many open files; rank 1 Connection closed by peer then abort"),
("031",["tail.log"],"loss_spike_divergence",None,None,"srun --label 2; LR ramps to 1.03 from step 30, loss climbs to ~3.9e8 and stays until the end; script exits 0; last 200 lines handed over"),
("032",["console.log"],"nccl_timeout",0,"job_hang_no_progress","srun -n 3 no label; rank 0 silently sleeps at step 15 ('waiting for prefetch'); ranks 1/2 Gloo 20s timeouts and exit 1; rank 0 stays hung until the wrapping `timeout 100` stops srun"),
("033",["tail.log"],"checkpoint_disk_full",0,None,"torchrun --tee 3 2 procs; rank 0 legacy torch.save of ~4MB into a 2M tmpfs -> write(): No space left on device; rank 1 Connection closed by peer; last 200 lines"),
("034",["."],"nan_inf_loss",2,None,"sbatch + srun -o rank_%t.log 3 tasks; rank 2 NaN input at step 31 -> FloatingPointError loss is nan; ranks 0/1 Connection closed by peer (rank 0 also aborts: terminate called)"),
("035",["run_logs.tar.gz"],"healthy",None,None,"torchrun --log-dir --tee 3, 3 procs, tar.gz; caught FileNotFoundError + 3 ConnectionRefusedError retries with tracebacks and fallback; completes exit 0"),
("036",["."],"healthy",None,None,"sbatch+srun --label 2 tasks, 30% label noise, NaN batch on rank 0 at step 23 skipped on all ranks; completes exit 0"),
]
with open('/work/blind/r32/gen/labels_part2.jsonl','w') as f:
    for run,inp,c,r,alt,n in L:
        f.write(json.dumps({"run":run,"inputs":inp,"class":c,"initiating_rank":r,"alt_class":alt,"notes":n})+"\n")
