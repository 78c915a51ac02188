#!/usr/bin/env python3
"""Mutation fuzzer for datamodelgen: bad input must never crash, hang or exit without a diagnostic.

Usage: Scripts/fuzz-models.py [--seed N] [--iterations N] [--seconds S] [--binary PATH] [--out DIR]

Seeds are Models/**/contents and ../shared/corpus/models/**/contents (beside the repository). Each mutant is run with
`validate`, `schema`, `generate --flavor coredata`, `generate` (runtime) and `dump`, from inside its
directory with a relative path; failures are classified (crash, hang, error-exit-0, no-diagnostic,
swift-parse) and one minimized reproducer per distinct failure is saved under --out.
Build first: swift build -c release --product datamodelgen.
"""
import argparse, glob, os, random, re, shutil, subprocess, sys, tempfile, time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIAG = re.compile(r'^.+?: error: .+ \[[a-z0-9-]+\]$', re.M)
COMMANDS = {
    'validate': ['validate'],
    'schema': ['schema'],
    'coredata': ['generate', '--flavor', 'coredata', '--output', '{out}'],
    'runtime': ['generate', '--output', '{out}'],
    'dump': ['dump'],
}
NAMES = ['', ' ', 'a b', 'Z_PK', 'Z_ENT', 'Z_OPT', 'class', 'self', 'Type', 'Protocol', 'init', 'default',
         'description', 'name', 'NAME', 'Name', 'x' * 10000, 'é', 'Ünïcødé', '日本', '🙂', '1abc', '_', '__',
         'a.b', 'a-b', '$x', '`x`', 'entity', 'objectID', 'Z', 'z', 'ZNAME', 'Any', 'Self', 'sqlite_master',
         'a\u0301', '\u00e1', 'A' * 300]
CLASSNAMES = ['.', 'MyApp.', '.Foo', '1Foo', 'Foo Bar', '[String: Any]', 'Array<Int>', 'Module.Foo<Bar>',
              'Foo?', 'Foo!', '', ' ', 'NSObject', 'Swift.String', 'a.b.c.d', 'Foo<', '(Int, Int)', '() -> Void',
              'inout Foo', 'Foo/*', '"Foo"', 'Foo\\', 'Foo\nBar', '{{x}}', '}}{{', 'Int...', 'any P', 'some P',
              'class', 'each', 'Self', 'x', 'a/b', '../X', '[Int : [String:Int]]', 'Foo<Bar<Baz>>']
NUMBERS = ['', '-1', '0', '1', '-0', '2', '999999999999999999999999', '-9223372036854775808',
           '9223372036854775807', '9223372036854775808', '1e308', '-1e309', 'nan', 'inf', '-inf', 'abc', '0x10',
           '1.5', ' 3 ', '١٢', '1_000', '+5', '32767', '32768', '-32769', '2147483648', '1e-400', '0.1e1']
NUMERIC_ATTRS = ['minCount', 'maxCount', 'defaultValueString', 'minValueString', 'maxValueString',
                 'defaultDateTimeInterval', 'minDateTimeInterval', 'maxDateTimeInterval']
TYPES = ['Integer 16', 'Integer 32', 'Integer 64', 'Decimal', 'Double', 'Float', 'String', 'Boolean', 'Date',
         'Binary', 'UUID', 'URI', 'Transformable', 'ObjectID', 'Composite', 'Undefined', 'Bogus', '', 'string']
BOOLS = ['YES', 'NO', '', 'maybe', '1', 'true']


def seeds():
    paths = sorted(glob.glob(os.path.join(ROOT, 'Models/**/contents'), recursive=True))
    paths += sorted(glob.glob(os.path.join(ROOT, '..', 'shared', 'corpus', 'models', '**', 'contents'), recursive=True))
    out = []
    for path in paths:
        try:
            with open(path, 'rb') as f:
                data = f.read()
            ET.fromstring(data)
            out.append((path, data))
        except (OSError, ET.ParseError):
            pass
    return out


