import DataModelStoreLayout
import Testing

@Suite("Join tables")
struct JoinTableNamingTests {
    /// Reproduces DESIGN.md's observed join tables: `Z_1ARTISTS (Z_1ALBUMSFEATURINGARTIST,
    /// Z_2ARTISTS)`, `Z_2SHOWSFEATURINGARTIST (Z_2ARTISTS1, Z_13SHOWSFEATURINGARTIST)`,
    /// `Z_3SHOWS (Z_3ARTWORKS1, Z_14SHOWS)`, `Z_3LOCATIONS (Z_3ARTWORKS2, Z_10LOCATIONS)`.
    static let galleryModel = LayoutModel(entities: [
        entity("Album", relationships: [toMany("artists", "Artist", inverse: "albumsFeaturingArtist")]),
        entity(
            "Artist",
            relationships: [
                toMany("albumsFeaturingArtist", "Album", inverse: "artists"),
                toMany("showsFeaturingArtist", "Show", inverse: "artists"),
                toMany("artworks", "Artwork", inverse: "artists"),
            ]),
        entity(
            "Artwork",
            relationships: [
                toMany("artists", "Artist", inverse: "artworks"),
                toMany("shows", "Showing", inverse: "artworks"),
                toMany("locations", "Location", inverse: "artworks"),
            ]),
        entity("Document", abstract: true), entity("ArtistDocument", parent: "Document"),
        entity("ShowDocument", parent: "Document"),
        entity("Image"), entity("InstallShotImage", parent: "Image"), entity("LocalImage", parent: "Image"),
        entity("Location", relationships: [toMany("artworks", "Artwork", inverse: "locations")]),
        entity("Museum"), entity("Press"),
        entity("Show", relationships: [toMany("artists", "Artist", inverse: "showsFeaturingArtist")]),
        entity("Showing", relationships: [toMany("artworks", "Artwork", inverse: "shows")]),
    ])

