"""A rating history as an inline SVG: the same line as ``bot/ratings/charts.py`` draws for Discord,
sharp at any width and in the page's colours (light or dark), with its words for screen readers."""

from __future__ import annotations

from bot.ratings.charts import plot_points
from bot.web.markup import escape

WIDTH, HEIGHT = 640, 200
BOX = (56, 16, WIDTH - 16, HEIGHT - 24)  # left, top, right, bottom of the plot


def history_svg(values: list[int], label: str) -> str:
    """``values`` oldest first; ``label`` says in words what the line shows (its title)."""
    left, top, right, bottom = BOX
    points = plot_points(values, (left + 8, top + 8, right - 8, bottom - 8))
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}"'
        ' xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(label)}</title>",
        f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" class="frame"/>',
    ]
    if points:
        low, high = min(values), max(values)
        for value, y in {high: min(y for _, y in points), low: max(y for _, y in points)}.items():
            parts.append(f'<line x1="{left}" x2="{right}" y1="{y}" y2="{y}" class="grid"/>')
            parts.append(f'<text x="{left - 6}" y="{y}" class="tick">{value}</text>')
        if len(points) > 1:
            line = " ".join(f"{x},{y}" for x, y in points)
            parts.append(f'<polyline points="{line}" class="line"/>')
        x, y = points[-1]
        parts.append(f'<circle cx="{x}" cy="{y}" r="6" class="last"/>')
    parts.append("</svg>")
    return "".join(parts)
