"""Content: GitBook JSON documents and their GitBook-flavoured Markdown form (`content.markdown`)."""
