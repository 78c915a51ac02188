-- Company.sql — generated from Company.xcdatamodeld (version Company) by datamodelgen. Do not edit.
-- SQLite schema in Core Data's store layout: the runtime reads and writes exactly these tables.

-- Entities: BusinessEntity (1)
CREATE TABLE "ZBUSINESSENTITY" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZNAME" VARCHAR
);

-- Entities: DepartmentEntity (2)
CREATE TABLE "ZDEPARTMENTENTITY" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZNAME" VARCHAR
);

-- Entities: EmployeeEntity (3)
CREATE TABLE "ZEMPLOYEEENTITY" (
    "Z_PK" INTEGER PRIMARY KEY,
    "Z_ENT" INTEGER,
    "Z_OPT" INTEGER,
    "ZAGE" INTEGER,
    "ZBUSINESS" INTEGER,
    "ZDEPARTMENT" INTEGER,
    "ZDATEJOINED" TIMESTAMP,
    "ZNAME" VARCHAR
);

-- Many-to-many: BusinessEntity.departments ↔ businesses
CREATE TABLE "Z_1DEPARTMENTS" (
    "Z_1BUSINESSES" INTEGER,
    "Z_2DEPARTMENTS" INTEGER,
    PRIMARY KEY ("Z_1BUSINESSES", "Z_2DEPARTMENTS")
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

CREATE INDEX "ZEMPLOYEEENTITY_ZBUSINESS_INDEX" ON "ZEMPLOYEEENTITY" ("ZBUSINESS");
CREATE INDEX "ZEMPLOYEEENTITY_ZDEPARTMENT_INDEX" ON "ZEMPLOYEEENTITY" ("ZDEPARTMENT");
CREATE INDEX "Z_1DEPARTMENTS_Z_2DEPARTMENTS_INDEX" ON "Z_1DEPARTMENTS" ("Z_2DEPARTMENTS", "Z_1BUSINESSES");

INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'BusinessEntity', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (2, 'DepartmentEntity', 0, 0);
INSERT OR IGNORE INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (3, 'EmployeeEntity', 0, 0);
