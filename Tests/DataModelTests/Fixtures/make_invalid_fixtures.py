#!/usr/bin/env python3
"""Generates Tests/DataModelTests/Fixtures/Invalid and its MANIFEST.tsv (run: python3 make_invalid_fixtures.py).

A line starting with '§' marks the culprit line (the marker is removed); its number goes to the manifest.
"""
import os, shutil, codecs

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'Invalid')
shutil.rmtree(ROOT, ignore_errors=True)
os.makedirs(ROOT)
rows = []

XMLDECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
MODEL = ('<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" '
         'systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">')
OLDMODEL = ('<model userDefinedModelVersionIdentifier="" type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" '
            'lastSavedToolsVersion="14490.99" systemVersion="18F132" minimumToolsVersion="Automatic" sourceLanguage="Objective-C">')

AUTHOR = '''    <entity name="Author" representedClassName="Author" syncable="YES" codeGenerationType="class">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
    </entity>'''
BOOK = '''    <entity name="Book" representedClassName="Book" syncable="YES" codeGenerationType="class">
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
    </entity>'''


def model(body, header=MODEL):
    return '\n'.join([XMLDECL, header, body, '</model>']) + '\n'


def strip_marker(text):
    lines = text.split('\n')
    line = 0
    for index, value in enumerate(lines):
        if value.startswith('§'):
            assert line == 0, 'two markers'
            line = index + 1
            lines[index] = value[1:]
    return '\n'.join(lines), line


def write(relpath, data):
    path = os.path.join(ROOT, relpath)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode('utf-8'))


def fixture(name, text, rule, exit=1, args='-', line=None, kind='xcdatamodel'):
    """A version directory `name.xcdatamodel` holding `contents`."""
    text, marked = strip_marker(text)
    if line is None:
        line = marked
    assert line is not None
    write(f'{name}.{kind}/contents', text)
    rows.append((f'{name}.{kind}', args, exit, rule, line))


def raw(path, data, rule, exit=1, args='-', line=0, row_path=None):
    write(path, data)
    rows.append((row_path or path.rsplit('/contents', 1)[0], args, exit, rule, line))


# ---------------------------------------------------------------- XML level

unclosed = model(AUTHOR + '\n' + BOOK).replace(
    '<attribute name="title" optional="YES" attributeType="String"/>\n',
    '<attribute name="title" optional="YES" attributeType="String">\n')
# libxml2's first error is where the enclosing </entity> does not match the unclosed <attribute> (line 10).
fixture('MalformedUnclosedTag', unclosed, 'xml-malformed', line=10)

mismatched = model(AUTHOR + '\n' + BOOK.replace('    </entity>', '§    </entiy>'))
fixture('MalformedMismatchedTag', mismatched, 'xml-malformed')

garbage = model(AUTHOR + '\n' + BOOK) + '§<elements>\n    <element name="Author" positionX="-63" positionY="-18" width="128" height="74"/>\n</elements>\n'
fixture('MalformedGarbageAfterRoot', garbage, 'xml-malformed')

full = model(AUTHOR + '\n' + BOOK)
cut = full.index('<relationship name="author"') + 60
truncated = full[:cut]
fixture('Truncated', truncated, 'xml-malformed', line=truncated.count('\n') + 1)

raw('Empty.xcdatamodel/contents', b'', 'xml-empty', line=1)
raw('WhitespaceOnly.xcdatamodel/contents', b'\n   \n\t\n  \n', 'xml-malformed', line=5)

plist_no_doctype = '''<?xml version="1.0" encoding="UTF-8"?>
§<plist version="1.0">
<dict>
	<key>_XCCurrentVersionName</key>
	<string>Library.xcdatamodel</string>
</dict>
</plist>
'''
fixture('WrongRootPlist', plist_no_doctype, 'wrong-root')

