class TrainConfig:
    pass
