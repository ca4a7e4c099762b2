# Framework-level torch runs: FSDP2 / FSDP1 / DCP / torch.compile / plain collectives. MODE picks the breakage.
import os, sys, time, datetime, signal
import torch, torch.nn as nn, torch.distributed as dist
MODE = sys.argv[1]
CK = sys.argv[2] if len(sys.argv) > 2 else "/tmp/r55_ck"
TO = int(os.environ.get("R55_PG_TIMEOUT", "30"))
dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=TO))
rank, world = dist.get_rank(), dist.get_world_size()
torch.manual_seed(0)
def log(*a): print(f"[rank{rank}]", *a, flush=True)

class Net(nn.Module):
    def __init__(s, d=32, h=int(os.environ.get('R55_H', '64'))):
        super().__init__(); s.l1 = nn.Linear(d, h); s.l2 = nn.Linear(h, h); s.out = nn.Linear(h, 1)
    def forward(s, x): return s.out(torch.relu(s.l2(torch.relu(s.l1(x)))))

def data(step, d=32):
    g = torch.Generator().manual_seed(step * 100 + rank)
    return torch.randn(8, d, generator=g), torch.randn(8, 1, generator=g)

if MODE.startswith("fsdp1"):
    from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
    m = Net()
    if MODE == "fsdp1_dtype" and rank == 1:
        m.l2 = m.l2.to(torch.float64)
    model = FSDP(m, use_orig_params=False, sync_module_states=True)
else:
    from torch.distributed.fsdp import fully_shard
    model = Net()
    d = 32
    if MODE == "fsdp2_shape" and rank == 1:
        pass
    for layer in [model.l1, model.l2, model.out]:
        fully_shard(layer)
    fully_shard(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

if MODE == "dcp_load_mismatch":
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
    # the checkpoint in CK was written by a model with h=48 (see run notes)
    msd, osd = get_state_dict(model, opt)
    log("resuming from", CK)
    dcp.load({"model": msd}, checkpoint_id=CK)
    set_state_dict(model, opt, model_state_dict=msd, optim_state_dict=osd)
if MODE in ("dcp_load_missing", "healthy_resume"):
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
    msd, osd = get_state_dict(model, opt)
    log("resuming from", CK)
    sd = {"model": msd, "optim": osd}
    dcp.load(sd, checkpoint_id=CK)
    set_state_dict(model, opt, model_state_dict=sd["model"], optim_state_dict=sd["optim"])
    log("resumed OK")

if MODE == "compile_fullgraph" or MODE == "healthy_compile":
    def loss_fn(out, y):
        l = ((out - y) ** 2).mean()
        if MODE == "compile_fullgraph" and rank == 1 or MODE == "healthy_compile":
            if l.item() > 0:   # data-dependent python branch -> graph break
                l = l * 1.0
        return l
    loss_fn = torch.compile(loss_fn, backend="aot_eager", fullgraph=(MODE == "compile_fullgraph"))
else:
    loss_fn = lambda out, y: ((out - y) ** 2).mean()

steps = int(os.environ.get("R55_STEPS", "20"))
for step in range(steps):
    x, y = data(step)
    if MODE == "fsdp2_shape" and rank == 1 and step == 7:
        x = torch.randn(8, 33)   # a bad batch with one extra feature column on rank 1
    if MODE == "oom" and rank == 1 and step == 8:
        with open("/sys/fs/cgroup/memory/r55oom/cgroup.procs", "w") as f: f.write(str(os.getpid()))
        log("building eval feature cache"); cache = []
        for i in range(200): cache.append(torch.ones(16, 1024, 1024)); time.sleep(0.02)
    if MODE == "emfile" and rank == 1 and step == 6:
        import resource, glob; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        log("opening shard index"); handles = [open(f, "rb") for f in sorted(glob.glob("/tmp/r55_shards/*.bin"))]
    if MODE == "hang" and rank == int(os.environ.get("R55_BADRANK", "1")) and step == 9:
        log("entering custom eval hook"); time.sleep(3600)
    if MODE == "flaky" and rank == 1 and step == 4 and os.environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0":
        raise RuntimeError("transient: feature store returned HTTP 503 for shard 4 (attempt 0)")
    if MODE == "healthy_handled" and step in (3, 11):
        import logging, traceback
        try:
            bad = data(step, d=33)[0]; model(bad)
        except RuntimeError:
            print(f"[rank{rank}] WARNING skipping malformed batch at step {step}:", flush=True); traceback.print_exc()
    out = model(x)
    loss = loss_fn(out, y)
    loss.backward(); opt.step(); opt.zero_grad()
    if MODE == "mismatch" and step == 5:
        t = torch.ones(10 if rank != 1 else 12)
        dist.all_reduce(t)
    if step % 5 == 0:
        log(f"step {step} loss {loss.item():.4f}")

if MODE.startswith("dcp_save") or MODE == "healthy_save":
    import torch.distributed.checkpoint as dcp
    from torch.distributed.checkpoint.state_dict import get_state_dict
    msd, osd = get_state_dict(model, opt)
    log("saving checkpoint to", CK)
    dcp.save({"model": msd, "optim": osd}, checkpoint_id=CK)
    log("checkpoint saved")
dist.barrier()
log("done")
dist.destroy_process_group()