plist_doctype = '''<?xml version="1.0" encoding="UTF-8"?>
§<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>_XCCurrentVersionName</key>
	<string>Library.xcdatamodel</string>
</dict>
</plist>
'''
fixture('CurrentVersionPlistAsContents', plist_doctype, 'xml-doctype')

latin1 = model(AUTHOR + '\n' + BOOK.replace('        <attribute name="title"', '§        <attribute name="titre" defaultValueString="Caf\u00e9"'))
latin1, latin1_line = strip_marker(latin1)
raw('NotUTF8.xcdatamodel/contents', latin1.encode('latin-1'), 'xml-encoding', line=latin1_line)

xxe = model(AUTHOR + '\n' + BOOK.replace('attributeType="String"/>', 'attributeType="String" defaultValueString="&xxe;"/>'))
xxe = xxe.replace(MODEL, '§<!DOCTYPE model [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n' + MODEL)
fixture('XXE', xxe, 'xml-doctype')

laughs = '§<!DOCTYPE model [\n  <!ENTITY lol "lol">\n'
for i in range(1, 10):
    previous = 'lol' if i == 1 else f'lol{i - 1}'
    laughs += f'  <!ENTITY lol{i} "' + f'&{previous};' * 10 + '">\n'
laughs += ']>\n'
billion = model(AUTHOR + '\n' + BOOK.replace('attributeType="String"/>', 'attributeType="String" defaultValueString="&lol9;"/>'))
fixture('BillionLaughs', billion.replace(MODEL, laughs + MODEL), 'xml-doctype')

external = model(AUTHOR + '\n' + BOOK).replace(MODEL, '§<!DOCTYPE model SYSTEM "http://example.com/CoreDataModel.dtd">\n' + MODEL)
fixture('ExternalDTD', external, 'xml-doctype')

entities = model(AUTHOR + '\n' + BOOK.replace('attributeType="String"/>', 'attributeType="String" defaultValueString="&untitled;"/>'))
entities = entities.replace(MODEL, '§<!DOCTYPE model [\n  <!ENTITY untitled "Untitled">\n  <!ENTITY anonymous "Anonymous">\n]>\n' + MODEL)
fixture('DoctypeEntities', entities, 'xml-doctype')

hidden = model(AUTHOR + '\n' + BOOK).replace(MODEL, '<!-- Generated by a script; do not edit. -->\n<?xml-stylesheet type="text/xsl" href="model.xsl"?>\n§<!DOCTYPE model [<!ENTITY e "x">]>\n' + MODEL)
fixture('DoctypeAfterCommentAndPI', hidden, 'xml-doctype')

# UTF-16LE without a byte-order mark: the DOCTYPE is not visible to a byte-level prolog scanner.
utf16_entity = model(AUTHOR + '\n' + BOOK.replace('attributeType="String"/>', 'attributeType="String" defaultValueString="&untitled;"/>'))
utf16_entity = utf16_entity.replace('encoding="UTF-8"', 'encoding="UTF-16"').replace(MODEL, '§<!DOCTYPE model [<!ENTITY untitled "Untitled">]>\n' + MODEL)
utf16_entity, utf16_line = strip_marker(utf16_entity)
raw('UTF16DoctypeNoBOM.xcdatamodel/contents', utf16_entity.encode('utf-16-le'), 'xml-doctype', line=utf16_line)
utf16_xxe = xxe.replace('encoding="UTF-8"', 'encoding="UTF-16"')
utf16_xxe, utf16_xxe_line = strip_marker(utf16_xxe)
raw('UTF16XXENoBOM.xcdatamodel/contents', utf16_xxe.encode('utf-16-be'), 'xml-doctype', line=utf16_xxe_line)

# 10,000 levels on one line: libxml2 refuses depth > 256.
deep = model(AUTHOR + '\n' + BOOK + '\n    ' + '<e>' * 10000 + '</e>' * 10000)
fixture('DeepNesting10000', deep, 'xml-too-deep', line=deep.count('\n') - 1)
# 100 levels: within libxml2's limit, beyond the parser's own (64).
deep100 = model(AUTHOR + '\n' + BOOK.replace('    </entity>', '        <userInfo>\n§            ' + '<entry>' * 99 + '</entry>' * 99 + '\n        </userInfo>\n    </entity>'))
fixture('DeepNesting100', deep100, 'xml-too-deep')

