#!/usr/bin/env python
"""Entry point wrapped in torchelastic's @record (writes error.json on failure)."""
import os
import sys

from torch.distributed.elastic.multiprocessing.errors import record

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_lm  # noqa: E402


@record
def main():
    train_lm.main()


if __name__ == "__main__":
    main()
