#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The gpussim authors
# The documentation's links: every relative Markdown link in README.md,
# BENCHMARKS.md and docs/*.md must name a file or folder of the tree (inside
# the checkout), and every #anchor into a Markdown file must name one of its
# headings (GitHub's slugs) or an explicit id/name. Absolute links (http,
# https, mailto) are not fetched. The README is the front page: at most
# README_MAX_LINES lines. Prints each broken link as FILE:LINE: target: why.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "test_doc_links: SKIP: python3 not found"; exit 77; }
# a release tarball carries the docs, not every file they link to
command -v git >/dev/null 2>&1 && git -C "$top" rev-parse --git-dir >/dev/null 2>&1 ||
    { echo "test_doc_links: SKIP: not a git checkout"; exit 77; }
exec python3 - "$top" <<'EOF'
import os, re, sys

top = sys.argv[1]
README_MAX_LINES = 350

def docs():
    names = ["README.md", "BENCHMARKS.md"]
    d = os.path.join(top, "docs")
    if os.path.isdir(d):
        names += sorted("docs/" + n for n in os.listdir(d) if n.endswith(".md"))
    return [n for n in names if os.path.isfile(os.path.join(top, n))]

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HTML_ID = re.compile(r"<a\s[^>]*(?:name|id)=\"([^\"]+)\"", re.I)

def link_targets(path):
    """(line number, target) of every inline link and reference definition
    outside fenced code and code spans. A paragraph's lines are joined with
    spaces first: a link may be wrapped over two lines."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fenced, para = None, []  # para: (line number, text) of the current paragraph
    for no, line in enumerate(lines + [""], 1):
        m = FENCE.match(line)
        if m:
            fenced = m.group(1) if fenced is None else (None if m.group(1) == fenced else fenced)
        if not (m or fenced is not None or not line.strip()):
            para.append((no, line))
            continue
        if para:
            text = CODE_SPAN.sub(lambda c: " " * len(c.group(0)), " ".join(t for _, t in para))
            ends, pos = [], 0  # offset just past each line in text
            for _, t in para:
                pos += len(t) + 1
                ends.append(pos)
            for lm in INLINE.finditer(text):
                k = next(i for i, e in enumerate(ends) if lm.start() < e)
                yield para[k][0], lm.group(1)
            for k, (n, _) in enumerate(para):
                d = REFDEF.match(text[ends[k] - len(para[k][1]) - 1:ends[k] - 1])
                if d:
                    yield n, d.group(1)
        para = []

def slug(heading):
    """GitHub's anchor of a heading: markup dropped, lower case, punctuation
    removed except - and _, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)                         # inline HTML
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")

anchor_cache = {}

def anchors(path):
    if path not in anchor_cache:
        seen, found = {}, set()
        fenced = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = FENCE.match(line)
                if m:
                    fenced = m.group(1) if fenced is None else (None if m.group(1) == fenced else fenced)
                    continue
                if fenced is not None:
                    continue
                found.update(HTML_ID.findall(line))
                h = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
                if h:
                    s = slug(h.group(1))
                    n = seen.get(s, 0)
                    seen[s] = n + 1
                    found.add(s if n == 0 else "%s-%d" % (s, n))
        anchor_cache[path] = found
    return anchor_cache[path]

errors = 0
checked = 0

def fail(doc, no, target, why):
    global errors
    errors += 1
    print("%s:%d: %s: %s" % (doc, no, target, why))

for doc in docs():
    path = os.path.join(top, doc)
    for no, target in link_targets(path):
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # absolute (http:, https:, mailto:): not fetched
        checked += 1
        file_part, _, anchor = target.partition("#")
        if file_part.startswith("/"):
            fail(doc, no, target, "absolute path; use a path relative to " + doc)
            continue
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if os.path.commonpath([dest, top]) != top:
            fail(doc, no, target, "points outside the repository")
            continue
        if not os.path.exists(dest):
            fail(doc, no, target, "no such file in the tree")
            continue
        if anchor and dest.endswith(".md") and os.path.isfile(dest) and anchor not in anchors(dest):
            fail(doc, no, target, "no heading with anchor #%s in %s" % (anchor, os.path.relpath(dest, top)))

with open(os.path.join(top, "README.md"), encoding="utf-8") as f:
    readme_lines = sum(1 for _ in f)
if readme_lines > README_MAX_LINES:
    errors += 1
    print("README.md: %d lines, more than the front page's %d: move detail to docs/" % (readme_lines, README_MAX_LINES))

print("test_doc_links: %d relative links checked in %d files, README.md %d lines: %d problem(s)"
      % (checked, len(docs()), readme_lines, errors))
sys.exit(1 if errors else 0)
EOF
