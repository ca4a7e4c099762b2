"""Reading a source in blocks that end at a line boundary, with the tail of the previous block kept for context."""

from __future__ import annotations

import lzma
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from . import _trend
from ._limits import BLOCK, MAX_LINE
from ._sources import InputError, Source


class _Reader:
    """Yields blocks of whole lines. Reads ahead in a thread.

    Two buffers alternate: while the scan works on one, a thread fills the other
    (the read system call and decompression release the GIL). A line longer
    than the buffer is handed over in pieces, so memory stays bounded.
    """

    def __init__(self, source: Source, on_bytes: Callable[[int], None]):
        self.source = source
        self.on_bytes = on_bytes

    def _read(self, buf: bytearray, start: int) -> int:
        """Fill buf from `start`; return how many bytes of buf are valid."""
        pos = start
        stream = self.source.stream
        with memoryview(buf) as view:
            while pos < len(buf):
                try:
                    got = stream.readinto(view[pos:]) if hasattr(stream, "readinto") else _read_into(stream, view[pos:])
                except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
                    raise InputError(f"{self.source.name}: cannot read: {exc}") from None
                if not got:
                    break
                pos += got
        return pos

    def _fill(self, buf: bytearray, start: int) -> tuple[int, int, list[int]]:
        """Read into buf after `start` carried bytes; return (filled, cut, marks).

        marks[i] counts the newlines in buf[:i * width] for the trend sampler's windows (see
        _trend.windows), and marks[-1] those in buf[:cut]. Runs in the reader thread: counting
        newlines here overlaps with the Hyperscan scan of the other buffer, which releases the GIL.
        """
        filled = self._read(buf, start)
        eof = filled < len(buf)
        cut = filled if eof else buf.rfind(b"\n", 0, filled) + 1
        if cut == 0:
            cut = filled  # one line longer than the buffer: hand it over in pieces
        width = _trend.windows(cut, self.source.size)[0]
        marks, total = [0], 0
        for lo in range(0, cut, width):
            total += buf.count(b"\n", lo, min(lo + width, cut))
            marks.append(total)
        return filled, cut, marks

    def __iter__(self):
        """Yield (buffer, n, marks): buffer[:n] holds whole lines; marks[-1] is how many (see _fill)."""
        head = self.source.head
        size = BLOCK + MAX_LINE
        if self.source.size is not None:  # a small file needs small buffers (one more byte tells EOF)
            size = min(size, max(self.source.size + 1, len(head) + 1, 1 << 16))
        bufs = [bytearray(size), bytearray(size)]
        cur = 0
        bufs[cur][: len(head)] = head
        with ThreadPoolExecutor(max_workers=1) as pool:
            filled, cut, marks = self._fill(bufs[cur], len(head))
            self.on_bytes(filled)
            while filled:
                buf = bufs[cur]
                carry = filled - cut
                nxt = bufs[1 - cur]
                nxt[:carry] = buf[cut:filled]
                eof = filled < len(buf)
                future = None if eof else pool.submit(self._fill, nxt, carry)
                yield buf, cut, marks
                if future is None:
                    return
                filled, cut, marks = future.result()
                self.on_bytes(filled - carry)
                cur = 1 - cur


def _read_into(stream, view: memoryview) -> int:
    data = stream.read(len(view))
    view[: len(data)] = data
    return len(data)
