"""accelerate fine-tune script: rank 0 downloads the tokenizer/model first (main_process_first)."""
import torch
from accelerate import Accelerator
from accelerate.logging import get_logger
import logging
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
log = get_logger(__name__)
acc = Accelerator(cpu=True)
log.info(f"distributed: {acc.state}", main_process_only=False)
from transformers import AutoTokenizer, AutoModelForSequenceClassification
with acc.main_process_first():
    tok = AutoTokenizer.from_pretrained("distilbert-base-uncased")
    model = AutoModelForSequenceClassification.from_pretrained("distilbert-base-uncased", num_labels=2)
log.info("model loaded")