# ---- structured mutations (on an ElementTree root) -------------------------------------------------

def entities(root):
    return root.findall('entity')


def props(root, tag=None):
    return [(e, p) for e in entities(root) for p in e if tag is None or p.tag == tag]


def ent_names(root):
    return [e.get('name', '') for e in entities(root)] or ['X']


def m_drop(rng, root):
    pairs = [(parent, child) for parent in root.iter() for child in parent]
    if pairs:
        parent, child = rng.choice(pairs)
        parent.remove(child)


def m_duplicate(rng, root):
    pairs = [(parent, child) for parent in root.iter() for child in parent]
    if pairs:
        parent, child = rng.choice(pairs)
        parent.insert(rng.randrange(len(parent) + 1), ET.fromstring(ET.tostring(child)))


def m_reorder(rng, root):
    for parent in root.iter():
        children = list(parent)
        rng.shuffle(children)
        parent[:] = children


def m_swap_values(rng, root):
    elements = [e for e in root.iter() if e.attrib]
    if len(elements) >= 2:
        a, b = rng.sample(elements, 2)
        key = rng.choice(list(a.attrib))
        if key in b.attrib:
            a.attrib[key], b.attrib[key] = b.attrib[key], a.attrib[key]
        else:
            b.set(key, a.get(key))


def m_number(rng, root):
    candidates = props(root, 'attribute') + props(root, 'relationship')
    if candidates:
        _, p = rng.choice(candidates)
        p.set(rng.choice(NUMERIC_ATTRS), rng.choice(NUMBERS))


def m_name(rng, root):
    elements = [e for e in root.iter() if e.tag in ('entity', 'attribute', 'relationship', 'fetchedProperty')]
    if elements:
        rng.choice(elements).set('name', rng.choice(NAMES))


def m_case_collision(rng, root):
    es = entities(root)
    if not es:
        return
    e = rng.choice(es)
    base = rng.choice(['name', 'value', 'id', 'zname', e.get('name', 'x').lower()])
    ET.SubElement(e, 'attribute', name=base, attributeType='String', optional='YES')
    ET.SubElement(e, 'attribute', name=base.upper(), attributeType='Integer 32', optional='YES')
    if rng.random() < 0.5:  # parent/child collision
        child = ET.SubElement(root, 'entity', name=e.get('name', 'X') + 'Child', parentEntity=e.get('name', 'X'))
        ET.SubElement(child, 'attribute', name=base.capitalize(), attributeType='String', optional='YES')
        ET.SubElement(child, 'relationship', name=base.upper() + '_', destinationEntity=e.get('name', 'X'))


def m_entity_case_collision(rng, root):
    es = entities(root)
    if es:
        name = rng.choice(es).get('name', 'x')
        ET.SubElement(root, 'entity', name=name.swapcase() or 'x', representedClassName=name,
                      codeGenerationType='class')


def m_relationship_refs(rng, root):
    rels = props(root, 'relationship')
    if not rels:
        es = entities(root)
        if not es:
            return
        e = rng.choice(es)
        rels = [(e, ET.SubElement(e, 'relationship', name='r', destinationEntity=e.get('name', '')))]
    e, r = rng.choice(rels)
    choice = rng.randrange(8)
    if choice == 0:
        r.set('destinationEntity', rng.choice(['Nope', '', e.get('name', '')]))
    elif choice == 1:
        r.set('inverseName', rng.choice([r.get('name', ''), 'nope', '']))
        r.set('inverseEntity', rng.choice([e.get('name', ''), r.get('destinationEntity', ''), 'Nope']))
    elif choice == 2:
        r.set('ordered', 'YES')
        r.attrib.pop('toMany', None)
    elif choice == 3:  # to-many with to-many ordered inverse
        r.set('toMany', 'YES')
        r.set('ordered', 'YES')
        for _, other in rels:
            if other.get('name') == r.get('inverseName'):
                other.set('toMany', 'YES')
                other.set('ordered', 'YES')
    elif choice == 4:  # destination abstract
        for d in entities(root):
            if d.get('name') == r.get('destinationEntity'):
                d.set('isAbstract', 'YES')
    elif choice == 5:
        r.set('destinationEntity', rng.choice(ent_names(root)))
    elif choice == 6:
        r.set('deletionRule', rng.choice(['Cascade', 'Deny', 'Nullify', 'No Action', 'Bogus', '']))
    else:
        r.set('transient', rng.choice(BOOLS))