# ---------------------------------------------------------------- Loader level

raw('NoVersions.xcdatamodeld/.xccurrentversion', '''<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>_XCCurrentVersionName</key>
	<string>NoVersions.xcdatamodel</string>
</dict>
</plist>
''', 'no-model-version', row_path='NoVersions.xcdatamodeld')
raw('MissingContents.xcdatamodel/contents.orig', model(AUTHOR + '\n' + BOOK), 'missing-contents',
    row_path='MissingContents.xcdatamodel')
# Pre-2011 binary format: `elements` and `layout` archives, no `contents`.
ELEMENTS = b'bplist00\xd4\x01\x02\x03\x04\x05\x06\x07\nX$versionX$objectsY$archiverT$top\x12\x00\x01\x86\xa0'
LAYOUT = b'bplist00\xd1\x01\x02Tlayout\xa0\x08\x0b\x10\x00\x00\x00\x00\x00\x00\x01\x01'
raw('Legacy.xcdatamodel/elements', ELEMENTS, 'legacy-binary-format', row_path='Legacy.xcdatamodel')
write('Legacy.xcdatamodel/layout', LAYOUT)
raw('LegacyBundle.xcdatamodeld/LegacyBundle.xcdatamodel/elements', ELEMENTS, 'legacy-binary-format',
    row_path='LegacyBundle.xcdatamodeld')
write('LegacyBundle.xcdatamodeld/LegacyBundle.xcdatamodel/layout', LAYOUT)

current = '''<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>_XCCurrentVersionName</key>
	<string>Library 2.xcdatamodel</string>
</dict>
</plist>
'''
write('Library.xcdatamodeld/.xccurrentversion', current)
write('Library.xcdatamodeld/Library.xcdatamodel/contents', model(AUTHOR + '\n' + BOOK))
write('Library.xcdatamodeld/Library 2.xcdatamodel/contents', model(AUTHOR + '\n' + BOOK.replace(
    '<attribute name="title" optional="YES" attributeType="String"/>',
    '<attribute name="isbn" optional="YES" attributeType="String"/>\n        <attribute name="title" optional="YES" attributeType="String"/>')))
rows.append(('Library.xcdatamodeld', '--model-version Library3', 1, 'unknown-model-version', 0))

# A bundle without .xccurrentversion: loads the newest version with a warning (an error under --warnings-as-errors).
write('NoCurrentVersion.xcdatamodeld/NoCurrentVersion.xcdatamodel/contents', model(AUTHOR + '\n' + BOOK))
write('NoCurrentVersion.xcdatamodeld/NoCurrentVersion 2.xcdatamodel/contents', model(AUTHOR + '\n' + BOOK))
rows.append(('NoCurrentVersion.xcdatamodeld', '--warnings-as-errors', 1, 'current-version', 0))

rows.append(('DoesNotExist.xcdatamodeld', '-', 3, 'io-error', 0))

# `contents` that is not a regular file: reading /dev/zero never ends; a directory cannot be read (found by
# Scripts/fuzz-models.py). A FIFO cannot be committed; LoaderTests covers it.
os.makedirs(os.path.join(ROOT, 'ContentsIsDevice.xcdatamodel'))
os.symlink('/dev/zero', os.path.join(ROOT, 'ContentsIsDevice.xcdatamodel/contents'))
rows.append(('ContentsIsDevice.xcdatamodel', '-', 3, 'io-error', 0))
write('ContentsIsDirectory.xcdatamodel/contents/README', 'contents is a directory here, on purpose.\n')
rows.append(('ContentsIsDirectory.xcdatamodel', '-', 3, 'io-error', 0))

