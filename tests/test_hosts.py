"""Host history across incidents (bot/hosts.py) on a real SQLite store: a host whose failures repeat is named
with the command to drain it, hardware failures weighing more than program errors; `denpex hosts`."""

from __future__ import annotations

import subprocess
import time

import pytest
from conftest import denpex_cmd

import signatures
from bot import hosts
from bot.config import Config
from bot.render import host_repeat, hosts_message
from bot.store import Store

TAXONOMY = signatures.default_library().taxonomy
XID = (
    "Dec 02 10:00:00 {host} kernel: [430954.509105] NVRM: Xid (PCI:0000:52:00): 48, pid='<unknown>', "
    "name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at "
    "physAddr 0x18f31d80 partition 16, subpartition 3.\n"
)
OOM = "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"


def report_on(host: str, text: str) -> signatures.Report:
    """A diagnosis whose initiating failure ran on `host` (named by the log's directory, as per-node logs are)."""
    r = signatures.diagnose_sources([signatures.source_from_bytes(f"{host}/node.log", text.format(host=host).encode())])
    assert r.top is not None and r.top.host == host, (r.top, host)
    return r


def incident(store: Store, report: signatures.Report, n: int) -> int:
    return store.open_incident("C1", f"{n}.0", None, "x.log", f"fp{n}", report, "U1")


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "denpex.db")


CONFIG = Config()


def test_a_third_hardware_failure_on_a_host_names_it_with_the_drain_command(store):
    for n in range(2):
        incident(store, report_on("gpu-node-07", XID), n)
        found = hosts.repeat_of(store, CONFIG, report_on("gpu-node-07", XID), TAXONOMY)
        assert (found is None) == (n == 0)  # with this one: 2, then 3 hardware incidents
    rec = hosts.repeat_of(store, CONFIG, report_on("gpu-node-07", XID), TAXONOMY)
    assert rec is not None and (rec.incidents, rec.hardware, rec.score) == (3, 3, 3.0)
    text = host_repeat(rec, "7d", "slurm")
    assert text.startswith(":repeat: gpu-node-07: 3rd incident in 7d (gpu_ecc_error ×3)")
    assert '`scontrol update nodename=gpu-node-07 state=drain reason="denpex: repeated failures"`' in text
    assert "kubectl cordon gpu-node-07" in host_repeat(rec, "7d", "kubernetes")


def test_program_errors_weigh_less_than_hardware(store):
    for n in range(5):
        incident(store, report_on("gpu-node-08", OOM), n)
    assert hosts.repeat_of(store, CONFIG, report_on("gpu-node-08", OOM), TAXONOMY) is None  # 6 x 0.25 = 1.5
    strict = Config.model_validate({"bot": {"host_repeat_threshold": 1.5}})
    rec = hosts.repeat_of(store, strict, report_on("gpu-node-08", OOM), TAXONOMY)
    assert rec is not None and rec.hardware == 0 and rec.incidents == 6


def test_incidents_older_than_the_window_do_not_count(store):
    for n in range(2):
        incident(store, report_on("gpu-node-09", XID), n)
    store.db.execute("UPDATE incident_hosts SET at = ?", [time.time() - 8 * 86400])  # eight days ago
    assert hosts.repeat_of(store, CONFIG, report_on("gpu-node-09", XID), TAXONOMY) is None
    wide = Config.model_validate({"bot": {"host_window": "10d"}})
    assert hosts.repeat_of(store, wide, report_on("gpu-node-09", XID), TAXONOMY) is not None


def test_the_hosts_with_the_most_incidents_come_first(store, tmp_path):
    n = 0
    for host, text, times in (("gpu-node-01", OOM, 3), ("gpu-node-02", XID, 2), ("gpu-node-03", OOM, 1)):
        for _ in range(times):
            incident(store, report_on(host, text), n)
            n += 1
    records = hosts.top_hosts(store, CONFIG, TAXONOMY)
    assert [r.host for r in records] == ["gpu-node-02", "gpu-node-01", "gpu-node-03"]  # 2.0, 0.75, 0.25
    text = hosts_message(records, "7d")
    assert "• gpu-node-02: 2 incident(s), 2 hardware, weight 2 (gpu_ecc_error ×2)" in text
    assert hosts_message([], "7d") == "No incident named a host in the last 7d."
    env = {"PATH": "/usr/bin:/bin", "DENPEX_CACHE_DIR": str(tmp_path / "cache")}
    cli = subprocess.run([*denpex_cmd(), "hosts", "--db", str(tmp_path / "denpex.db")], capture_output=True, env=env)
    assert cli.returncode == 0 and "gpu-node-02: 2 incident(s)" in cli.stdout.decode(), cli.stderr
    missing = subprocess.run([*denpex_cmd(), "hosts", "--db", str(tmp_path / "nope.db")], capture_output=True, env=env)
    assert missing.returncode == 2 and b"no such database" in missing.stderr
