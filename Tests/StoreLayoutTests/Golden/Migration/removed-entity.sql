-- drop Person rows (entity removed)
-- move the old tables aside and create the new model's tables
-- copy Pet rows
-- clear references to rows of removed entities or of entities that left the hierarchy
-- drop the old tables and create the indexes
-- update Z_PRIMARYKEY entity rows
ALTER TABLE "ZPERSON" RENAME TO "_DMG_OLD_ZPERSON";
ALTER TABLE "ZPET" RENAME TO "_DMG_OLD_ZPET";
CREATE TABLE "ZPET" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, "ZNAME" VARCHAR);
INSERT INTO "ZPET" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME") SELECT o."Z_PK", 1, o."Z_OPT", o."ZNAME" FROM "_DMG_OLD_ZPET" AS o;
DROP TABLE "_DMG_OLD_ZPERSON";
DROP TABLE "_DMG_OLD_ZPET";
CREATE TEMPORARY TABLE "_DMG_OLD_PRIMARYKEY" AS SELECT "Z_ENT", "Z_MAX" FROM "Z_PRIMARYKEY";
DELETE FROM "Z_PRIMARYKEY";
INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (1, 'Pet', 0, COALESCE((SELECT "Z_MAX" FROM "_DMG_OLD_PRIMARYKEY" WHERE "Z_ENT" = 2), 0));
DROP TABLE "_DMG_OLD_PRIMARYKEY";
