__version__ = "0.3.9"
from ._C import step
