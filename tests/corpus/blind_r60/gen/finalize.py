# package hand-overs, renumber runs contiguously, write labels.jsonl
import os, shutil, subprocess, json, tarfile, zipfile, sys
sys.path.insert(0, os.path.dirname(__file__))
from labels_src import L
R = "/work/blind/r60/runs"
DROP = {"026", "041", "042", "048", "059"}

def sh(c, cwd): subprocess.run(c, shell=True, check=True, cwd=cwd)

# hand-over packaging (in the generation-numbered dirs)
d = f"{R}/011"
if os.path.exists(f"{d}/console.log"):
    with tarfile.open(f"{d}/job_logs.tar.gz", "w:gz") as t:
        for n in ("console.log", "dmesg.txt", "logs"):
            t.add(f"{d}/{n}", arcname=f"job_logs/{n}")
    sh("rm -rf console.log dmesg.txt logs", d)
d = f"{R}/033"
if os.path.exists(f"{d}/node0.log"):
    with zipfile.ZipFile(f"{d}/logs_both_nodes.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(f"{d}/node0.log", "node0.log"); z.write(f"{d}/node1.log", "node1.log")
    sh("rm -f node0.log node1.log", d)
d = f"{R}/020"
if os.path.exists(f"{d}/console.log"):
    with zipfile.ZipFile(f"{d}/console.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(f"{d}/console.log", "console.log")
    os.remove(f"{d}/console.log")
d = f"{R}/054"
if os.path.exists(f"{d}/console.log"):
    os.makedirs(f"{d}/bundle")
    sh("mv console.log logs bundle/", d)
d = f"{R}/061"
if os.path.exists(f"{d}/slurm-10.out"):
    with tarfile.open(f"{d}/slurm_logs.tar.gz", "w:gz") as t:
        t.add(f"{d}/slurm-10.out", arcname="slurm-10.out")
    os.remove(f"{d}/slurm-10.out")

keep = sorted(k for k in L if k not in DROP)
for k in sorted(L):
    assert os.path.isdir(f"{R}/{k}"), k
    for i in L[k][0]:
        assert os.path.exists(f"{R}/{k}/{i}"), (k, i)
new = f"{R}_new"
shutil.rmtree(new, ignore_errors=True); os.makedirs(new)
out = open("/work/blind/r60/labels.jsonl", "w")
mapping = {}
for j, k in enumerate(keep, 1):
    nid = f"{j:03d}"; mapping[k] = nid
    shutil.copytree(f"{R}/{k}", f"{new}/{nid}", symlinks=True)
    inputs, cls, rk, alt, notes = L[k]
    out.write(json.dumps({"run": nid, "inputs": inputs, "class": cls, "initiating_rank": rk,
                          "alt_class": alt, "notes": notes}) + "\n")
out.close()
shutil.move(R, "/work/blind/r60/gen_raw_runs_unused") if False else shutil.rmtree(R)
os.rename(new, R)
json.dump(mapping, open("/work/blind/r60/gen/renumber_map.json", "w"), indent=1)
print(len(keep), "runs")
