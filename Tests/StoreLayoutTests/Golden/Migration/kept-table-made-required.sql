-- move the old tables aside and create the new model's tables (ZPERSON stay as they are)
-- copy Pet rows
-- fill Person.name with its default
-- drop the old tables and create the indexes
ALTER TABLE "ZPET" RENAME TO "_DMG_OLD_ZPET";
CREATE TABLE "ZPET" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "Z_OPT" INTEGER, "ZOWNER" INTEGER, "Z_FOK_OWNER" INTEGER);
INSERT INTO "ZPET" ("Z_PK", "Z_ENT", "Z_OPT", "ZOWNER", "Z_FOK_OWNER") SELECT o."Z_PK", 2, o."Z_OPT", o."ZOWNER", o."Z_FOK_OWNER" FROM "_DMG_OLD_ZPET" AS o;
DROP TABLE "_DMG_OLD_ZPET";
UPDATE "ZPERSON" SET "ZNAME" = 'nobody' WHERE "ZNAME" IS NULL AND "Z_ENT" BETWEEN 1 AND 1;
CREATE INDEX "ZPET_ZOWNER_INDEX" ON "ZPET" ("ZOWNER");
