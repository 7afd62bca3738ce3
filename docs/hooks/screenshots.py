"""MkDocs hook: serve the repository's screenshots/ folder as the site's screenshots/.

The pictures have one home, ``screenshots/`` at the top of the repository, where
``make screenshots`` writes them and the README shows them. Pages link them as
``screenshots/NAME`` (``docs/`` and the repository root are siblings of the same
relative path), and this hook adds each file to the site so the link resolves and
``mkdocs build --strict`` can check it, with no second copy to drift.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def on_files(files, config):  # noqa: ANN001, ANN201 - MkDocs' hook signature
    for picture in sorted(SCREENSHOTS.glob("*")):
        if picture.suffix.lower() in {".svg", ".png"}:
            files.append(
                File(
                    f"screenshots/{picture.name}",
                    src_dir=str(SCREENSHOTS.parent),
                    dest_dir=config["site_dir"],
                    use_directory_urls=config["use_directory_urls"],
                )
            )
    return files
