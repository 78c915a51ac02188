-- fill Person.name with its default
UPDATE "ZPERSON" SET "ZNAME" = 'nobody' WHERE "ZNAME" IS NULL AND "Z_ENT" BETWEEN 1 AND 1;
