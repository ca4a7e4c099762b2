# 001: two agents, rank 3 (node1) silently sleeps at step 4; others gloo timeout
FAULT=hang FRANK=3 FSTEP=4 GLOO_TMO=15 bash /work/blind/r65/gen/tr2.sh /tmp/r65t/a 29651
