"""Side services: metrics uploader thread and hub downloads."""
import json
import logging
import os
import queue
import threading
import time
import urllib.error
import urllib.request

log = logging.getLogger("tinylm.services")


class MetricsUploader:
    """Batches metric records and POSTs them to the team's metrics gateway."""

    def __init__(self, endpoint, rank, run_name, batch=8, timeout=None, retries=3):
        self.endpoint = endpoint
        self.rank = rank
        self.run_name = run_name
        self.batch = batch
        self.timeout = timeout
        self.retries = retries
        self.q = queue.Queue()
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="metrics-uploader", daemon=True)
        self.thread.start()

    def log(self, **rec):
        rec.update(rank=self.rank, run=self.run_name, ts=time.time())
        self.q.put(rec)

    def flush(self):
        n = self.q.qsize()
        if n:
            log.info("flushing %d metric record(s) to %s", n, self.endpoint)
        self.q.join()

    def close(self):
        self.flush()
        self._stop.set()

    def _post(self, records):
        body = json.dumps({"records": records}).encode()
        req = urllib.request.Request(self.endpoint, data=body, headers={"Content-Type": "application/json"})
        kw = {} if self.timeout is None else {"timeout": self.timeout}
        with urllib.request.urlopen(req, **kw) as resp:
            resp.read()

    def _loop(self):
        while not self._stop.is_set():
            try:
                first = self.q.get(timeout=0.5)
            except queue.Empty:
                continue
            recs = [first]
            while len(recs) < self.batch:
                try:
                    recs.append(self.q.get_nowait())
                except queue.Empty:
                    break
            for attempt in range(1, self.retries + 1):
                try:
                    self._post(recs)
                    break
                except (urllib.error.URLError, OSError, TimeoutError):
                    log.warning("metrics upload failed (attempt %d/%d), retrying in %.1fs", attempt,
                                self.retries, 0.5 * attempt, exc_info=True)
                    time.sleep(0.5 * attempt)
            else:
                log.error("dropping %d metric record(s) after %d failed uploads", len(recs), self.retries)
            for _ in recs:
                self.q.task_done()


def hub_download(repo_id, filename, cache_dir, endpoint=None, retries=3):
    """Fetch a file from the model hub into the node-local cache (hf_hub_download-like)."""
    endpoint = endpoint or os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    dest = os.path.join(cache_dir, repo_id.replace("/", "--"), filename)
    if os.path.exists(dest):
        log.info("hub cache hit: %s", dest)
        return dest
    url = f"{endpoint}/{repo_id}/resolve/main/{filename}"
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    for attempt in range(1, retries + 1):
        try:
            log.info("downloading %s (attempt %d/%d)", url, attempt, retries)
            with urllib.request.urlopen(url, timeout=10) as resp, open(dest + ".incomplete", "wb") as f:
                f.write(resp.read())
            os.replace(dest + ".incomplete", dest)
            return dest
        except urllib.error.URLError as e:
            if attempt == retries:
                raise
            log.warning("download of %s failed: %s; retrying in %ds", url, e, 2 * attempt)
            time.sleep(2 * attempt)
