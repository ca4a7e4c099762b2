from dataclasses import dataclass, field


@dataclass
class TrainConfig:
    d_model: int = 64
    lr: float = 0.05
    tokenizer: str = "bpe-32k"
    tags: list = field(default_factory=list)
