# The Ledger model of the kill-during-migration tests, sourced by Scripts/kill-migrate-test.sh and
# Scripts/postgres-kill-migrate-test.sh: version 1 has `name`, `amount` and `note`; version 2 (current) renames `name`
# to `title` (renaming identifier) and removes `note`, which takes a full table rebuild.
#
#   write_ledger_bundle DIRECTORY     writes DIRECTORY/Ledger.xcdatamodeld and prints its path
write_ledger_bundle() {
    local bundle="$1/Ledger.xcdatamodeld"
    local header='<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">'
    mkdir -p "$bundle/Ledger.xcdatamodel" "$bundle/Ledger 2.xcdatamodel"
    cat >"$bundle/Ledger.xcdatamodel/contents" <<XML
$header
    <entity name="Entry" representedClassName="Entry" syncable="YES" codeGenerationType="class">
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="amount" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
        <attribute name="note" optional="YES" attributeType="String"/>
    </entity>
</model>
XML
    cat >"$bundle/Ledger 2.xcdatamodel/contents" <<XML
$header
    <entity name="Entry" representedClassName="Entry" syncable="YES" codeGenerationType="class">
        <attribute name="title" optional="YES" attributeType="String" elementID="name"/>
        <attribute name="amount" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
    </entity>
</model>
XML
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Ledger 2.xcdatamodel</string></dict></plist>\n' \
        >"$bundle/.xccurrentversion"
    echo "$bundle"
}
