"""Translations of spaces (docs/translations.md): the records and their runs (`records`), the worker's
side of a run (`runs`), what a run computes and commits (`result`), and the organization's glossary."""
