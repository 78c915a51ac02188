-- Restaurants.sql — generated from Restaurants.xcdatamodeld (version Restaurants) by datamodelgen. Do not edit.
-- PostgreSQL schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: CategoryData (1)
CREATE TABLE "ZCATEGORYDATA" (
    "Z_PK" BIGINT PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZORDER" INTEGER,
    "ZRESTAURANT" BIGINT,
    "ZCATEGORYNAME" TEXT,
    "ZCATEGORYTEXT" TEXT
);

-- Entities: RestaurantData (2)
CREATE TABLE "ZRESTAURANTDATA" (
    "Z_PK" BIGINT PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZDATE" TIMESTAMPTZ,
    "ZADDRESS" TEXT,
    "ZGROUP" TEXT,
    "ZIMAGEPATH" TEXT,
    "ZPHONE" TEXT,
    "ZPLACENAME" TEXT,
    "ZPLACEURL" TEXT,
    "ZROADADDRESS" TEXT
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

CREATE INDEX "ZCATEGORYDATA_ZRESTAURANT_INDEX" ON "ZCATEGORYDATA" ("ZRESTAURANT");

ALTER TABLE "ZCATEGORYDATA" ADD FOREIGN KEY ("ZRESTAURANT") REFERENCES "ZRESTAURANTDATA" ("Z_PK") DEFERRABLE INITIALLY DEFERRED;

INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'CategoryData', 0, 0) ON CONFLICT DO NOTHING;
INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'RestaurantData', 0, 0) ON CONFLICT DO NOTHING;
