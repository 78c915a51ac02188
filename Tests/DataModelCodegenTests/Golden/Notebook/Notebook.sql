-- Notebook.sql — generated from Notebook.xcdatamodeld (version Notebook) by datamodelgen. Do not edit.
-- SQLite schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: Note (1), ChecklistNote (2)
CREATE TABLE "ZNOTE" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZPINNED" INTEGER,
    "ZNOTEBOOK" INTEGER,
    "ZITEMCOUNT" INTEGER,
    "ZTEXT" VARCHAR
);

-- Entities: Notebook (3)
CREATE TABLE "ZNOTEBOOK" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZOWNER" INTEGER,
    "ZTITLE" VARCHAR
);

-- Entities: Owner (4)
CREATE TABLE "ZOWNER" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZNAME" VARCHAR
);

-- Entities: Tag (5)
CREATE TABLE "ZTAG" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZNAME" VARCHAR
);

-- Many-to-many: Note.tags ↔ notes
CREATE TABLE "Z_1TAGS" (
    "Z_1NOTES" INTEGER,
    "Z_5TAGS" INTEGER,
    "Z_FOK_5TAGS" INTEGER,
    PRIMARY KEY ("Z_1NOTES", "Z_5TAGS")
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

CREATE INDEX "ZNOTE_ZNOTEBOOK_INDEX" ON "ZNOTE" ("ZNOTEBOOK");
CREATE INDEX "ZNOTE_Z_ENT_INDEX" ON "ZNOTE" ("Z_ENT");
CREATE INDEX "ZNOTEBOOK_ZOWNER_INDEX" ON "ZNOTEBOOK" ("ZOWNER");
CREATE INDEX "Z_1TAGS_Z_5TAGS_INDEX" ON "Z_1TAGS" ("Z_5TAGS", "Z_1NOTES");

INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'Note', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'ChecklistNote', 1, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (3, 'Notebook', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (4, 'Owner', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (5, 'Tag', 0, 0);
