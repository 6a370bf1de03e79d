"""Build hook: before any page runs its code, compute the expensive results on every core.

See sitebuild.precompute. On a warm build (every job stamped for the current code) this costs a
few fingerprints and starts no process.
"""

from __future__ import annotations

from mkdocs.plugins import event_priority

from sitebuild import precompute


@event_priority(-150)  # after mkdocs-static-i18n's on_files (-100), before the lab's export (-200)
def on_files(files, config):
    precompute.run()
    return files