# ---------------------------------------------------------------- Parser level

fixture('UnknownAttributeType', model(AUTHOR + '\n' + BOOK.replace(
    '        <attribute name="title" optional="YES" attributeType="String"/>',
    '        <attribute name="title" optional="YES" attributeType="String"/>\n§        <attribute name="pageCount" optional="YES" attributeType="Integer 128" defaultValueString="0" usesScalarValueType="YES"/>')),
    'unknown-attribute-type')
fixture('UnknownDeletionRule', model(AUTHOR.replace(
    '        <relationship name="books"', '§        <relationship name="books"').replace('deletionRule="Cascade"', 'deletionRule="Delete"') + '\n' + BOOK),
    'invalid-attribute-value')
fixture('EntityWithoutName', model(AUTHOR + '\n' + BOOK + '\n§    <entity representedClassName="Publisher" syncable="YES" codeGenerationType="class">\n        <attribute name="name" optional="YES" attributeType="String"/>\n    </entity>'),
    'missing-name')
fixture('NonIntegerMinCount', model(AUTHOR.replace(
    '        <relationship name="books" optional="YES" toMany="YES"', '§        <relationship name="books" optional="YES" toMany="YES" minCount="one"') + '\n' + BOOK),
    'invalid-attribute-value')
fixture('UnknownElement', model(AUTHOR + '\n' + BOOK.replace('    </entity>', '§        <derivedAttribute name="wordCount" expression="title.length"/>\n    </entity>')),
    'unknown-element', exit=1, args='--warnings-as-errors')
fixture('UnknownCodeGenerationType', model(AUTHOR + '\n' + BOOK.replace(
    '    <entity name="Book" representedClassName="Book" syncable="YES" codeGenerationType="class">',
    '§    <entity name="Book" representedClassName="Book" syncable="YES" codeGenerationType="extension">')),
    'invalid-attribute-value', args='--warnings-as-errors')

fixture('UnknownAttribute', model(AUTHOR + '\n' + BOOK.replace(
    '    <entity name="Book" representedClassName="Book" syncable="YES" codeGenerationType="class">',
    '§    <entity name="Book" representedClassName="Book" syncable="YES" codeGenerationType="class" isSwiftDataModel="YES">')),
    'unknown-attribute', args='--warnings-as-errors')

# ---------------------------------------------------------------- Validator level

fixture('MissingDestinationEntity', model(AUTHOR.replace('    </entity>',
    '§        <relationship name="publisher" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Publisher" inverseName="authors" inverseEntity="Publisher"/>\n    </entity>') + '\n' + BOOK),
    'missing-destination')
fixture('RelationshipWithoutDestination', model(AUTHOR.replace('    </entity>',
    '§        <relationship name="agent" optional="YES" maxCount="1" deletionRule="Nullify"/>\n    </entity>') + '\n' + BOOK),
    'missing-destination')
fixture('BrokenInverse', model(AUTHOR.replace('        <relationship name="books"', '§        <relationship name="books"').replace('inverseName="author"', 'inverseName="writer"') + '\n' + BOOK),
    'inverse-not-found')
EDITOR = '''    <entity name="Editor" representedClassName="Editor" syncable="YES" codeGenerationType="class">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="editor" inverseEntity="Book"/>
    </entity>'''
fixture('InverseNotPointingBack', model(
    AUTHOR.replace('        <relationship name="books"', '§        <relationship name="books"').replace('inverseName="author"', 'inverseName="editor"') + '\n'
    + BOOK.replace('    </entity>', '        <relationship name="editor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Editor" inverseName="books" inverseEntity="Editor"/>\n    </entity>')
    + '\n' + EDITOR), 'inverse-mismatch')
fixture('InverseEntityMismatch', model(AUTHOR.replace('        <relationship name="books"', '§        <relationship name="books"').replace('inverseEntity="Book"', 'inverseEntity="Author"') + '\n' + BOOK),
    'inverse-mismatch')
