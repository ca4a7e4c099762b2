"""Is the input a training log at all? A text with no line that a training job, its launcher or its scheduler
prints (a step or loss line, a rank or time prefix, a launcher or scheduler line, a traceback) is said to be
something else, rather than "healthy": /etc/passwd, a README, a chat message.

Judged from what the scan already hands over, never by reading the input again: the first bytes of every
source (`Source.head`, sniffed before the scan), the error-like lines it kept, whether any signature confirmed a
line, its training progress and world size, and the sources' names (a file named for the rank that wrote it)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._draft import message_of
from ._events import ScanResult
from ._lines import parse_time, rank_from_path
from ._models import NotALog, Report

# What message_of leaves of a log's prefix (it strips srun labels, [rankN]:, ISO and glog times, level words,
# NCCL's host:pid:tid): a rank said in words, a dmesg clock, a bare clock; then what the message itself says.
_PREFIX = re.compile(
    r"(?i)^(?:\s{0,3}(?:global_)?rank\s*[=:]?\s*\d{1,6}(?:\]|:|\s\||\s-\s)|\[(?:rank|default|r)\s?\d{1,6}\]"
    r"|\[\s*\d+\.\d{3,9}\]|\[?[0-2]\d:[0-5]\d:[0-5]\d\b"
    r"|\[?\d{1,4}[/.]\d{1,2}(?:[/.]\d{2,4})?[ T][0-2]?\d:[0-5]\d:[0-5]\d"  # detectron2's [03/07 20:19:00, 06/12/2020 10:05:38
    r"|\[[IWEF]\s?[\w.]+\.(?:cpp|cc|cu|h|hpp|py):\d+\]"  # PyTorch's C++ log: [W reducer.cpp:1303]
    # a process's name and pid, as vLLM's workers and Ray's actors prefix their lines: "(Worker_PP3 pid=200085)",
    # "(RayTrainWorker pid=4321, ip=10.0.0.7)", also behind a launcher's tag ("[vllm]: (VllmWorkerProcess pid=89)")
    r"|(?:\[[\w.-]{1,40}\]:\s)?\([\w.-]{1,60} pid=\d+(?:, ip=[\d.]+)?\))"
)
TIME_WITHIN = 48  # a timestamp this near the start of a line is its prefix, not a date in a sentence
_MESSAGE = re.compile(
    r"""(?x)
      Traceback\ \(most\ recent\ call\ last\):
    | \s*File\ "[^"]+",\ line\ \d+
    | [A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Warning)(?::\s|:?\s*$)   # an exception, as Python prints it
    | \S+\.py:\d+:\ \w*Warning:                                           # warnings.warn
    | (?:srun|sbatch|salloc|slurmstepd(?:-[\w.-]+)?|mpirun|prterun|orterun)(?::|\ error:)\s
    | \*\*\*\ (?:JOB|STEP)\ \d
    | Submitted\ batch\ job\ \d
    | torch\.(?:distributed|multiprocessing)\.[\w.]+(?:\ |:|$)
    | (?:Segmentation\ fault|Killed\s*$|Aborted\s*$|Bus\ error)
    | \{'(?:loss|eval_loss|train_runtime|train_loss)':\ [-\d]                # the HF Trainer's dicts
    | Some\ weights\ of\ .{1,200}?\ were\ not\ (?:used|initialized)\b            # transformers loading a model
    | \s*\d{1,3}%\|                                                        # a tqdm bar
    | \s*(?:Epoch|Iteration|Iter|Step)\s*\[?\d+(?:\s*/\s*\d+)?\]?(?:[\s,:|]|$)  # "Epoch 0 step 0", "Epoch 3/10"
    | (?:Reason|Message|Exit\ Code|Last\ State|State|Status|Type):\s{2,}\S    # kubectl describe's fields
    | Setting\ OMP_NUM_THREADS\ environment\ variable\ for\ each\ process       # torch.distributed.launch's banner
    | \|?\s*distributed\ init\ \(rank\ \d+\)                                   # DETR/DeiT/MAE's init_distributed_mode
    | Training\ in\ distributed\ mode\ with\ multiple\ processes,\ 1\ (?:GPU|device)\ per\ process\.  # timm's train.py
    | \[(?:before|after)\ [\w\ ]{1,60}\]\ datetime:\ \d{4}-\d\d-\d\d                 # Megatron's print_datetime
    | time\ \(ms\)\ \|\ [\w/\ -]{1,60}:\ \d                                    # Megatron's timers: "time (ms) | forward: 12.3"
    | wandb:\ (?:WARNING|ERROR|Tracking\ run|Syncing\ run|View\ run|Run\ (?:history|summary))\b  # W&B in a run
    """
)
# anywhere in a line: a training step with its loss, a progress bar, NCCL's own log
_ANYWHERE = re.compile(
    r"(?i:\b(?:step|iter(?:ation)?|epoch|global_step)\b\W{0,3}\d+.{0,200}?\bloss\b\W{0,3}[-+]?(?:\d|nan|inf))"
    r"|\d{1,3}%\|[^|\n]{0,100}\|\s*\d+/\d+"
    r"|\bNCCL (?:INFO|WARN)\b"
    # an epoch a trainer names its phase in ("INFO:vc:Train Epoch: 1 [73%]"), two loss fields on one line
    # ("loss_disc=3.803, loss_gen=3.319"), DDP's note after its first backward
    r"|(?i:\b(?:train(?:ing)?|val(?:idation)?|eval(?:uation)?)\s+epoch\W{0,3}\d+)"
    r"|\bloss\w*\s*[=:]\s*[-+]?(?:\d|nan|inf)[^\n]{0,80}?\bloss\w*\s*[=:]\s*[-+]?(?:\d|nan|inf)"
    r"|Reducer buckets have been rebuilt in this iteration"
    # PyTorch's C++ warnings name where they were raised: "(Triggered internally at ../torch/csrc/.../reducer.cpp:325.)";
    # Lightning's DDP start-up: "initializing ddp: GLOBAL_RANK: 1, MEMBER: 2/8"
    r"|\(Triggered internally at [^()\n]{1,200}\.(?:cpp|cc|cu|h):\d+\.?\)"
    r"|initializing (?:ddp|distributed): GLOBAL_RANK: \d+, MEMBER: \d+/\d+"
    # accelerate's launcher noting the defaults it used; pycocotools loading a detection dataset's annotations
    r"|The following values were not passed to `accelerate launch`"
    r"|^(?:loading annotations into memory\.\.\.|creating index\.\.\.|index created!)\s*$"
    # a JSON-lines record of a distributed job naming its rank and what or when it is ({"event": "progress", "rank":
    # 2, "done": 11, "ts": ...}); a search result's "rank" among "query" and "score" fields is not one
    r'|^\s*\{(?=[^\n]{0,300}?"(?:rank|global_rank|local_rank)"\s*:\s*\d)'
    r'(?=[^\n]{0,300}?"(?:event|step|global_step|epoch|iter|iteration|loss|ts|time|timestamp|level|levelname)"\s*:)'
    # a metrics table row, as OpenAI baselines' logger (guided-diffusion, many RL codes) dumps it: "| loss | 0.423 |"
    r"|^\|\s*(?:loss|step|samples|grad_norm|lr|epoch|episodes|timesteps|total_timesteps)\w*\s+\|\s*[-+]?(?:\d|nan|inf)"
)
HEAD_LINES = 200  # of each source's head, at most
# a training script printing its settings ("learning_rate: 0.0003"): a log's when the same lines come again, as
# every process of a job prints them (a config file or a script's source states each once)
_SETTING = re.compile(
    r"^\s*(?:learning_rate|lr|(?:micro_|global_|train_|per_device_train_)?batch_size|num_(?:train_)?epochs|epochs"
    r"|max_steps|warmup_(?:steps|ratio)|gradient_accumulation_steps|weight_decay)\s*:\s*[-+]?\.?\d"
)
SETTINGS_REPEATED = 2  # distinct settings lines each printed at least twice


def log_like(line: str) -> bool:
    """A line a training job, its launcher or its scheduler would print (not one that merely mentions one)."""
    if _PREFIX.match(line) or parse_time(line[:TIME_WITHIN]) is not None or _ANYWHERE.search(line):
        return True
    message = message_of(line)
    return message != line.strip() or bool(_MESSAGE.match(message))


@dataclass
class LogEvidence:
    """Fed the head of each source as the scan opens it; keeps only whether a log-like line was seen."""

    first: str | None = None  # the first log-like line seen
    sampled: int = 0  # lines judged

    def feed(self, head: bytes) -> None:
        if self.first is not None:
            return
        settings: dict[str, int] = {}
        for line in head.decode("utf-8", "replace").splitlines()[:HEAD_LINES]:
            if line.strip():
                self.sampled += 1
                if log_like(line):
                    self.first = line
                    return
                if _SETTING.match(line):
                    settings[line.strip()] = settings.get(line.strip(), 0) + 1
        repeated = [line for line, n in settings.items() if n >= 2]
        if len(repeated) >= SETTINGS_REPEATED:
            self.first = repeated[0]


def judge(report: Report, scan: ScanResult, evidence: LogEvidence) -> NotALog | None:
    """NotALog when nothing the scan saw reads like a training log; None for a log. A line a signature confirmed
    is a log's, whatever surrounds it: a signature that fires on prose is the signature's fault (near misses)."""
    if report.diagnoses or report.flight_recorder or not scan.lines or evidence.first is not None:
        return None
    if scan.events or scan.progress or scan.world_size:
        return None
    if any(rank_from_path(name) is not None for name in scan.sources):  # rank3.log, attempt_0/3/stdout.log
        return None
    kept = [ln.text for lines in scan.errorlike.values() for ln in lines]
    if any(log_like(text) for text in kept):
        return None
    return NotALog(lines=scan.lines, sampled=evidence.sampled + len(kept))
