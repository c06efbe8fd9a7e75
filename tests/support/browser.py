"""Debian's chromium, driven by Playwright (never a browser of Playwright's own), for the pages'
tests in a real browser: a context per width and language, and the checks every page passes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium")
#: (width, height, language): a phone and a desktop, in both languages.
VIEWS = [(420, 900, "en"), (420, 900, "ja"), (1280, 900, "en"), (1280, 900, "ja")]
LOCALES = {"en": "en-GB", "ja": "ja-JP"}


def require_browser():
    """Playwright's async API; skipped without chromium or Playwright, except in CI (``.ci/run``
    installs both), where a missing browser fails."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs chromium")
        pytest.skip(f"no {CHROMIUM}")
    try:
        from playwright import async_api
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("no playwright")
    return async_api


async def context(browser, width: int, height: int, language: str):
    """A fresh context whose ``Accept-Language`` asks for ``language``."""
    return await browser.new_context(
        viewport={"width": width, "height": height}, locale=LOCALES[language], reduced_motion="reduce"
    )


#: Every page: one h1, headings that skip no level, every picture with words, no sideways scroll.
PAGE_CHECKS = """() => {
  const problems = [];
  const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  if (document.querySelectorAll("h1").length !== 1) problems.push("h1 count " + document.querySelectorAll("h1").length);
  let level = 0;
  for (const h of headings) {
    const n = Number(h.tagName[1]);
    if (n > level + 1) problems.push("skipped to " + h.tagName + ": " + h.textContent.slice(0, 40));
    if (!h.textContent.trim()) problems.push("empty " + h.tagName);
    level = n;
  }
  for (const img of document.querySelectorAll("img")) {
    if (!(img.getAttribute("alt") || "").trim()) problems.push("img without alt: " + img.src);
  }
  for (const svg of document.querySelectorAll("svg")) {
    if (svg.getAttribute("role") !== "img" || !(svg.getAttribute("aria-label") || "").trim()) problems.push("svg without words");
  }
  for (const a of document.querySelectorAll("a[data-go]")) {
    if (!(a.getAttribute("aria-label") || "").trim()) problems.push("control without a name");
  }
  if (!document.documentElement.lang) problems.push("no lang");
  if (document.documentElement.scrollWidth > window.innerWidth + 1) problems.push("scrolls sideways: " + document.documentElement.scrollWidth);
  return problems;
}"""


async def check_page(page) -> None:
    problems = await page.evaluate(PAGE_CHECKS)
    assert problems == [], f"{page.url}: {problems}"


async def text_of(page, html: str) -> str:
    """The text ``html`` shows, as the browser reads it (to compare with what a page shows)."""
    return await page.evaluate("html => { const d = document.createElement('div'); d.innerHTML = html; return d.textContent; }", html)
