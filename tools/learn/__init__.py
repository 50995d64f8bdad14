"""The learned evaluation's data generator and training script (docs/ai.md, *The learned
evaluation*)."""
