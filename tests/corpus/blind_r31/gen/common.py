import os, signal, time, resource
import torch

FAULT = os.environ.get("FAULT", "none")
FR = int(os.environ.get("FAULT_RANK", "1"))
FS = int(os.environ.get("FAULT_STEP", "6"))
VOCAB, SEQ = 64, 16


def grank():
    for k in ("RANK", "SLURM_PROCID", "LOCAL_RANK"):
        if k in os.environ:
            return int(os.environ[k])
    return 0


class SeqDataset(torch.utils.data.Dataset):
    """learnable sequences: x[t+1] = (x[t] + step) % VOCAB"""
    def __init__(self, n=512, rank=None):
        g = torch.Generator().manual_seed(0)
        start = torch.randint(0, VOCAB, (n, 1), generator=g)
        stp = torch.randint(1, 4, (n, 1), generator=g)
        x = (start + stp * torch.arange(SEQ)) % VOCAB
        self.rows = [{"input_ids": r, "labels": r.clone()} for r in x]
        self.calls = 0
        r = grank() if rank is None else rank
        if FAULT == "getitem_keyerror" and r == FR:
            # a shard whose records from 300 on were written with another schema
            for i in range(300, n):
                self.rows[i] = {"text": "sample %d" % i}
        if FAULT == "collate_ragged" and r == FR:
            for i in range(200, n):
                self.rows[i] = {"input_ids": self.rows[i]["input_ids"][: SEQ - 3], "labels": self.rows[i]["labels"][: SEQ - 3]}

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        self.calls += 1
        if FAULT == "worker_kill" and grank() == FR and self.calls > FS * 4 and torch.utils.data.get_worker_info() is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        row = self.rows[i]
        return {"input_ids": row["input_ids"], "labels": row["labels"]}


def tiny_gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel
    cfg = GPT2Config(vocab_size=VOCAB, n_positions=SEQ, n_embd=int(os.environ.get("NEMBD", "32")), n_layer=2, n_head=2)
    return GPT2LMHeadModel(cfg)


_LEAK = []


def step_fault(step, rank, batch):
    """called inside the training step with the batch dict; may alter batch or the process."""
    if FAULT == "fdleak" and rank == FR and step >= FS:
        d = os.environ.get("SHARD_DIR", "/tmp/r31shards")
        os.makedirs(d, exist_ok=True)
        for i in range(40):  # shard index files opened per step and never closed
            _LEAK.append(open(os.path.join(d, "shard_%05d.idx" % (step * 40 + i)), "a"))
    if rank != FR or step != FS:
        return batch
    if FAULT == "shape":
        batch = dict(batch)
        batch["labels"] = batch["labels"][:, : SEQ // 2].reshape(-1)  # flattened labels from a different packing
    elif FAULT == "dtype":
        batch = dict(batch)
        batch["inputs_embeds_double"] = True
    elif FAULT == "device":
        batch = dict(batch)
        batch["class_weights"] = torch.ones(VOCAB, device="meta")  # built under init_empty_weights, never materialised
    elif FAULT == "sigkill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif FAULT == "cgroup_oom":
        cg = os.environ.get("CGROUP", "/sys/fs/cgroup/memory/r31oom")
        with open(cg + "/cgroup.procs", "w") as f:
            f.write(str(os.getpid()))
        keep = []
        for _ in range(100):
            keep.append(torch.ones(64, 1024, 1024))  # cache activations: 256 MiB each
    elif FAULT == "rlimit":
        resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, 3 * 1024 ** 3))
        keep = [torch.empty(1024, 1024, 1024)]  # 4 GiB
    elif FAULT == "silent":
        fifo = os.environ.get("FIFO", "/tmp/r31fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        with open(fifo) as f:  # blocks until a writer appears: never
            f.read()
    return batch


def forward(model, batch):
    batch = dict(batch)
    if batch.pop("inputs_embeds_double", False):
        core = getattr(model, "module", model)
        emb = core.get_input_embeddings()(batch.pop("input_ids")).double()
        return core(inputs_embeds=emb, **batch)
    if "class_weights" in batch:
        w = batch.pop("class_weights")
        labels = batch.pop("labels")
        logits = model(**batch).logits
        loss = torch.nn.functional.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), labels[:, 1:].reshape(-1), weight=w)
        return type("Out", (), {"loss": loss, "logits": logits})()
    if "embeds_scale" in batch:
        core = getattr(model, "module", model)
        emb = core.get_input_embeddings()(batch.pop("input_ids")) * batch.pop("embeds_scale")
        return model(inputs_embeds=emb, **batch)
    return model(**batch)


def data_fault(step, rank, batch):
    if FAULT == "nan" and rank == FR and step == FS:
        batch = dict(batch)
        batch["labels"] = torch.full_like(batch["labels"], -100)  # a fully padded batch: no valid target
    if FAULT == "overflow" and rank == FR and step == FS:
        batch = dict(batch)
        batch["embeds_scale"] = 1e39  # un-normalised features: overflow to inf in float32
    return batch


def lr_fault(step, optimizer):
    if FAULT == "diverge" and step >= FS:
        for g in optimizer.param_groups:
            g["lr"] = float(os.environ.get("BAD_LR", "0.5"))
