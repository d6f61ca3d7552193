"""Request bodies of translations and the glossary (createTranslation, updateTranslation,
updateGlossaryEntries), constrained as the reference spec states them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator
from pydantic_core import PydanticCustomError

from bindery.requests.common import Body, StoredDocument
from bindery.requests.spaces import Language

TranslationLanguage = Language  # the spec's TranslationLanguage (spaces use the same enum)
Term = Annotated[str, StringConstraints(min_length=1, max_length=255, pattern=r"^[^\n\r]*$")]


class TranslationSource(Body):
    space: Annotated[str, Field(min_length=1, max_length=64)]
    language: TranslationLanguage


class CreateTranslation(Body):
    source: TranslationSource
    language: TranslationLanguage
    instructions: StoredDocument | None = None


class UpdateTranslation(Body):
    instructions: StoredDocument


class GlossaryOperation(Body):
    """One of the spec's GlossaryBatchOperation variants: insert {translations}, update {id, translations},
    delete {id}. The languages of `translations` are TranslationLanguage codes."""

    type: Literal["insert", "update", "delete"]
    id: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    translations: dict[TranslationLanguage, Term] | None = None

    @model_validator(mode="after")
    def _variant(self) -> GlossaryOperation:
        if self.type != "insert" and self.id is None:
            raise PydanticCustomError("glossary_id", "id is required for {kind}", {"kind": self.type})
        if self.type != "delete" and not self.translations:
            raise PydanticCustomError("glossary_terms", "translations (at least one language) is required "
                                      "for {kind}", {"kind": self.type})
        return self


class UpdateGlossary(Body):
    operations: list[GlossaryOperation]
