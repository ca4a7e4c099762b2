"""Writes a tiny local BERT 'pretrained' checkpoint (no hub access)."""
import sys, torch
from transformers import BertConfig, BertModel
cfg = BertConfig(vocab_size=500, hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                 max_position_embeddings=64)
torch.manual_seed(0)
BertModel(cfg).save_pretrained(sys.argv[1])