def m_inheritance(rng, root):
    es = entities(root)
    if not es:
        return
    choice = rng.randrange(4)
    if choice == 0:
        rng.choice(es).set('parentEntity', rng.choice(ent_names(root) + ['Nope', '']))
    elif choice == 1 and len(es) >= 2:  # cycle
        a, b = rng.sample(es, 2)
        a.set('parentEntity', b.get('name', ''))
        b.set('parentEntity', a.get('name', ''))
    elif choice == 2:
        e = rng.choice(es)
        e.set('parentEntity', e.get('name', ''))
    else:  # deep chain
        depth = rng.choice([50, 200, 256, 300, 5000])
        parent = rng.choice(ent_names(root))
        for level in range(depth):
            name = f'Deep{level}'
            node = ET.SubElement(root, 'entity', name=name, parentEntity=parent, codeGenerationType='class')
            ET.SubElement(node, 'attribute', name=f'v{level}', attributeType=rng.choice(TYPES[:8]), optional='YES')
            parent = name


def m_big_entity(rng, root):
    count = rng.choice([0, 2000, 5000])
    e = ET.SubElement(root, 'entity', name=f'Big{count}', codeGenerationType='class')
    for i in range(count):
        ET.SubElement(e, 'attribute', name=f'a{i}', attributeType=TYPES[i % 8], optional='YES')
    if count == 0 and rng.random() < 0.5:
        for child in entities(root):
            child[:] = [c for c in child if c.tag not in ('attribute', 'relationship')]


def m_codegen(rng, root):
    es = entities(root)
    if es:
        rng.choice(es).set('codeGenerationType', rng.choice(['class', 'category', '', 'bogus', 'Class']))


def m_type(rng, root):
    attrs = props(root, 'attribute')
    if attrs:
        _, a = rng.choice(attrs)
        if rng.random() < 0.3:
            a.attrib.pop('attributeType', None)
        else:
            a.set('attributeType', rng.choice(TYPES))


def m_class_names(rng, root):
    attrs = props(root, 'attribute')
    if attrs and rng.random() < 0.5:
        _, a = rng.choice(attrs)
        a.set('attributeType', rng.choice(['Transformable', 'Binary', a.get('attributeType', 'String')]))
        a.set('customClassName', rng.choice(CLASSNAMES))
    elif entities(root):
        e = rng.choice(entities(root))
        e.set('representedClassName', rng.choice(CLASSNAMES))
        e.set('codeGenerationType', 'class')


def m_lists(rng, root):
    es = entities(root)
    if not es:
        return
    e = rng.choice(es)
    names = [p.get('name', '') for p in e if p.tag in ('attribute', 'relationship')]
    names += ['unknown', '', 'Z_PK']
    if rng.random() < 0.5:
        uc = ET.SubElement(ET.SubElement(e, 'uniquenessConstraints'), 'uniquenessConstraint')
        for _ in range(rng.randrange(0, 4)):
            ET.SubElement(uc, 'constraint', value=rng.choice(names))
    else:
        fi = ET.SubElement(e, 'fetchIndex', name=rng.choice(['byX', '', 'Z_PK', 'ZENTITY', 'byX']))
        for _ in range(rng.randrange(0, 4)):
            ET.SubElement(fi, 'fetchIndexElement', property=rng.choice(names),
                          type=rng.choice(['Binary', 'RTree', 'bogus']), order=rng.choice(['ascending', 'x']))


