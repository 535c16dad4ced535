#!/usr/bin/env python3
"""Circles of files in a crate's sources (issue 39: "no circle of files in any crate").

For each `.rs` file, the modules it names (`crate::a::b`, `super::a`, `self::a`, `super::*`,
the items of `use crate::{...}` groups, and in a `mod.rs` its own child modules named by a
relative path) are resolved to the file that defines the longest prefix; declaring a child
(`mod a;`) is not a dependency, and `lib.rs` is left out (every file is declared there). Then
the strongly connected components of more than one file are printed, each file with its edges
inside the circle.

    python3 scripts/circles.py                      # every crates/*/src
    python3 scripts/circles.py crates/server/src    # one crate
    python3 scripts/circles.py crates/server/src 'store/mod.rs->webhooks/mod.rs'
                                                    # as if that edge were gone

Exits 1 when a circle remains. Comments and strings are skipped; a unit `mod tests` at a file's
end is left out. It reads paths, not method calls: an `impl` block split over files is
checked by reading the files' calls (see crates/server/src/hub/mod.rs's module doc).
"""
import glob
import os
import re
import sys


def circles(root, dropped):
    files = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            if f.endswith('.rs'):
                p = os.path.relpath(os.path.join(d, f), root)
                files[p] = open(os.path.join(d, f), encoding='utf-8').read()

    def modpath(p):
        parts = p[:-3].split('/')
        if parts[-1] in ('mod', 'lib', 'main'):
            parts = parts[:-1]
        return parts

    def resolve(parts):
        for k in range(len(parts), 0, -1):
            pre = parts[:k]
            for cand in ('/'.join(pre) + '.rs', '/'.join(pre + ['mod']) + '.rs'):
                if cand in files:
                    return cand
        return None

    edges = {p: set() for p in files}
    for p, t in files.items():
        me = modpath(p)
        t = re.sub(r'//[^\n]*', '', t)
        t = re.sub(r'"(?:[^"\\]|\\.)*"', '""', t)
        t = re.sub(r'#\[cfg\(test\)\]\s*mod tests\s*\{.*', '', t, flags=re.S)
        children = set(re.findall(r'^\s*(?:pub(?:\([a-z]+\))? )?mod ([a-z_0-9]+);', t, re.M))

        def base(head):
            return [] if head == 'crate' else (me[:-1] if head == 'super' else me)

        refs = []
        for m in re.finditer(r'\b(crate|super|self)((?:::[a-z_][a-z_0-9]*)+)', t):
            refs.append(base(m.group(1)) + m.group(2).split('::')[1:])
        for m in re.finditer(r'\b(super|crate)::\*', t):
            refs.append(base(m.group(1)))
        for m in re.finditer(r'\buse (crate|super|self)::\{([^;]*)\};', t):
            for item in m.group(2).split(','):
                item = item.strip().lstrip('{')
                if re.match(r'[a-z_]', item):
                    refs.append(base(m.group(1)) + item.split('::'))
        for c in children:
            if re.search(r'(?<![:\w])' + c + r'::', t):
                refs.append(me + [c])
        for r in refs:
            f = resolve(r)
            if f and f != p and f != 'lib.rs':
                edges[p].add(f)
    for a in dropped:
        x, y = a.split('->')
        edges.get(x, set()).discard(y)

    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return edges, out


def main():
    roots = [a for a in sys.argv[1:] if os.path.isdir(a)] or sorted(glob.glob('crates/*/src'))
    dropped = [a for a in sys.argv[1:] if '->' in a]
    found = False
    for root in roots:
        edges, out = circles(root, dropped)
        for c in out:
            found = True
            print(f'{root}: a circle of {len(c)} files')
            for p in c:
                print(f'    {p} -> {" ".join(sorted(edges[p] & set(c)))}')
    if not found:
        print('no circle of files')
    sys.exit(1 if found else 0)


if __name__ == '__main__':
    main()
