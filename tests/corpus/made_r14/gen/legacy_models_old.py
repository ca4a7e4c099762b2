class RunConfig:
    def __init__(self): self.lr = 0.1
