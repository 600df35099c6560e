"""Templates never show their own comments: Django's {# #} is one line only."""

from pathlib import Path

from django.conf import settings


def test_no_template_has_a_comment_spanning_lines():
    roots = [Path(d) for t in settings.TEMPLATES for d in t["DIRS"]]
    found = []
    for root in roots:
        for path in root.rglob("*.html"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "{#" in line and "#}" not in line[line.index("{#") :]:
                    found.append(f"{path.relative_to(root)}:{number}")
    assert not found, f"multi-line {{# #}} comments are shown as text: {found}"
