"""Git Sync as the API sees it: starting imports and exports, their runs, and what an
import changed."""
