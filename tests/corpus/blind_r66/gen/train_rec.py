# train.py wrapped with torchelastic's @record so that error.json files are written
import os, sys
sys.path.insert(0, os.path.dirname(__file__))
from torch.distributed.elastic.multiprocessing.errors import record
import train
@record
def main():
    train.main()
if __name__ == "__main__":
    main()
