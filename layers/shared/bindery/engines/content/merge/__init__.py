"""The three-way merge of revisions: trees, pages, documents block by block, entries
and fields; docs/merge.md has the rules."""