def m_attr_flags(rng, root):
    elements = [p for _, p in props(root)]
    if elements:
        p = rng.choice(elements)
        p.set(rng.choice(['optional', 'transient', 'derived', 'usesScalarValueType', 'indexed', 'toMany']),
              rng.choice(BOOLS))
        if rng.random() < 0.2:
            p.set('derivationExpression', rng.choice(['', 'a.b', '@count', 'now()', '{{x}}']))
        if rng.random() < 0.2:
            p.set('regularExpressionString', rng.choice(['(', '.*', '[', '\\']))


def m_duplicate_entity(rng, root):
    es = entities(root)
    if es:
        root.append(ET.fromstring(ET.tostring(rng.choice(es))))


STRUCTURED = [m_drop, m_duplicate, m_reorder, m_swap_values, m_number, m_number, m_name, m_name,
              m_case_collision, m_entity_case_collision, m_relationship_refs, m_relationship_refs, m_inheritance,
              m_big_entity, m_codegen, m_type, m_class_names, m_class_names, m_lists, m_attr_flags,
              m_duplicate_entity]


def corrupt_bytes(rng, data):
    choice = rng.randrange(5)
    if choice == 0 and data:
        return data[:rng.randrange(len(data))]
    if choice == 1 and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8))) + data[i + 1:]
    if choice == 2:
        i = rng.randrange(len(data) + 1)
        return data[:i] + rng.choice([b'\xff\xfe', b'\xc3', b'\xed\xa0\x80', b'\x00', b'&#0;', b'&#xD800;',
                                      b'\xef\xbb\xbf', b'<!--', b']]>', b'&amp']) + data[i:]
    if choice == 3 and data:
        i = rng.randrange(len(data))
        return data[:i] + data[i:i + 200] * rng.randrange(2, 50) + data[i:]
    return data.replace(b'"', b"'", rng.randrange(1, 4))


def mutate(rng, data):
    """Returns mutated bytes and a description."""
    root = ET.fromstring(data)
    steps = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        m = rng.choice(STRUCTURED)
        m(rng, root)
        steps.append(m.__name__)
    out = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + ET.tostring(root)
    if rng.random() < 0.1:
        out = corrupt_bytes(rng, out)
        steps.append('corrupt_bytes')
    return out, steps


# ---- layouts on disk ---------------------------------------------------------------------------------

CURRENT_VERSIONS = [
    b'', b'garbage\x00\xff', b'bplist00\xd1\x01\x02_\x10\x15_XCCurrentVersionName\x08\x0b\x23\x00\x00\x00\x00\x00'
    b'\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x2a',
    b'bplist00\xff\xff\xff', b'<plist><dict><key>_XCCurrentVersionName</key><string>../../etc</string></dict></plist>',
    b'<plist><dict><key>_XCCurrentVersionName</key><string>../M.xcdatamodel</string></dict></plist>',
    b'<plist><dict><key>_XCCurrentVersionName</key><integer>3</integer></dict></plist>',
    b'<plist><dict><key>_XCCurrentVersionName</key><string></string></dict></plist>',
    b'<plist><array/></plist>', b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><plist/>',
]


def lay_out(rng, work, data):
    """Writes a mutant under `work`; returns the path to pass to the tool."""
    kind = rng.random()
    if kind < 0.45:  # a version directory; one-character names once crashed path handling
        path = os.path.join(work, rng.choice(['M.xcdatamodel', 'M.xcdatamodel', 'a', 'M']))
        os.makedirs(path)
        with open(os.path.join(path, 'contents'), 'wb') as f:
            f.write(data)
        return path
    if kind < 0.55:  # a bare contents file
        path = os.path.join(work, rng.choice(['contents', 'x', 'm.xml']))
        with open(path, 'wb') as f:
            f.write(data)
        return path
    if kind < 0.85:
        bundle = os.path.join(work, 'M.xcdatamodeld')
        for version in rng.sample(['M', 'M 2', 'M 10', '..', 'x'], rng.randrange(1, 3)):
            os.makedirs(os.path.join(bundle, version + '.xcdatamodel'), exist_ok=True)
            with open(os.path.join(bundle, version + '.xcdatamodel', 'contents'), 'wb') as f:
                f.write(data)
        if rng.random() < 0.7:
            with open(os.path.join(bundle, '.xccurrentversion'), 'wb') as f:
                f.write(rng.choice(CURRENT_VERSIONS))
        return bundle
    path = os.path.join(work, 'M.xcdatamodel')
    os.makedirs(path)
    contents = os.path.join(path, 'contents')
    special = rng.randrange(5)
    if special == 0:
        os.symlink('contents', contents)  # self loop
    elif special == 1:
        os.makedirs(contents)
    elif special == 2:
        with open(contents, 'wb') as f:
            f.write(data)
        os.chmod(contents, 0)
    elif special == 3:
        os.symlink('/dev/zero' if rng.random() < 0.3 else '/nonexistent', contents)
    else:
        os.rmdir(path)
        os.symlink(path, path)
    return path


