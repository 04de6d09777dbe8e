"""Test-wide settings: property tests are measured by what they find, never by how fast a
loaded machine draws their inputs, so timing checks are off for all of them."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "fibua", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.load_profile("fibua")
