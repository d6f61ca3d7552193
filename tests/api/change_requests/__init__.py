"""Change requests: records, content, links, reviews, merges, uploads and reverts, locked spaces."""
