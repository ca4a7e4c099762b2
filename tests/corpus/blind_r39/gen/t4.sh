#!/usr/bin/env bash
# t4.sh NPROC PORT [torchrun args...] script [args...]: single-node torchrun with a c10d rendezvous on PORT
exec /work/blind/venv/bin/torchrun --nproc-per-node "$1" --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:"$2" "${@:3}"
