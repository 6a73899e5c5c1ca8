"""File formats: case files, dipsat JSON."""
