-- Restaurants.sql — generated from Restaurants.xcdatamodeld (version Restaurants) by datamodelgen. Do not edit.
-- SQLite schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: CategoryData (1)
CREATE TABLE "ZCATEGORYDATA" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZORDER" INTEGER,
    "ZRESTAURANT" INTEGER,
    "ZCATEGORYNAME" VARCHAR,
    "ZCATEGORYTEXT" VARCHAR
);

-- Entities: RestaurantData (2)
CREATE TABLE "ZRESTAURANTDATA" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZDATE" TIMESTAMP,
    "ZADDRESS" VARCHAR,
    "ZGROUP" VARCHAR,
    "ZIMAGEPATH" VARCHAR,
    "ZPHONE" VARCHAR,
    "ZPLACENAME" VARCHAR,
    "ZPLACEURL" VARCHAR,
    "ZROADADDRESS" VARCHAR
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

CREATE INDEX "ZCATEGORYDATA_ZRESTAURANT_INDEX" ON "ZCATEGORYDATA" ("ZRESTAURANT");

INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'CategoryData', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'RestaurantData', 0, 0);
