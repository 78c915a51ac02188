import DataModelStoreLayout
import Testing

/// Our DDL with the quoting removed, to compare with `sqlite3 .schema` output of real stores.
private func unquoted(_ statement: String) -> String {
    statement.replacingOccurrences(of: "\"", with: "")
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

@Suite("Real stores reproduced")
struct PublishedStoreTests {
    @Test(arguments: AddressBookModel.publishedTables)
    func addressBookTable(published: String) throws {
        let layout = try StoreLayout(model: AddressBookModel.model)
        let ours = layout.tables.map { unquoted(DDLWriter().createTable($0)) }
        #expect(ours.contains(published), "\(ours.filter { $0.hasPrefix(published.prefix(40)) })")
    }

    @Test func addressBookRelationshipStorage() throws {
        let layout = try StoreLayout(model: AddressBookModel.model)
        let contact = try #require(layout.entity(named: "ABCDContact"))
        #expect(
            contact.relationship(named: "parentGroups")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_22PARENTGROUPS", sourceColumn: "Z_22CONTACTS", destinationColumn: "Z_19PARENTGROUPS1",
                        orderColumn: nil, inverseOrderColumn: nil)))
        #expect(
            contact.relationship(named: "emailAddresses")?.storage
                == .inverseForeignKey(
                    table: "ZABCDEMAILADDRESS",
                    columns: ForeignKeyColumns(column: "ZOWNER", entityColumn: "Z22_OWNER", orderColumn: nil)))
        let group = try #require(layout.entity(named: "ABCDGroup"))
        #expect(
            group.relationship(named: "contacts")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_22PARENTGROUPS", sourceColumn: "Z_19PARENTGROUPS1", destinationColumn: "Z_22CONTACTS",
                        orderColumn: nil, inverseOrderColumn: nil)))
        // A sub-entity sees its inherited relationships too.
        #expect(layout.entity(named: "ABCDSubscribedGroup")?.relationship(named: "childGroups") != nil)
        #expect(layout.entity(named: "ABCDSubscribedContact")?.relationship(named: "parentGroups") != nil)
    }

    /// Bear's store: `Z_5TAGS (Z_5NOTES, Z_13TAGS)` and `Z_5PINNEDINTAGS (Z_5PINNEDNOTES,
    /// Z_13PINNEDINTAGS)`, with reverse indexes `Z_5TAGS_Z_13TAGS_INDEX ON Z_5TAGS (Z_13TAGS,
    /// Z_5NOTES)`; foreign keys indexed `ZSFNOTE_ZPASSWORD_INDEX`.
    @Test func bearNotesAndTags() throws {
        let others = ["SFChange", "SFChangeItem", "SFExternalChanges", "SFInternalChanges"].map { entity($0) }
        let fillers = (0..<7).map { entity("SFNoteA\($0)") }  // numbers 6…12, between SFNote and SFNoteTag
        let model = LayoutModel(
            entities: others + fillers + [
                entity(
                    "SFNote",
                    relationships: [
                        toMany("tags", "SFNoteTag", inverse: "notes"),
                        toMany("pinnedInTags", "SFNoteTag", inverse: "pinnedNotes"),
                        toOne("password", "SFPassword"), toOne("serverData", "SFServerData"),
                    ]),
                entity(
                    "SFNoteTag",
                    relationships: [
                        toMany("notes", "SFNote", inverse: "tags"),
                        toMany("pinnedNotes", "SFNote", inverse: "pinnedInTags"),
                    ]),
                entity("SFPassword"), entity("SFServerData"),
            ])
        let layout = try StoreLayout(model: model)
        #expect(layout.entity(named: "SFNote")?.number == 5)
        #expect(layout.entity(named: "SFNoteTag")?.number == 13)
        #expect(
            layout.joinTableListing == [
                "Z_5TAGS (Z_5NOTES, Z_13TAGS)", "Z_5PINNEDINTAGS (Z_5PINNEDNOTES, Z_13PINNEDINTAGS)",
            ])
        let statements = layout.ddlStatements().map(unquoted)
        #expect(
            statements.contains(
                "CREATE TABLE Z_5TAGS (Z_5NOTES INTEGER, Z_13TAGS INTEGER, PRIMARY KEY (Z_5NOTES, Z_13TAGS))"))
        #expect(statements.contains("CREATE INDEX Z_5TAGS_Z_13TAGS_INDEX ON Z_5TAGS (Z_13TAGS, Z_5NOTES)"))
        #expect(
            statements.contains(
                "CREATE INDEX Z_5PINNEDINTAGS_Z_13PINNEDINTAGS_INDEX ON Z_5PINNEDINTAGS (Z_13PINNEDINTAGS, Z_5PINNEDNOTES)"
            ))
        #expect(statements.contains("CREATE INDEX ZSFNOTE_ZPASSWORD_INDEX ON ZSFNOTE (ZPASSWORD)"))
        #expect(statements.contains("CREATE INDEX ZSFNOTE_ZSERVERDATA_INDEX ON ZSFNOTE (ZSERVERDATA)"))
    }

    /// Apple Notes' `ZICCLOUDSYNCINGOBJECT`: siblings' to-one `account` relationships become
    /// `ZACCOUNT`, `ZACCOUNT1`, `ZACCOUNT2` … in entity order, and each sub-entity's integers and
    /// to-ones come before any date.
    @Test func siblingCollisionsAreSuffixedInEntityOrder() throws {
        let model = LayoutModel(entities: [
            entity("ICAccountData"),
            entity(
                "ICCloudSyncingObject", abstract: true,
                attributes: [attribute("markedForDeletion", .boolean), attribute("identifier")]),
            entity(
                "ICAttachment", parent: "ICCloudSyncingObject",
                attributes: [
                    attribute("fileSize", .integer64), attribute("creationDate", .date), attribute("duration", .double),
                    attribute("title"),
                ],
                relationships: [toOne("account", "ICAccountData"), toOne("note", "ICNote", inverse: "attachments")]),
            entity(
                "ICInlineAttachment", parent: "ICCloudSyncingObject",
                attributes: [attribute("creationDate", .date)],
                relationships: [toOne("account", "ICAccountData"), toOne("note", "ICNote")]),
            entity(
                "ICNote", parent: "ICCloudSyncingObject",
                attributes: [attribute("isPinned", .boolean), attribute("creationDate", .date), attribute("title")],
                relationships: [
                    toOne("account", "ICAccountData"),
                    toMany("attachments", "ICAttachment", inverse: "note", ordered: true),
                ]),
        ])
        let layout = try StoreLayout(model: model)
        #expect(
            layout.columnNames(of: "ZICCLOUDSYNCINGOBJECT") == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZMARKEDFORDELETION", "ZFILESIZE", "ZACCOUNT", "ZNOTE", "Z_FOK_NOTE",
                "ZACCOUNT1", "ZNOTE1", "ZISPINNED", "ZACCOUNT2", "ZCREATIONDATE", "ZDURATION", "ZCREATIONDATE1",
                "ZCREATIONDATE2", "ZIDENTIFIER", "ZTITLE", "ZTITLE1",
            ])
        let note = try #require(layout.entity(named: "ICNote"))
        #expect(note.attribute(named: "creationDate")?.column == "ZCREATIONDATE2")
        #expect(note.attribute(named: "identifier")?.column == "ZIDENTIFIER")
        #expect(
            note.columns.map(\.name) == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZMARKEDFORDELETION", "ZISPINNED", "ZACCOUNT2", "ZCREATIONDATE2",
                "ZIDENTIFIER", "ZTITLE1",
            ])
        #expect(
            note.relationship(named: "attachments")?.storage
                == .inverseForeignKey(
                    table: "ZICCLOUDSYNCINGOBJECT",
                    columns: ForeignKeyColumns(column: "ZNOTE", entityColumn: nil, orderColumn: "Z_FOK_NOTE")))
    }
}
