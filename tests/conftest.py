"""Shared test set-up: the tests folder is importable (for the naive rules oracle)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
