-- Person.sql — generated from Person.xcdatamodeld (version Person 2) by datamodelgen. Do not edit.
-- PostgreSQL schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: Person (1)
CREATE TABLE "ZPERSON" (
    "Z_PK" BIGINT PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZUPDATEDATE" TIMESTAMPTZ,
    "ZEMAIL" TEXT,
    "ZID" TEXT,
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

INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'Person', 0, 0) ON CONFLICT DO NOTHING;
