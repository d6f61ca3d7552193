"""Translations, the glossary and translation runs."""