# ---- running and classifying -------------------------------------------------------------------------

def run(binary, command, model, work, timeout, extra=()):
    out = os.path.join(work, 'out-' + command)
    # Relative paths from inside the work directory, as a user would type them.
    argv = [binary] + COMMANDS[command][:1] + [os.path.relpath(model, work)]
    argv += [a.replace('{out}', 'out-' + command) for a in COMMANDS[command][1:]] + list(extra)
    try:
        p = subprocess.run(argv, capture_output=True, timeout=timeout, cwd=work)
    except subprocess.TimeoutExpired:
        return 'hang', 'timeout', out
    err = p.stderr.decode('utf-8', 'replace')
    lines = err.strip().splitlines()
    first = next((l for l in lines if 'error:' in l), lines[0] if lines else '')
    if p.returncode < 0:
        fatal = re.search(r'(Fatal error|Precondition failed|Assertion failed)[^\n]*', err)
        return 'crash', f'signal {-p.returncode} ' + (fatal.group(0) if fatal else ''), out
    has_error = 'error:' in err
    if p.returncode == 0 and has_error:
        return 'error-exit-0', first, out
    if p.returncode != 0 and not DIAG.search(err):
        return 'no-diagnostic', f'exit {p.returncode}: ' + first, out
    return None, '', out


