import DataModelStoreLayout

/// A reconstruction of the part of macOS's Contacts model (AddressBook-v22.abcddb, macOS 26)
/// needed to reproduce published `CREATE TABLE` statements of that store.
///
/// The entity list and `Z_PRIMARYKEY` numbers are as published; the properties are inferred from
/// the column names and types of the published schema. Tests check that the layout rules turn
/// this model back into the published statements (quotes and spacing aside).
enum AddressBookModel {
    static let contactStrings = [
        "cropRect", "cropRectID", "department", "downtimeWhitelist", "firstName", "identityUniqueId",
        "imageReference", "imageType", "jobTitle", "lastName", "linkId", "maidenName", "middleName", "nickname",
        "organization", "phonemeData", "phoneticFirstName", "phoneticLastName", "phoneticMiddleName",
        "phoneticOrganization", "preferredApplePersonaIdentifier", "preferredLikenessSource", "sortingFirstName",
        "sortingLastName", "suffix", "title", "tmpHomePage", "wallpaperURI",
    ]

    static let model = LayoutModel(entities: [
        entity("ABCDAddressingGrammar"), entity("ABCDAlertTone"), entity("ABCDCalendarURI"),
        entity("ABCDContactDate"), entity("ABCDContactIndex"), entity("ABCDCustomProperty"),
        entity(
            "ABCDCustomPropertyValue",
            attributes: [
                attribute("dateValueYear", .integer32), attribute("iOSLegacyIdentifier", .integer64),
                attribute("isPrimary", .boolean), attribute("isPrivate", .boolean),
                attribute("orderingIndex", .integer16), attribute("dateValue", .date),
                attribute("dateValueYearless", .double), attribute("numberValue", .double), attribute("label"),
                attribute("stringValue"), attribute("uniqueId"), attribute("dataValue", .binary),
            ],
            relationships: [toOne("customProperty", "ABCDCustomProperty"), toOne("owner", "ABCDRecord")]),
        entity("ABCDDateComponents"), entity("ABCDDeletedRecordLog"),
        entity(
            "ABCDDistributionListConfig", attributes: [attribute("propertyName")],
            relationships: [
                toOne("address", "ABCDPostalAddress"), toOne("contact", "ABCDContact"),
                toOne("email", "ABCDEmailAddress"), toOne("group", "ABCDGroup"), toOne("phone", "ABCDPhoneNumber"),
            ]),
        entity(
            "ABCDEmailAddress",
            attributes: [
                attribute("iOSLegacyIdentifier", .integer64), attribute("isPrimary", .boolean),
                attribute("isPrivate", .boolean), attribute("orderingIndex", .integer16), attribute("address"),
                attribute("addressNormalized"), attribute("label"), attribute("uniqueId"),
            ],
            relationships: [toOne("owner", "ABCDContact", inverse: "emailAddresses")]),
        entity("ABCDLikeness"), entity("ABCDMessagingAddress"), entity("ABCDNote"), entity("ABCDPhoneNumber"),
        entity("ABCDPostalAddress"),
        entity(
            "ABCDRecord", abstract: true,
            attributes: [
                attribute("creationDateYear", .integer32), attribute("displayFlags", .integer32),
                attribute("iOSLegacyIdentifier", .integer64), attribute("modificationDateYear", .integer32),
                attribute("syncStatus", .integer16), attribute("creationDate", .date),
                attribute("creationDateYearless", .double), attribute("modificationDate", .date),
                attribute("modificationDateYearless", .double), attribute("externalCollectionPath"),
                attribute("externalFilename"), attribute("externalHash"), attribute("externalImageURI"),
                attribute("externalModificationTag"), attribute("externalURI"), attribute("externalUUID"),
                attribute("uniqueId"), attribute("externalRepresentation", .binary),
                attribute("modifiedUniqueIdsData", .binary), attribute("searchElementData", .binary),
            ]),
        entity(
            "ABCDAbstractGroup", parent: "ABCDRecord", abstract: true,
            attributes: [attribute("name"), attribute("nameNormalized"), attribute("tmpRemoteLocation")],
            relationships: [
                toOne("container", "CNCDContainer"),
                toMany("parentGroups", "ABCDGroup", inverse: "childGroups"),
            ]),
        entity(
            "ABCDGroup", parent: "ABCDAbstractGroup", attributes: [attribute("externalGroupBehavior", .integer32)],
            relationships: [
                toMany("childGroups", "ABCDAbstractGroup", inverse: "parentGroups"),
                toMany("contacts", "ABCDContact", inverse: "parentGroups"),
            ]),
        entity("ABCDSubscribedGroup", parent: "ABCDGroup"),
        entity("ABCDSmartGroup", parent: "ABCDAbstractGroup"),
        entity(
            "ABCDContact", parent: "ABCDRecord",
            attributes: [
                attribute("birthdayYear", .integer32), attribute("preferredForLinkName", .boolean),
                attribute("preferredForLinkPhoto", .boolean), attribute("privacyFlags", .integer32),
                attribute("birthday", .date), attribute("birthdayYearless", .double),
                attribute("imageSyncFailedTime", .date), attribute("wallpaperSyncFailedTime", .date),
                attribute("avatarRecipeData", .binary), attribute("cropRectHash", .binary),
                attribute("imageData", .binary), attribute("imageHash", .binary),
                attribute("memojiMetadata", .binary), attribute("sensitiveContentConfiguration", .binary),
                attribute("thumbnailImageData", .binary), attribute("wallpaper", .binary),
            ] + contactStrings.map { attribute($0) },
            relationships: [
                toOne("contactIndex", "ABCDContactIndex"), toOne("container", "CNCDContainer"),
                toOne("containerWhereContactIsMe", "CNCDContainer", inverse: "me"),
                toOne("lunarBirthdayComponents", "ABCDDateComponents"), toOne("note", "ABCDNote"),
                toMany("parentGroups", "ABCDGroup", inverse: "contacts"),
                toMany("emailAddresses", "ABCDEmailAddress", inverse: "owner"),
            ]),
        entity("ABCDSubscribedContact", parent: "ABCDContact"),
        entity(
            "ABCDInfo", parent: "ABCDRecord",
            attributes: [
                attribute("assistantSyncAnchor", .integer64), attribute("shareCount", .integer32),
                attribute("syncCount", .integer32), attribute("version", .integer32),
                attribute("lastSyncDate", .date), attribute("assistantValidity"), attribute("createdVersion"),
                attribute("lastDotMacAccount"), attribute("lastSavedVersion"), attribute("syncAnchor"),
            ],
            relationships: [toOne("container", "CNCDContainer")]),
        entity(
            "CNCDContainer", parent: "ABCDRecord",
            attributes: [
                attribute("guardianFlags", .integer32), attribute("isAll", .boolean), attribute("type", .integer16),
                attribute("externalIdentifier"), attribute("name"), attribute("providerIdentifier"),
                attribute("remoteLocation"), attribute("serialNumber"),
            ],
            relationships: [
                toOne("info", "ABCDInfo"), toOne("me", "ABCDContact", inverse: "containerWhereContactIsMe"),
                toOne("providerMetadata", "CNCDProviderMetadata"),
            ]),
        entity("ABCDRelatedName"), entity("ABCDRemoteLocation"), entity("ABCDService"), entity("ABCDSocialProfile"),
        entity("ABCDUnknownProperty"), entity("ABCDURLAddress"), entity("CNCDChangeHistoryClient"),
        entity("CNCDProviderMetadata"), entity("CNCDUnifiedContactInfo"),
    ])

