#!/bin/bash
# builds the good and the stale _fastnorm extension
gcc -shared -fPIC -I/root/.pyenv/versions/3.11.7/include/python3.11 -o /work/blind/r22/work/ext_good/_fastnorm.cpython-311-x86_64-linux-gnu.so /work/blind/r22/gen/fastnorm.c
gcc -shared -fPIC -DSTALE -I/root/.pyenv/versions/3.11.7/include/python3.11 -o /work/blind/r22/work/ext_bad/_fastnorm.cpython-311-x86_64-linux-gnu.so /work/blind/r22/gen/fastnorm.c
