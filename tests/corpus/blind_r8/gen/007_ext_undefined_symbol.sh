#!/bin/bash
R=/work/blind/r8/runs/007_ext_undefined_symbol; rm -rf $R; mkdir -p $R/logs
bash /work/blind/r8/gen/007_ext_undefined_symbol_build.sh >/dev/null
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
cat > /work/blind/r8/meta/007_ext/task_env.sh <<'W'
#!/bin/bash
# per-"node" image: task 1 lands on the node with the old image
if [ "$SLURM_PROCID" = 1 ]; then export PYTHONPATH=/work/blind/r8/meta/007_ext/node-img-v1/site-packages
else export PYTHONPATH=/work/blind/r8/meta/007_ext/node-img-v2/site-packages; fi
exec "$@"
W
chmod +x /work/blind/r8/meta/007_ext/task_env.sh
cd $R && timeout 90 srun -N1 -n3 -J llm-ft --output=$R/logs/%x-%j-%t.out \
  /work/blind/r8/meta/007_ext/task_env.sh /work/blind/venv/bin/python /work/blind/r8/gen/007_ext_undefined_symbol.py > $R/srun.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/007.rc
