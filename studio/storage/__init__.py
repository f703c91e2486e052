"""Project files: the SQLite database, media files, bundles and AnimeGamer imports.

This is the only package that reads or writes project files.
"""

from studio.storage.errors import ProjectFileError
from studio.storage.paths import UnsafePathError
from studio.storage.project import DB_NAME, MEDIA_DIR, PROJECT_SUFFIX, Project

__all__ = ["DB_NAME", "MEDIA_DIR", "PROJECT_SUFFIX", "Project", "ProjectFileError", "UnsafePathError"]