def swift_parse(out):
    files = sorted(glob.glob(os.path.join(out, '*.swift')))[:60]  # a sample keeps huge models quick
    if not files:
        return None
    try:
        p = subprocess.run(['swiftc', '-parse'] + files, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode != 0:
        first = next((l for l in p.stderr.decode('utf-8', 'replace').splitlines() if 'error:' in l), '')
        return re.sub(r'^.*?error:', 'error:', first)
    return None


def signature(kind, command, detail):
    detail = re.sub(r"'[^']*'", "'_'", detail)
    detail = re.sub(r'\d+', 'N', detail)
    detail = re.sub(r'/\S+', '/P', detail)
    return f'{kind}|{command}|{detail[:160]}'


def reproduces(binary, data, command, sig, timeout, parse_check, extra=()):
    with tempfile.TemporaryDirectory(prefix='fuzzmin-') as work:
        path = os.path.join(work, 'M.xcdatamodel')
        os.makedirs(path)
        with open(os.path.join(path, 'contents'), 'wb') as f:
            f.write(data)
        kind, detail, out = run(binary, command, path, work, timeout, extra)
        if parse_check:
            detail = swift_parse(out) if kind is None and os.path.isdir(out) else None
            kind = 'swift-parse' if detail else None
        return kind is not None and signature(kind, command, detail) == sig


def minimize(binary, data, command, sig, timeout, parse_check, extra=(), budget=80):
    """Greedy element removal while the failure keeps its signature (flat models only)."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return data
    best = data
    changed = True
    while changed and budget > 0:
        changed = False
        for parent in list(root.iter()):
            for child in list(parent):
                if budget <= 0:
                    return best
                budget -= 1
                index = list(parent).index(child)
                parent.remove(child)
                candidate = b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root)
                if reproduces(binary, candidate, command, sig, timeout, parse_check, extra):
                    best, changed = candidate, True
                else:
                    parent.insert(index, child)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--iterations', type=int, default=0, help='0: unlimited')
    ap.add_argument('--seconds', type=float, default=0, help='0: unlimited')
    ap.add_argument('--binary', default=os.path.join(ROOT, '.build/release/datamodelgen'))
    ap.add_argument('--out', default=None, help='reproducer directory (default: a new temp dir)')
    ap.add_argument('--timeout', type=float, default=20)
    ap.add_argument('--parse-every', type=int, default=10, help='swiftc -parse 1 in N coredata outputs (0: never)')
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(2 ** 32)
    rng = random.Random(seed)
    out_dir = args.out or tempfile.mkdtemp(prefix='datamodelgen-fuzz-')
    os.makedirs(out_dir, exist_ok=True)
    corpus = seeds()
    print(f'seed {seed}; {len(corpus)} seed models; reproducers in {out_dir}', flush=True)
    found = {}
    start = time.time()
    iteration = 0
    while (not args.iterations or iteration < args.iterations) and \
            (not args.seconds or time.time() - start < args.seconds):
        iteration += 1
        seed_path, data = rng.choice(corpus)
        mutant, steps = mutate(rng, data)
        work = tempfile.mkdtemp(prefix='fuzz-')
        try:
            model = lay_out(rng, work, mutant)
            # Half the time, also generate Manual/None entities (their class names are not otherwise used).
            extra = ['--include-manual'] if rng.random() < 0.5 else []
            for command in COMMANDS:
                kind, detail, out = run(args.binary, command, model, work, args.timeout,
                                        extra if command in ('coredata', 'runtime') else ())
                parse_check = False
                if kind is None and command == 'coredata' and args.parse_every and \
                        rng.randrange(args.parse_every) == 0 and os.path.isdir(out):
                    detail = swift_parse(out)
                    kind, parse_check = ('swift-parse', True) if detail else (None, False)
                if kind is None:
                    continue
                sig = signature(kind, command, detail)
                found[sig] = found.get(sig, 0) + 1
                if found[sig] > 1:
                    continue
                case = os.path.join(out_dir, f'{len([s for s in found]):03d}-{kind}-{command}')
                shutil.copytree(work, case, symlinks=True, ignore=shutil.ignore_patterns('out-*'))
                flat = os.path.isdir(model) and os.path.isfile(os.path.join(model, 'contents')) \
                    and not os.path.islink(os.path.join(model, 'contents')) and not model.endswith('.xcdatamodeld')
                small = minimize(args.binary, mutant, command, sig, args.timeout, parse_check,
                                 extra if command in ('coredata', 'runtime') else ()) if flat else mutant
                with open(os.path.join(case, 'minimized.contents'), 'wb') as f:
                    f.write(small)
                with open(os.path.join(case, 'README.txt'), 'w') as f:
                    f.write(f'{sig}\nseed model: {seed_path}\nmutations: {steps}\ncommand: {COMMANDS[command] + extra}\n'
                            f'model: {model}\ndetail: {detail}\n')
                print(f'[{iteration}] NEW {sig}\n    -> {case}', flush=True)
        finally:
            for dirpath, _, _ in os.walk(work):
                try:
                    os.chmod(dirpath, 0o755)
                except OSError:
                    pass
            subprocess.run(['chmod', '-R', 'u+rwX', work], capture_output=True)
            shutil.rmtree(work, ignore_errors=True)
        if iteration % 50 == 0:
            elapsed = time.time() - start
            print(f'{iteration} mutants, {elapsed:.0f}s, {iteration / elapsed:.2f}/s, {len(found)} distinct',
                  flush=True)
    elapsed = time.time() - start
    print(f'done: seed {seed}, {iteration} mutants in {elapsed:.0f}s ({iteration / max(elapsed, 1e-9):.2f}/s), '
          f'{len(found)} distinct failures in {out_dir}')
    for sig, count in sorted(found.items()):
        print(f'  {count:5d}  {sig}')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