    /// `CREATE TABLE` statements as published for the real store (spacing normalized).
    static let publishedTables = [
        "CREATE TABLE ZABCDRECORD (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCREATIONDATEYEAR INTEGER, ZDISPLAYFLAGS INTEGER, ZIOSLEGACYIDENTIFIER INTEGER, ZMODIFICATIONDATEYEAR INTEGER, ZSYNCSTATUS INTEGER, ZCONTAINER INTEGER, ZEXTERNALGROUPBEHAVIOR INTEGER, ZBIRTHDAYYEAR INTEGER, ZPREFERREDFORLINKNAME INTEGER, ZPREFERREDFORLINKPHOTO INTEGER, ZPRIVACYFLAGS INTEGER, ZCONTACTINDEX INTEGER, ZCONTAINER1 INTEGER, ZCONTAINERWHERECONTACTISME INTEGER, ZLUNARBIRTHDAYCOMPONENTS INTEGER, ZNOTE INTEGER, ZASSISTANTSYNCANCHOR INTEGER, ZSHARECOUNT INTEGER, ZSYNCCOUNT INTEGER, ZVERSION INTEGER, ZCONTAINER2 INTEGER, ZGUARDIANFLAGS INTEGER, ZISALL INTEGER, ZTYPE INTEGER, ZINFO INTEGER, ZME INTEGER, Z22_ME INTEGER, ZPROVIDERMETADATA INTEGER, ZCREATIONDATE TIMESTAMP, ZCREATIONDATEYEARLESS FLOAT, ZMODIFICATIONDATE TIMESTAMP, ZMODIFICATIONDATEYEARLESS FLOAT, ZBIRTHDAY TIMESTAMP, ZBIRTHDAYYEARLESS FLOAT, ZIMAGESYNCFAILEDTIME TIMESTAMP, ZWALLPAPERSYNCFAILEDTIME TIMESTAMP, ZLASTSYNCDATE TIMESTAMP, ZEXTERNALCOLLECTIONPATH VARCHAR, ZEXTERNALFILENAME VARCHAR, ZEXTERNALHASH VARCHAR, ZEXTERNALIMAGEURI VARCHAR, ZEXTERNALMODIFICATIONTAG VARCHAR, ZEXTERNALURI VARCHAR, ZEXTERNALUUID VARCHAR, ZUNIQUEID VARCHAR, ZNAME VARCHAR, ZNAMENORMALIZED VARCHAR, ZTMPREMOTELOCATION VARCHAR, ZCROPRECT VARCHAR, ZCROPRECTID VARCHAR, ZDEPARTMENT VARCHAR, ZDOWNTIMEWHITELIST VARCHAR, ZFIRSTNAME VARCHAR, ZIDENTITYUNIQUEID VARCHAR, ZIMAGEREFERENCE VARCHAR, ZIMAGETYPE VARCHAR, ZJOBTITLE VARCHAR, ZLASTNAME VARCHAR, ZLINKID VARCHAR, ZMAIDENNAME VARCHAR, ZMIDDLENAME VARCHAR, ZNICKNAME VARCHAR, ZORGANIZATION VARCHAR, ZPHONEMEDATA VARCHAR, ZPHONETICFIRSTNAME VARCHAR, ZPHONETICLASTNAME VARCHAR, ZPHONETICMIDDLENAME VARCHAR, ZPHONETICORGANIZATION VARCHAR, ZPREFERREDAPPLEPERSONAIDENTIFIER VARCHAR, ZPREFERREDLIKENESSSOURCE VARCHAR, ZSORTINGFIRSTNAME VARCHAR, ZSORTINGLASTNAME VARCHAR, ZSUFFIX VARCHAR, ZTITLE VARCHAR, ZTMPHOMEPAGE VARCHAR, ZWALLPAPERURI VARCHAR, ZASSISTANTVALIDITY VARCHAR, ZCREATEDVERSION VARCHAR, ZLASTDOTMACACCOUNT VARCHAR, ZLASTSAVEDVERSION VARCHAR, ZSYNCANCHOR VARCHAR, ZEXTERNALIDENTIFIER VARCHAR, ZNAME1 VARCHAR, ZPROVIDERIDENTIFIER VARCHAR, ZREMOTELOCATION VARCHAR, ZSERIALNUMBER VARCHAR, ZEXTERNALREPRESENTATION BLOB, ZMODIFIEDUNIQUEIDSDATA BLOB, ZSEARCHELEMENTDATA BLOB, ZAVATARRECIPEDATA BLOB, ZCROPRECTHASH BLOB, ZIMAGEDATA BLOB, ZIMAGEHASH BLOB, ZMEMOJIMETADATA BLOB, ZSENSITIVECONTENTCONFIGURATION BLOB, ZTHUMBNAILIMAGEDATA BLOB, ZWALLPAPER BLOB)",
        "CREATE TABLE Z_22PARENTGROUPS (Z_22CONTACTS INTEGER, Z_19PARENTGROUPS1 INTEGER, PRIMARY KEY (Z_22CONTACTS, Z_19PARENTGROUPS1))",
        "CREATE TABLE Z_18PARENTGROUPS (Z_18CHILDGROUPS INTEGER, Z_19PARENTGROUPS INTEGER, PRIMARY KEY (Z_18CHILDGROUPS, Z_19PARENTGROUPS))",
        "CREATE TABLE ZABCDEMAILADDRESS (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZIOSLEGACYIDENTIFIER INTEGER, ZISPRIMARY INTEGER, ZISPRIVATE INTEGER, ZORDERINGINDEX INTEGER, ZOWNER INTEGER, Z22_OWNER INTEGER, ZADDRESS VARCHAR, ZADDRESSNORMALIZED VARCHAR, ZLABEL VARCHAR, ZUNIQUEID VARCHAR)",
        "CREATE TABLE ZABCDCUSTOMPROPERTYVALUE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATEVALUEYEAR INTEGER, ZIOSLEGACYIDENTIFIER INTEGER, ZISPRIMARY INTEGER, ZISPRIVATE INTEGER, ZORDERINGINDEX INTEGER, ZCUSTOMPROPERTY INTEGER, ZOWNER INTEGER, Z17_OWNER INTEGER, ZDATEVALUE TIMESTAMP, ZDATEVALUEYEARLESS FLOAT, ZNUMBERVALUE FLOAT, ZLABEL VARCHAR, ZSTRINGVALUE VARCHAR, ZUNIQUEID VARCHAR, ZDATAVALUE BLOB)",
        "CREATE TABLE ZABCDDISTRIBUTIONLISTCONFIG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZADDRESS INTEGER, ZCONTACT INTEGER, Z22_CONTACT INTEGER, ZEMAIL INTEGER, ZGROUP INTEGER, Z19_GROUP INTEGER, ZPHONE INTEGER, ZPROPERTYNAME VARCHAR)",
    ]
}
