#!/bin/bash
# builds the two fused_ops variants: current (2.1.0) and an old build (1.4.0) against an older torch ABI
set -e
INC=$(/work/blind/venv/bin/python -c "import sysconfig;print(sysconfig.get_paths()['include'])")
SUF=$(/work/blind/venv/bin/python -c "import sysconfig;print(sysconfig.get_config_var('EXT_SUFFIX'))")
D=/work/blind/r24/work/ext; mkdir -p $D/fused-2.1.0 $D/fused-1.4.0
cd "$(dirname "$0")"
gcc -shared -fPIC -I$INC fused_ops_v2.c -o $D/fused-2.1.0/fused_ops$SUF
gcc -shared -fPIC -I$INC fused_ops_v1.c -o $D/fused-1.4.0/fused_ops$SUF
