"""GitBook Git Sync: a repository's files <-> a revision's content (docs/git-sync.md).

`importer.import_repository` reads a commit's files into a tree, documents and file bytes;
`exporter.export_repository` writes them back. Both are pure: no network, no storage.
"""
