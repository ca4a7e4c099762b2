import json
L = [
("036", ["console.log"], "healthy", None, None, "HF accelerate 1.16 Accelerator under torchrun 2 procs (MULTI_CPU gloo), 2 epochs, save_state each epoch, exit 0; whole console"),
("037", ["grep.txt"], "checkpoint_permission_denied", None, None, "HF accelerate under torchrun 2 procs; accelerator.save_state into a read-only tmpfs mount -> OSError Errno 30 on both ranks; grep -C3 error|Error|Traceback|Killed"),
("038", ["console.log"], "dataloader_worker_killed", 2, None, "torchrun 3 procs, num_workers=2, file_system sharing; a DataLoader worker of rank 2 SIGKILLs itself -> 'DataLoader worker (pid X) is killed by signal: Killed'; whole console"),
("039", ["slurm-6.out"], "nccl_timeout", 1, "job_hang_no_progress", "sbatch -n 3 + srun; rank 1 blocks forever on a FIFO read at step 6; ranks 0,2 hit gloo 20 s timeouts (rank 2 aborts in teardown); the job then sat hung and was scancel'ed by me ~1 min later; whole slurm output"),
]
with open("/work/blind/r33/labels.jsonl", "a") as f:
    for run, inp, c, r, alt, n in L:
        f.write(json.dumps({"run": run, "inputs": inp, "class": c, "initiating_rank": r, "alt_class": alt, "notes": n}) + "\n")
print(len(L))
