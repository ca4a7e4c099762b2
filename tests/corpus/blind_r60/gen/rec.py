# entry point wrapped in torchelastic's @record so the failing rank writes error.json
import sys, os
sys.path.insert(0, os.path.dirname(__file__))
from torch.distributed.elastic.multiprocessing.errors import record
import train

@record
def main():
    train.main()

if __name__ == "__main__":
    main()
