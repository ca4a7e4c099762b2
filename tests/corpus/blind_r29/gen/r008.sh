source /work/blind/r29/gen/lib.sh; mk 008; cd $RAW/008
# real segfault (ctypes.string_at(0)) on rank 2; asctime logs; --log-dir with --redirects 3; hand over tar.gz of the logs + console
LOGFMT=asctime FAULT=segv FAULT_RANK=2 FAULT_STEP=1250 EPOCHS=3 STEPS=450 LOG_EVERY=4 CKPT_DIR=$RAW/008/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35080 --log-dir $RAW/008/logs --redirects 3 $T > launcher.log 2>&1; echo "rc=$?" > rc
mkdir -p job_48121 && cp -r logs job_48121/ && cp launcher.log job_48121/ && tar czf $RUNS/008/job_48121_logs.tar.gz job_48121
