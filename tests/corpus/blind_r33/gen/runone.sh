#!/bin/bash
name=$1; n=$2; port=$3; shift 3
env "$@" /work/blind/r33/gen/tr.sh /tmp/r33w/$name.log $n $port
