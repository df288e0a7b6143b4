"""What the onboarding app contributes to the pages of the apps below it (see core.panels)."""

from __future__ import annotations
