"""Space content: revision trees (`tree`) and GitBook JSON documents, with their GitBook-flavoured
Markdown form (`content.markdown`)."""
