"""docs/api/guide/ holds links to pages of docs/ for the API reference's site (mkdocs.yml):
their examples are run once, from docs/, not again through the links."""

collect_ignore = ["api/guide"]
