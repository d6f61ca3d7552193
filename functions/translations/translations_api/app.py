"""Translations function: an organization's translations of spaces and its glossary
(docs/translations.md). Runs happen in TranslationRunWorker."""

from __future__ import annotations

from bindery.api.http import api_handler, create_app
from translations_api.routes import glossary, translations

app = create_app("translations")
app.include_router(translations.router)
app.include_router(glossary.router)

lambda_handler = api_handler(app)
