# Healthy run with benign but scary-looking warnings
import warnings, os, sys
sys.path.insert(0, os.path.dirname(__file__))
import torch
warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available. Disabling.", UserWarning)
import train
torch.utils.data.DataLoader(list(range(8)), num_workers=0)
train.main()
