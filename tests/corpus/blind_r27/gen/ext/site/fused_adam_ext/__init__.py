import torch  # noqa
from ._C import fused_step  # noqa
__version__ = "0.4.1"
