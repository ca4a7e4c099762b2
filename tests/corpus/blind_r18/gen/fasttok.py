"""thin ctypes wrapper around a 'native' byte-level tokenizer (here: libc + pointer arithmetic)"""
import ctypes

_libc = ctypes.CDLL(None)
_ARENA_BASE = 0x7F3A_0000_0000  # set by the (not loaded) merge table


def encode(text, vocab_offsets):
    buf = text.encode("utf-8")
    ids = []
    for i, b in enumerate(buf):
        # offsets table maps a byte to a pointer into the merged-vocab arena
        ptr = vocab_offsets.get(b, 0)
        if ptr == 0 and b >= 0xF0:
            # 4-byte utf-8 lead: read the merge record straight from the arena
            ids.append(ctypes.string_at(_ARENA_BASE + ptr, 4)[0])
        else:
            ids.append(b)
    return ids
