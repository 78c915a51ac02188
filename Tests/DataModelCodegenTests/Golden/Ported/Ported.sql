-- Ported.sql — generated from Ported.xcdatamodeld (version Ported) by datamodelgen. Do not edit.
-- SQLite schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: PortedItem (1)
CREATE TABLE "ZPORTEDITEM" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZCOUNT" INTEGER,
    "ZISDONE" INTEGER,
    "ZRATING" INTEGER,
    "ZSERIAL" INTEGER,
    "ZLIST" INTEGER,
    "Z_FOK_LIST" INTEGER,
    "ZPRICE" FLOAT,
    "ZTIMESTAMP" TIMESTAMP,
    "ZTITLE" VARCHAR
);

-- Entities: PortedList (2)
CREATE TABLE "ZPORTEDLIST" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZNAME" VARCHAR
);

-- Entities: PortedTag (3)
CREATE TABLE "ZPORTEDTAG" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZNAME" VARCHAR
);

-- Many-to-many: PortedItem.tags ↔ items
CREATE TABLE "Z_1TAGS" (
    "Z_1ITEMS" INTEGER,
    "Z_3TAGS" INTEGER,
    PRIMARY KEY ("Z_1ITEMS", "Z_3TAGS")
);

-- Entity numbers and the last primary key handed out per entity
CREATE TABLE "Z_PRIMARYKEY" (
    "Z_ENT" INTEGER PRIMARY KEY,
    "Z_NAME" VARCHAR,
    "Z_SUPER" INTEGER,
    "Z_MAX" INTEGER
);

-- Store metadata
CREATE TABLE "Z_METADATA" (
    "Z_VERSION" INTEGER PRIMARY KEY,
    "Z_UUID" VARCHAR(255),
    "Z_PLIST" BLOB
);

-- Cached compiled model
CREATE TABLE "Z_MODELCACHE" (
    "Z_CONTENT" BLOB
);

CREATE INDEX "ZPORTEDITEM_ZLIST_INDEX" ON "ZPORTEDITEM" ("ZLIST");
CREATE INDEX "Z_1TAGS_Z_3TAGS_INDEX" ON "Z_1TAGS" ("Z_3TAGS", "Z_1ITEMS");

INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'PortedItem', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'PortedList', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (3, 'PortedTag', 0, 0);