fixture('InverseAsymmetric', model(AUTHOR.replace('    </entity>',
    '§        <relationship name="favoriteBook" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>\n    </entity>') + '\n' + BOOK),
    'inverse-mismatch', args='--warnings-as-errors')
fixture('DuplicateEntity', model(AUTHOR + '\n' + BOOK + '\n' + BOOK.replace('    <entity name="Book"', '§    <entity name="Book"', 1)),
    'duplicate-entity')
fixture('DuplicateProperty', model(AUTHOR + '\n' + BOOK.replace('    </entity>', '§        <attribute name="title" optional="YES" attributeType="String"/>\n    </entity>')),
    'duplicate-property')
fixture('ShadowedProperty', model(AUTHOR + '\n' + BOOK + '''
    <entity name="Novel" representedClassName="Novel" parentEntity="Book" syncable="YES" codeGenerationType="class">
        <attribute name="genre" optional="YES" attributeType="String"/>
§        <attribute name="title" optional="YES" attributeType="String"/>
    </entity>'''), 'shadowed-property')
fixture('MissingParentEntity', model(AUTHOR + '\n' + BOOK + '''
§    <entity name="Novel" representedClassName="Novel" parentEntity="Publication" syncable="YES" codeGenerationType="class">
        <attribute name="genre" optional="YES" attributeType="String"/>
    </entity>'''), 'missing-parent')
fixture('CyclicInheritance', model(AUTHOR + '\n' + BOOK + '''
§    <entity name="Novel" representedClassName="Novel" parentEntity="Story" syncable="YES" codeGenerationType="class">
        <attribute name="genre" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Story" representedClassName="Story" parentEntity="Novel" syncable="YES" codeGenerationType="class">
        <attribute name="plot" optional="YES" attributeType="String"/>
    </entity>'''), 'cyclic-inheritance')
fixture('MinCountExceedsMaxCount', model(AUTHOR.replace('        <relationship name="books" optional="YES" toMany="YES"',
    '§        <relationship name="books" optional="YES" toMany="YES" minCount="5" maxCount="2"') + '\n' + BOOK),
    'min-count-exceeds-max')
fixture('MinValueExceedsMaxValue', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="pageCount" optional="YES" attributeType="Integer 16" minValueString="500" maxValueString="10" defaultValueString="0" usesScalarValueType="YES"/>\n    </entity>')),
    'min-exceeds-max')
fixture('UndefinedAttribute', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="cover" optional="YES" attributeType="Undefined"/>\n    </entity>')),
    'undefined-not-transient')
fixture('AttributeWithoutType', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="cover" optional="YES" syncable="YES"/>\n    </entity>'), header=OLDMODEL),
    'undefined-not-transient')
fixture('UnknownConstraintProperty', model(AUTHOR + '\n' + BOOK.replace('    </entity>', '''        <uniquenessConstraints>
§            <uniquenessConstraint>
                <constraint value="isbn"/>
            </uniquenessConstraint>
        </uniquenessConstraints>
    </entity>''')), 'unknown-constraint-property')
fixture('UnknownFetchIndexProperty', model(AUTHOR + '\n' + BOOK.replace('    </entity>', '''        <fetchIndex name="byTitleAndYear">
            <fetchIndexElement property="title" type="Binary" order="ascending"/>
§            <fetchIndexElement property="year" type="Binary" order="descending"/>
        </fetchIndex>
    </entity>''')), 'unknown-index-property')
fixture('UnknownCompoundIndexProperty', model(AUTHOR + '\n' + BOOK.replace('    </entity>', '''        <compoundIndexes>
§            <compoundIndex>
                <index value="title"/>
                <index value="isbn"/>
            </compoundIndex>
        </compoundIndexes>
    </entity>'''), header=OLDMODEL), 'unknown-index-property')