    @Test func designExamplesWithSuffixes() throws {
        let layout = try StoreLayout(model: Self.galleryModel)
        #expect(layout.entity(named: "Location")?.number == 10)
        #expect(layout.entity(named: "Show")?.number == 13)
        #expect(layout.entity(named: "Showing")?.number == 14)
        #expect(
            layout.joinTableListing == [
                "Z_1ARTISTS (Z_1ALBUMSFEATURINGARTIST, Z_2ARTISTS)",
                "Z_2SHOWSFEATURINGARTIST (Z_2ARTISTS1, Z_13SHOWSFEATURINGARTIST)",
                "Z_2ARTWORKS (Z_2ARTISTS2, Z_3ARTWORKS)",
                "Z_3SHOWS (Z_3ARTWORKS1, Z_14SHOWS)",
                "Z_3LOCATIONS (Z_3ARTWORKS2, Z_10LOCATIONS)",
            ])
        let join = try #require(layout.joinTables.first)
        #expect(join.ownerEntityNumber == 1)
        #expect(join.ownerRelationshipName == "artists")
        #expect(join.destinationEntityNumber == 2)
        #expect(join.inverseRelationshipName == "albumsFeaturingArtist")
        #expect(join.table.primaryKey == ["Z_1ALBUMSFEATURINGARTIST", "Z_2ARTISTS"])
        #expect(join.table.kind == .join)
        #expect(layout.joinTable(named: "Z_3SHOWS")?.destinationEntityNumber == 14)
        #expect(layout.joinTable(named: "ZALBUM") == nil)
    }

    @Test func bothSidesSeeTheSameJoinTableFromTheirEnd() throws {
        let layout = try StoreLayout(model: Self.galleryModel)
        let artwork = try #require(layout.entity(named: "Artwork"))
        let location = try #require(layout.entity(named: "Location"))
        #expect(
            artwork.relationship(named: "locations")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_3LOCATIONS", sourceColumn: "Z_3ARTWORKS2", destinationColumn: "Z_10LOCATIONS",
                        orderColumn: nil, inverseOrderColumn: nil)))
        #expect(
            location.relationship(named: "artworks")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_3LOCATIONS", sourceColumn: "Z_10LOCATIONS", destinationColumn: "Z_3ARTWORKS2",
                        orderColumn: nil, inverseOrderColumn: nil)))
    }

    /// DESIGN.md: `Z_6ADMINSINVERSE (Z_6ADMINS, Z_6ADMINSINVERSE)`, with a real inverse.
    @Test func selfJoinWithNamedInverse() throws {
        let fillers = (1...5).map { entity("E\($0)") }
        let layout = try StoreLayout(
            model: LayoutModel(
                entities: fillers + [
                    entity(
                        "Team",
                        relationships: [
                            toMany("admins", "Team", inverse: "adminsInverse"),
                            toMany("adminsInverse", "Team", inverse: "admins"),
                        ])
                ]))
        #expect(layout.entity(named: "Team")?.number == 6)
        #expect(layout.joinTableListing == ["Z_6ADMINSINVERSE (Z_6ADMINS, Z_6ADMINSINVERSE)"])
        let team = try #require(layout.entity(named: "Team"))
        #expect(
            team.relationship(named: "admins")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_6ADMINSINVERSE", sourceColumn: "Z_6ADMINSINVERSE", destinationColumn: "Z_6ADMINS",
                        orderColumn: nil, inverseOrderColumn: nil)))
    }

    /// A to-many without inverse gets a join table as if its destination had an inverse named
    /// `<name>Inverse`: the same table as the named-inverse case above.
    @Test func toManyWithoutInverseGetsAJoinTable() throws {
        let fillers = (1...5).map { entity("E\($0)") }
        let layout = try StoreLayout(
            model: LayoutModel(entities: fillers + [entity("Team", relationships: [toMany("admins", "Team")])]))
        #expect(layout.joinTableListing == ["Z_6ADMINSINVERSE (Z_6ADMINS, Z_6ADMINSINVERSE)"])
        #expect(layout.joinTables.first?.ownerRelationshipName == "adminsInverse")
        let admins = try #require(layout.entity(named: "Team")?.relationship(named: "admins"))
        #expect(admins.inverseName == nil)
        #expect(
            admins.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_6ADMINSINVERSE", sourceColumn: "Z_6ADMINSINVERSE", destinationColumn: "Z_6ADMINS",
                        orderColumn: nil, inverseOrderColumn: nil)))
    }

    @Test func toManyWithoutInverseAcrossEntities() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Person", relationships: [toMany("vitals", "Vital")]), entity("Vital"),
            ]))
        #expect(layout.joinTableListing == ["Z_1VITALS (Z_1VITALSINVERSE, Z_2VITALS)"])
        #expect(
            layout.entity(named: "Person")?.relationship(named: "vitals")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_1VITALS", sourceColumn: "Z_1VITALSINVERSE", destinationColumn: "Z_2VITALS",
                        orderColumn: nil, inverseOrderColumn: nil)))
    }

    /// A to-many relationship that is its own inverse: both columns would be `Z_1FRIENDS`.
    @Test func reflexiveRelationshipThatIsItsOwnInverse() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Person", relationships: [toMany("friends", "Person", inverse: "friends")])
            ]))
        #expect(layout.joinTableListing == ["Z_1FRIENDS (Z_1FRIENDS, Z_1FRIENDS1)"])
        #expect(
            layout.entity(named: "Person")?.relationship(named: "friends")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_1FRIENDS", sourceColumn: "Z_1FRIENDS", destinationColumn: "Z_1FRIENDS1",
                        orderColumn: nil, inverseOrderColumn: nil)))
    }

    /// Photos: `Z_26ASSETS (Z_26ALBUMS, Z_34ASSETS, Z_FOK_34ASSETS)`: the ordered side's
    /// positions, named after the column of its destinations.
    @Test func orderedManyToManyGetsAnOrderColumn() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Album", relationships: [toMany("assets", "Asset", inverse: "albums", ordered: true)]),
                entity("Asset", relationships: [toMany("albums", "Album", inverse: "assets")]),
            ]))
        #expect(layout.joinTableListing == ["Z_1ASSETS (Z_1ALBUMS, Z_2ASSETS, Z_FOK_2ASSETS)"])
        let join = try #require(layout.joinTables.first)
        #expect(join.destinationOrderColumn == "Z_FOK_2ASSETS")
        #expect(join.sourceOrderColumn == nil)
        #expect(
            layout.entity(named: "Album")?.relationship(named: "assets")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_1ASSETS", sourceColumn: "Z_1ALBUMS", destinationColumn: "Z_2ASSETS",
                        orderColumn: "Z_FOK_2ASSETS", inverseOrderColumn: nil)))
        #expect(
            layout.entity(named: "Asset")?.relationship(named: "albums")?.storage
                == .joinTable(
                    JoinColumns(
                        table: "Z_1ASSETS", sourceColumn: "Z_2ASSETS", destinationColumn: "Z_1ALBUMS",
                        orderColumn: nil, inverseOrderColumn: "Z_FOK_2ASSETS")))
        #expect(layout.entity(named: "Album")?.relationship(named: "assets")?.isOrdered == true)
    }

    /// A trial-preparation app's store: `Z_3VIDEOTRANSCRIPTS (Z_3VIDEOS, Z_7VIDEOTRANSCRIPTS,
    /// Z_FOK_3VIDEOS)`: the owner is unordered, its inverse `videos` is ordered.
    @Test func orderedInverseOfTheOwner() throws {
        let fillers = ["Case", "Clip"].map { entity($0) } + ["Folder", "Note", "Tag"].map { entity($0) }
        let layout = try StoreLayout(
            model: LayoutModel(
                entities: fillers + [
                    entity(
                        "Document",
                        relationships: [toMany("videoTranscripts", "Transcript", inverse: "videos")]),
                    entity(
                        "Transcript",
                        relationships: [toMany("videos", "Document", inverse: "videoTranscripts", ordered: true)]),
                ]))
        #expect(layout.entity(named: "Document")?.number == 3)
        #expect(layout.entity(named: "Transcript")?.number == 7)
        #expect(layout.joinTableListing == ["Z_3VIDEOTRANSCRIPTS (Z_3VIDEOS, Z_7VIDEOTRANSCRIPTS, Z_FOK_3VIDEOS)"])
    }

    @Test func bothSidesOrderedGetTwoOrderColumns() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("A", relationships: [toMany("bs", "B", inverse: "as", ordered: true)]),
                entity("B", relationships: [toMany("as", "A", inverse: "bs", ordered: true)]),
            ]))
        #expect(layout.joinTableListing == ["Z_1BS (Z_1AS, Z_2BS, Z_FOK_1AS, Z_FOK_2BS)"])
    }

    /// Ownership follows entity *names*, not numbers: a sub-entity named early owns the table
    /// over an entity numbered earlier but named later (AddressBook: `Z_22PARENTGROUPS`, owned by
    /// 22 = `ABCDContact` over 19 = `ABCDGroup`).
    @Test func ownershipWalksEntitiesByName() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("Base"), entity("Alpha", parent: "Base"),
                entity("Zeta", parent: "Alpha", relationships: [toMany("betas", "Beta", inverse: "zetas")]),
                entity("Beta", parent: "Base", relationships: [toMany("zetas", "Zeta", inverse: "betas")]),
            ]))
        #expect(layout.entity(named: "Zeta")?.number == 3)
        #expect(layout.entity(named: "Beta")?.number == 4)
        #expect(layout.joinTableListing == ["Z_4ZETAS (Z_4BETAS, Z_3ZETAS)"])
    }

    @Test func oneToManyAndOneToOneNeedNoJoinTable() throws {
        let layout = try StoreLayout(model: companyModel)
        #expect(layout.joinTableListing == ["Z_1DEPARTMENTS (Z_1BUSINESSES, Z_2DEPARTMENTS)"])
        let married = try StoreLayout(
            model: LayoutModel(entities: [
                entity(
                    "Person",
                    relationships: [
                        toOne("spouse", "Person", inverse: "spouse"),
                        toOne("passport", "Passport", inverse: "holder"),
                    ]),
                entity("Passport", relationships: [toOne("holder", "Person", inverse: "passport")]),
            ]))
        #expect(married.joinTables.isEmpty)
    }

    /// A one-sided inverse declaration (the inverse names another relationship) is stored as
    /// if there were no inverse.
    @Test func nonReciprocalInverseIsIgnored() throws {
        let layout = try StoreLayout(
            model: LayoutModel(entities: [
                entity("A", relationships: [toMany("bs", "B", inverse: "a"), toMany("others", "B", inverse: "a")]),
                entity("B", relationships: [toOne("a", "A", inverse: "bs")]),
            ]))
        let a = try #require(layout.entity(named: "A"))
        #expect(a.relationship(named: "bs")?.inverseName == "a")
        #expect(a.relationship(named: "others")?.inverseName == nil)
        #expect(layout.joinTableListing == ["Z_1OTHERS (Z_1OTHERSINVERSE, Z_2OTHERS)"])
    }
}
