"""The scan's bounds: block and window sizes, and how many events, lines and memo entries it keeps."""

BLOCK = 8 << 20  # bytes read and scanned at a time
MAX_LINE = 1 << 20  # room for the partial line carried into the next block
TAIL = 64 << 10  # bytes of the previous block kept for look-back context
EVENTS_KEPT = 4  # events kept per (signature, rank); the rest are only counted
RANKLESS_KEPT = 64  # ... but lines naming no rank keep more: attribution may recover their ranks (a launcher's table)
SIG_EVENTS_SOFT = 64  # past this many kept events of one signature, a rank keeps only its first FIRST_KEPT
FIRST_KEPT = 1  # ... (a 256-rank flood keeps every rank's first line, not 16 repeats of each)
SIG_EVENTS_MAX = 4096  # and past this many, only counted
ERRORLIKE_PER_RANK = 5
ERRORLIKE_RANKS = 64
PRECURSORS_KEPT = 4096  # first matches of count rules kept per (signature, rank) (see ScanResult.precursors)
HEAD_SAMPLE_LINES = 400  # lines at the start of a source parsed for ranks, hosts, times
TEXT_CHARS = 2000  # evidence text is cut to this length
MEMO_CHARS = 512  # lines up to this long have their regex results remembered by shape (see _Scan._hit)
MEMO_ENTRIES = 1 << 14
SHAPE_IDS_KEPT = 1 << 16  # shapes numbered for the runs of lines bulk counting tests (see BulkCounting._shape_ids)
WINDOW = 1 << 20  # bytes of a block decided at a time: line by line, or in bulk (see _Scan._bulk)
FIRST_WINDOW = 64 << 10  # ... while a flood may still add events
MIN_WINDOW = 16 << 10
FLOOD_BYTES = 1024  # a window with a candidate line per this many bytes is part of a flood: try _bulk
FLOOD_HITS = 64  # ... and so are this many literals found that close together
