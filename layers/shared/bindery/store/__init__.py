"""Data access over the single DynamoDB table: one module per entity, one function per access pattern.

Every key, condition and update expression is built in this package (keys in `bindery.keys`). The domain
collects the named operations store functions return into a `Transaction`, reads `Item`s and hands back
the `Key`s store functions built, taking those four names from here; it never imports `bindery.keys` or
`bindery.store.table` (an import-linter contract in pyproject.toml, run by `make lint`).
"""

from bindery.keys import Key
from bindery.platform.errors import TransactionConflict
from bindery.store.table import Item, Op, Transaction

__all__ = ["Item", "Key", "Op", "Transaction", "TransactionConflict"]