fixture('ReservedNameObjectID', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="objectID" optional="YES" attributeType="String"/>\n    </entity>')), 'reserved-name')
fixture('ReservedNameDescription', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="description" optional="YES" attributeType="String"/>\n    </entity>')), 'reserved-name')
fixture('InvalidIdentifierSpace', model(AUTHOR.replace('        <attribute name="name"',
    '§        <attribute name="first name"') + '\n' + BOOK), 'invalid-identifier')
fixture('InvalidIdentifierDigit', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="1st" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>\n    </entity>')), 'invalid-identifier')
fixture('InvalidEntityName', model(AUTHOR + '\n' + BOOK + '''
§    <entity name="Book-Club" representedClassName="BookClub" syncable="YES" codeGenerationType="class">
        <attribute name="name" optional="YES" attributeType="String"/>
    </entity>'''), 'invalid-identifier')
fixture('UnknownFetchRequestEntity', model(AUTHOR + '\n' + BOOK + '''
    <fetchRequest name="AllBooks" entity="Book"/>
§    <fetchRequest name="RecentMagazines" entity="Magazine" predicateString="year &gt; 2000"/>'''), 'unknown-fetch-entity')
fixture('UnknownFetchedPropertyEntity', model(AUTHOR.replace('    </entity>', '''§        <fetchedProperty name="articles" optional="YES">
            <fetchRequest name="fetchedPropertyFetchRequest" entity="Article" predicateString="author == $FETCH_SOURCE"/>
        </fetchedProperty>
    </entity>''') + '\n' + BOOK), 'unknown-fetch-entity')
fixture('InvalidTemplatePredicate', model(AUTHOR + '\n' + BOOK + '''
§    <fetchRequest name="BooksTitled" entity="Book" predicateString="title ==[c] "/>'''), 'invalid-predicate')
fixture('InvalidDerivationExpression', model(AUTHOR.replace('        <attribute name="name"',
    '§        <attribute name="bookCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="books.@total" usesScalarValueType="YES"/>\n        <attribute name="name"') + '\n' + BOOK), 'invalid-predicate')
fixture('UnknownConfigurationEntity', model(AUTHOR + '\n' + BOOK + '''
§    <configuration name="Cloud" usedWithCloudKit="YES">
        <memberEntity name="Author"/>
        <memberEntity name="Magazine"/>
    </configuration>'''), 'unknown-configuration-entity')
fixture('DuplicateClassName', model(AUTHOR + '\n' + BOOK + '''
§    <entity name="LibraryBook" representedClassName="Book" syncable="YES" codeGenerationType="class">
        <attribute name="shelf" optional="YES" attributeType="String"/>
    </entity>'''), 'duplicate-class-name')
fixture('UnknownComposite', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="address" optional="YES" attributeType="Composite" composite="PostalAddress"/>\n    </entity>')), 'unknown-composite')
fixture('InvalidRegularExpression', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="isbn" optional="YES" attributeType="String" regularExpressionString="[0-9"/>\n    </entity>')), 'invalid-regular-expression')
fixture('BadDefaultValue', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="pageCount" optional="YES" attributeType="Integer 32" defaultValueString="many" usesScalarValueType="YES"/>\n    </entity>')),
    'invalid-default-value', args='--warnings-as-errors')
fixture('BadDefaultDate', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="published" optional="YES" attributeType="Date" defaultDateTimeInterval="yesterday"/>\n    </entity>')),
    'invalid-default-value')
fixture('DefaultOutOfRange', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="rating" optional="YES" attributeType="Integer 16" minValueString="1" maxValueString="5" defaultValueString="9" usesScalarValueType="YES"/>\n    </entity>')),
    'default-out-of-range', args='--warnings-as-errors')
fixture('MissingInverse', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <relationship name="sequel" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book"/>\n    </entity>')),
    'missing-inverse', args='--warnings-as-errors')
fixture('TransformableWithoutClass', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>\n    </entity>')),
    'transformable-without-class', args='--warnings-as-errors')
fixture('OrderedToOne', model(AUTHOR + '\n' + BOOK.replace('        <relationship name="author" optional="YES" maxCount="1"',
    '§        <relationship name="author" optional="YES" maxCount="1" ordered="YES"')),
    'ordered-to-one', args='--warnings-as-errors')

fixture('BadMinValue', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="price" optional="YES" attributeType="Double" minValueString="free" defaultValueString="0.0" usesScalarValueType="YES"/>\n    </entity>')),
    'invalid-min-value', args='--warnings-as-errors')
fixture('BadMaxValue', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="summary" optional="YES" attributeType="String" maxValueString="long"/>\n    </entity>')),
    'invalid-max-value', args='--warnings-as-errors')
fixture('MaxCountOnToOne', model(AUTHOR + '\n' + BOOK.replace('        <relationship name="author" optional="YES" maxCount="1"',
    '§        <relationship name="author" optional="YES" maxCount="2"')),
    'max-count-on-to-one', args='--warnings-as-errors')

# Class names that cannot be a Swift declaration or a file name (found by Scripts/fuzz-models.py: `Foo/*` made
# generate write outside its output file names).
fixture('InvalidClassName', model(AUTHOR + '\n' + BOOK.replace(
    '    <entity name="Book" representedClassName="Book"', '§    <entity name="Book" representedClassName="../Foo/*"')),
    'invalid-class-name')
fixture('InvalidCustomClassName', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="tags" optional="YES" attributeType="Transformable" customClassName="Foo */ {"/>\n    </entity>')),
    'invalid-custom-class-name')
# An empty name is no name: it generated `@objc()` and files named `+CoreDataClass.swift` (found by
# Scripts/fuzz-models.py).
fixture('EmptyEntityName', model(AUTHOR + '\n' + BOOK.replace(
    '    <entity name="Book" representedClassName="Book"', '§    <entity name="" representedClassName="Book"')),
    'missing-name')
# A newline in a name must not split the diagnostic over two lines (the test checks one line per diagnostic).
fixture('NewlineInName', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="two&#10;lines" optional="YES" attributeType="String"/>\n    </entity>')),
    'invalid-identifier')
# Class (and file) names that differ only in case overwrite each other on a case-insensitive file system.
fixture('ClassNamesDifferInCase', model(AUTHOR + '\n' + BOOK + '\n' + BOOK.replace(
    '    <entity name="Book" representedClassName="Book"', '§    <entity name="book" representedClassName="book"')),
    'duplicate-class-name')
# A name may not start with a combining mark (Foundation counts U+0301 as a letter; swiftc does not).
fixture('CombiningMarkFirst', model(AUTHOR + '\n' + BOOK.replace('    </entity>',
    '§        <attribute name="\u0301accent" optional="YES" attributeType="String"/>\n    </entity>')),
    'invalid-identifier')
# 258 levels of inheritance: past the limit of 256 ancestors. Validation used to be cubic in the depth (a
# 5,000-level chain hung; found by Scripts/fuzz-models.py).
chain = ['    <entity name="Level0" codeGenerationType="class"/>']
for level in range(1, 258):
    chain.append(('§' if level == 257 else '') + f'    <entity name="Level{level}" parentEntity="Level{level - 1}" codeGenerationType="class"/>')
fixture('InheritanceTooDeep', model('\n'.join(chain)), 'inheritance-too-deep')

with open(os.path.join(ROOT, 'MANIFEST.tsv'), 'w') as f:
    f.write('# fixture\textra-args\texit-code\trule-id\tline\n')
    f.write('# Paths are relative to this file. Extra args are split on spaces (- for none). Line 0: no line.\n')
    f.write('# Generated by ../make_invalid_fixtures.py; checked by DataModelGenCLITests/InvalidCatalogTests.swift.\n')
    for path, args, code, rule, line in rows:
        f.write(f'{path}\t{args}\t{code}\t{rule}\t{line}\n')
print(len(rows), 'rows')
