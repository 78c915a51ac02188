-- Members.sql — generated from Members.xcdatamodeld (version Members) by datamodelgen. Do not edit.
-- PostgreSQL schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: MemberEntity (1)
CREATE TABLE "ZMEMBERENTITY" (
    "Z_PK" BIGINT PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZAGE" SMALLINT,
    "ZRATING" INTEGER,
    "ZSCORE" DOUBLE PRECISION,
    "ZNAME" TEXT
);

-- Entity numbers and the last primary key handed out per entity
CREATE TABLE "Z_PRIMARYKEY" (
    "Z_ENT" INTEGER PRIMARY KEY,
    "Z_NAME" TEXT,
    "Z_SUPER" INTEGER,
    "Z_MAX" BIGINT
);

-- Store metadata
CREATE TABLE "Z_METADATA" (
    "Z_VERSION" INTEGER PRIMARY KEY,
    "Z_UUID" VARCHAR(255),
    "Z_PLIST" BYTEA
);

-- Cached compiled model
CREATE TABLE "Z_MODELCACHE" (
    "Z_CONTENT" BYTEA
);

INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'MemberEntity', 0, 0) ON CONFLICT DO NOTHING;
