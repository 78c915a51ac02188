-- Teams.sql — generated from Teams.xcdatamodeld (version Teams) by datamodelgen. Do not edit.
-- SQLite schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: Member (1)
CREATE TABLE "ZMEMBER" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZHOURS" INTEGER,
    "ZTEAM" INTEGER,
    "ZNAME" VARCHAR,
    "ZSEARCHNAME" VARCHAR,
    "ZTEAMNAME" VARCHAR
);

-- Entities: Team (2)
CREATE TABLE "ZTEAM" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZLONGESTHOURS" INTEGER,
    "ZMEMBERCOUNT" INTEGER,
    "ZSHORTESTHOURS" INTEGER,
    "ZTOTALHOURS" INTEGER,
    "ZAVERAGEHOURS" FLOAT,
    "ZUPDATEDAT" TIMESTAMP,
    "ZNAME" VARCHAR,
    "ZUPPERNAME" VARCHAR
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

CREATE INDEX "ZMEMBER_ZTEAM_INDEX" ON "ZMEMBER" ("ZTEAM");

INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'Member', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'Team', 0, 0);
