__version__ = "0.4.2"
def step(*a, **k):
    return None
