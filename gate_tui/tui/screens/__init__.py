"""Modal screens of the editor: help, and the resume-session question."""
