"""Slack's Socket Mode, faked: a real WebSocket server (RFC 6455) on loopback.

`apps.connections.open` (with an `xapp-` token) hands the bot a ws:// URL here.
On connect the server says `hello`; `send_envelope` pushes an events_api,
slash_commands or interactive envelope and `wait_ack` returns the bot's
acknowledgement (`{"envelope_id": ...}`) the way Slack waits for it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import struct
import threading
import time
import uuid

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class SocketModeServer:
    def __init__(self, app_token: str = "xapp-1-A0001-test"):
        self.app_token = app_token
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(8)
        self.port = self._sock.getsockname()[1]
        self._clients: list[socket.socket] = []
        self._lock = threading.Lock()
        self.acks: dict[str, dict] = {}
        self.received: list[dict] = []
        self.connections = 0
        self._stopped = threading.Event()
        threading.Thread(target=self._accept, daemon=True, name="fake-socket-mode").start()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/link/?ticket={uuid.uuid4()}"

    def connections_open(self, token: str) -> dict:
        """The body of apps.connections.open."""
        if token != self.app_token:
            return {"ok": False, "error": "invalid_auth"}
        return {"ok": True, "url": self.url}

    # -- envelopes ----------------------------------------------------------------

    def send_envelope(self, kind: str, payload: dict, retry_attempt: int = 0) -> str:
        envelope_id = str(uuid.uuid4())
        message = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "accepts_response_payload": kind != "events_api",
            "retry_attempt": retry_attempt,
            "retry_reason": "timeout" if retry_attempt else "",
        }
        self._broadcast(json.dumps(message))
        return envelope_id

    def wait_ack(self, envelope_id: str, timeout: float = 3.0) -> dict | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if envelope_id in self.acks:
                    return self.acks[envelope_id]
            time.sleep(0.02)
        return None

    def wait_connected(self, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if self._clients:
                    return True
            time.sleep(0.05)
        return False

    def close(self) -> None:
        self._stopped.set()
        with self._lock:
            for c in self._clients:
                try:
                    c.close()
                except OSError:
                    pass
        self._sock.close()

    # -- the WebSocket protocol -------------------------------------------------------

    def _accept(self) -> None:
        while not self._stopped.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            request = b""
            while b"\r\n\r\n" not in request:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                request += chunk
            headers = {}
            for line in request.decode("latin-1").split("\r\n")[1:]:
                if ":" in line:
                    k, v = line.split(":", 1)
                    headers[k.strip().lower()] = v.strip()
            key = headers.get("sec-websocket-key", "")
            accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            conn.sendall(
                (
                    "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Accept: {accept}\r\n\r\n"
                ).encode()
            )
            with self._lock:
                self._clients.append(conn)
                self.connections += 1
            self._send(
                conn,
                json.dumps(
                    {
                        "type": "hello",
                        "num_connections": 1,
                        "debug_info": {"host": "fake", "approximate_connection_time": 3600},
                    }
                ),
            )
            self._read_frames(conn)
        except OSError:
            pass
        finally:
            with self._lock:
                if conn in self._clients:
                    self._clients.remove(conn)

    def _read_frames(self, conn: socket.socket) -> None:
        buf = b""

        def need(n: int) -> bytes:
            nonlocal buf
            while len(buf) < n:
                chunk = conn.recv(65536)
                if not chunk:
                    raise OSError("closed")
                buf += chunk
            out, buf = buf[:n], buf[n:]
            return out

        while True:
            b1, b2 = need(2)
            opcode = b1 & 0x0F
            length = b2 & 0x7F
            if length == 126:
                length = struct.unpack(">H", need(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", need(8))[0]
            mask = need(4) if b2 & 0x80 else b"\0\0\0\0"
            data = bytes(b ^ mask[i % 4] for i, b in enumerate(need(length)))
            if opcode == 0x8:  # close
                self._frame(conn, 0x8, data[:2])
                return
            if opcode == 0x9:  # ping -> pong
                self._frame(conn, 0xA, data)
                continue
            if opcode == 0x1:
                message = json.loads(data.decode())
                with self._lock:
                    self.received.append(message)
                    if "envelope_id" in message:
                        self.acks[message["envelope_id"]] = message

    def _broadcast(self, text: str) -> None:
        with self._lock:
            clients = list(self._clients)
        if not clients:
            raise RuntimeError("no Socket Mode client is connected")
        for c in clients:
            self._send(c, text)

    def _send(self, conn: socket.socket, text: str) -> None:
        self._frame(conn, 0x1, text.encode())

    @staticmethod
    def _frame(conn: socket.socket, opcode: int, data: bytes) -> None:
        header = bytes([0x80 | opcode])
        n = len(data)
        if n < 126:
            header += bytes([n])
        elif n < 1 << 16:
            header += bytes([126]) + struct.pack(">H", n)
        else:
            header += bytes([127]) + struct.pack(">Q", n)
        conn.sendall(header + data)
