source /work/blind/r31/gen/env.sh
RAW=/work/blind/r31/gen/raw
prep() { rm -rf $R/$1 $RAW/$1; mkdir -p $R/$1 $RAW/$1; cd $RAW/$1; }
waitjob() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 3; done; scontrol show job $1 > $RAW/$2/job.txt; }
s006() { prep 006; j=$(OUTDIR=$R/006 MASTER_PORT=37006 STEPS=60 sbatch --parsable --ntasks=2 --time=5 -o $RAW/006/slurm-%j.out $G/sb_plain_files.sh); waitjob $j 006; }
s032() { prep 032; j=$(MASTER_PORT=37032 STEPS=100000 SLEEP=0.3 DEVICES=2 LOGDIR=$RAW/032/pl sbatch --parsable --ntasks=2 --ntasks-per-node=2 --time=1 -o $RAW/032/slurm-%j.out $G/sb_pl.sh); waitjob $j 032; cp $RAW/032/slurm-$j.out $R/032/; }
s033() { prep 033; j=$(MASTER_PORT=37033 STEPS=100000 SLEEP=0.2 sbatch --parsable --ntasks=2 --time=10 -o $RAW/033/slurm-%j.out $G/sb_plain.sh); sleep 30; scancel $j; waitjob $j 033; cp $RAW/033/slurm-$j.out $R/033/; }
s038() { prep 038; j=$(FAULT=getitem_keyerror FAULT_RANK=3 MASTER_PORT=37038 STEPS=60 sbatch --parsable --ntasks=4 --time=5 -o $RAW/038/slurm-%j.out $G/sb_plain.sh); waitjob $j 038; cp $RAW/038/slurm-$j.out $R/038/; }
for n in "$@"; do ( s$n ); echo "run $n done"; done
