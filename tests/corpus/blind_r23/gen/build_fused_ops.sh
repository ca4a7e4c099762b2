#!/bin/bash
# builds two site dirs: node-a (good build) and node-b (stale build with an undefined symbol)
set -e
S=/work/blind/r23/gen/fused_ops_src; W=/work/blind/r23/work/sites
INC=/root/.pyenv/versions/3.11.7/include/python3.11; EXT=.cpython-311-x86_64-linux-gnu.so
for n in node-a node-b; do
  mkdir -p $W/$n/fused_ops
  printf 'from ._C import version  # noqa\n__all__ = ["version"]\n' > $W/$n/fused_ops/__init__.py
done
gcc -shared -fPIC -O2 -I$INC $S/_C.c -o $W/node-a/fused_ops/_C$EXT
gcc -shared -fPIC -O2 -DSTALE -I$INC $S/_C.c -o $W/node-b/fused_ops/_C$EXT
