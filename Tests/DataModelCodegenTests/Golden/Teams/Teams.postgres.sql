-- Teams.sql — generated from Teams.xcdatamodeld (version Teams) by datamodelgen. Do not edit.
-- PostgreSQL schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: Member (1)
CREATE TABLE "ZMEMBER" (
    "Z_PK" BIGINT PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZHOURS" INTEGER,
    "ZTEAM" BIGINT,
    "ZNAME" TEXT,
    "ZSEARCHNAME" TEXT,
    "ZTEAMNAME" TEXT
);

-- Entities: Team (2)
CREATE TABLE "ZTEAM" (
    "Z_PK" BIGINT PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZLONGESTHOURS" INTEGER,
    "ZMEMBERCOUNT" BIGINT,
    "ZSHORTESTHOURS" INTEGER,
    "ZTOTALHOURS" BIGINT,
    "ZAVERAGEHOURS" DOUBLE PRECISION,
    "ZUPDATEDAT" TIMESTAMPTZ,
    "ZNAME" TEXT,
    "ZUPPERNAME" TEXT
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

CREATE INDEX "ZMEMBER_ZTEAM_INDEX" ON "ZMEMBER" ("ZTEAM");

ALTER TABLE "ZMEMBER" ADD FOREIGN KEY ("ZTEAM") REFERENCES "ZTEAM" ("Z_PK") DEFERRABLE INITIALLY DEFERRED;

INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'Member', 0, 0) ON CONFLICT DO NOTHING;
INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'Team', 0, 0) ON CONFLICT DO NOTHING;
