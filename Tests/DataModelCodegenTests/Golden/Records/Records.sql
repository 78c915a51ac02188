-- Records.sql — generated from Records.xcdatamodeld (version Records) by datamodelgen. Do not edit.
-- SQLite schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: LocationEntity (1)
CREATE TABLE "ZLOCATIONENTITY" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZRECORD" INTEGER,
    "Z_FOK_RECORD" INTEGER,
    "ZALTITUDE" FLOAT,
    "ZLATITUDE" FLOAT,
    "ZLONGITUDE" FLOAT
);

-- Entities: RecordEntity (2)
CREATE TABLE "ZRECORDENTITY" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZSTEP" INTEGER,
    "ZRECORDSENTITY" INTEGER,
    "Z_FOK_RECORDSENTITY" INTEGER,
    "ZDISTANCE" FLOAT,
    "ZENDTIME" TIMESTAMP,
    "ZSTARTTIME" TIMESTAMP
);

-- Entities: RecordsEntity (3)
CREATE TABLE "ZRECORDSENTITY" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZTITLE" VARCHAR
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

CREATE INDEX "ZLOCATIONENTITY_ZRECORD_INDEX" ON "ZLOCATIONENTITY" ("ZRECORD");
CREATE INDEX "ZRECORDENTITY_ZRECORDSENTITY_INDEX" ON "ZRECORDENTITY" ("ZRECORDSENTITY");

INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'LocationEntity', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'RecordEntity', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (3, 'RecordsEntity', 0, 0);
