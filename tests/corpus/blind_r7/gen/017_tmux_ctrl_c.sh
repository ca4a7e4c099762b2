#!/bin/bash
R=/work/blind/r7/runs/017_tmux_ctrl_c; rm -rf $R; mkdir -p $R; cd $R
S=r7dev017
tmux kill-session -t $S 2>/dev/null
tmux new-session -d -s $S -x 200 -y 50
tmux set-option -t $S history-limit 20000
for r in 0 1 2; do
  [ $r -gt 0 ] && tmux new-window -t $S
  tmux send-keys -t $S:$r "cd $R && export OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29817 WORLD_SIZE=3 RANK=$r" Enter
  tmux send-keys -t $S:$r "/work/blind/venv/bin/python -u /work/blind/r7/gen/017_tmux_ctrl_c.py" Enter
done
sleep 12
tmux send-keys -t $S:1 C-c          # user hits Ctrl-C in the rank-1 pane
sleep 45
for r in 0 1 2; do tmux capture-pane -p -S - -t $S:$r > $R/pane_rank$r.txt; done
tmux kill-session -t $S
