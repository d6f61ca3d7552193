"""The translation engine (docs/translations.md): documents to segments and back (`segments`, `markup`),
and the translator backends (`backends`). No DynamoDB here: bindery.domain.translations drives it."""
