#!/bin/bash
# builds ext/good and ext/stale variants of tinylm_fused
cd /work/blind/r25/gen/ext
PYINC=$(/work/blind/venv/bin/python -c "import sysconfig;print(sysconfig.get_paths()['include'])")
SUF=$(/work/blind/venv/bin/python -c "import sysconfig;print(sysconfig.get_config_var('EXT_SUFFIX'))")
mkdir -p good stale
gcc -shared -fPIC -O2 -I$PYINC tinylm_fused.c -o good/tinylm_fused$SUF
gcc -shared -fPIC -O2 -DSTALE_BUILD -I$PYINC tinylm_fused.c -o stale/tinylm_fused$SUF
