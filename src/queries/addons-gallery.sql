-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- addons-gallery.deleteItem
DELETE FROM "gallery_items"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- addons-gallery.deleteSection
DELETE FROM "gallery_sections"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- addons-gallery.document
SELECT
  coalesce("st"."enabled", FALSE) AS "enabled",
  cast(coalesce("st"."version", 0) AS integer) AS "version",
  cast(coalesce("st"."edit_version", 0) AS integer) AS "edit_version",
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object(
            'id',
            "s"."id",
            'title',
            "s"."title",
            'description',
            "s"."description",
            'order',
            "s"."position",
            'items',
            (
              SELECT
                coalesce(
                  json_agg(
                    json_build_object(
                      'id',
                      "i"."id",
                      'assetId',
                      "i"."asset_id",
                      'caption',
                      "i"."caption",
                      'sectionId',
                      "i"."section_id",
                      'order',
                      "i"."position",
                      'asset',
                      json_build_object(
                        'id',
                        "a"."id",
                        'name',
                        "a"."name",
                        'src',
                        cast($1 AS text) || "a"."storage_key",
                        'mimeType',
                        "a"."mime_type",
                        'sizeBytes',
                        "a"."size_bytes",
                        'width',
                        "a"."width",
                        'height',
                        "a"."height",
                        'variants',
                        (
                          SELECT
                            coalesce(
                              json_agg(
                                json_build_object(
                                  'width',
                                  v -> 'width',
                                  'height',
                                  v -> 'height',
                                  'mimeType',
                                  'image/webp',
                                  'src',
                                  $2::text || a.storage_key || '-w' || (v ->> 'width'),
                                  'sizeBytes',
                                  v -> 'sizeBytes'
                                )
                                ORDER BY
                                  n
                              ),
                              '[]'::json
                            )
                          FROM
                            jsonb_array_elements(a.variants) WITH ORDINALITY AS x (v, n)
                        ),
                        'placeholder',
                        "a"."placeholder"
                      )
                    )
                    ORDER BY
                      "i"."position",
                      "i"."id"
                  ),
                  '[]'::json
                ) AS "items"
              FROM
                "gallery_items" AS "i"
                INNER JOIN "assets" AS "a" ON "a"."id" = "i"."asset_id"
              WHERE
                "i"."organization_id" = $3
                AND "i"."estate_id" = $4
                AND "i"."section_id" = "s"."id"
            )
          )
          ORDER BY
            "s"."position",
            "s"."id"
        ),
        '[]'::json
      ) AS "sections"
    FROM
      "gallery_sections" AS "s"
    WHERE
      "s"."organization_id" = $5
      AND "s"."estate_id" = $6
  ) AS "sections",
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object(
            'id',
            "i"."id",
            'assetId',
            "i"."asset_id",
            'caption',
            "i"."caption",
            'sectionId',
            "i"."section_id",
            'order',
            "i"."position",
            'asset',
            json_build_object(
              'id',
              "a"."id",
              'name',
              "a"."name",
              'src',
              cast($7 AS text) || "a"."storage_key",
              'mimeType',
              "a"."mime_type",
              'sizeBytes',
              "a"."size_bytes",
              'width',
              "a"."width",
              'height',
              "a"."height",
              'variants',
              (
                SELECT
                  coalesce(
                    json_agg(
                      json_build_object(
                        'width',
                        v -> 'width',
                        'height',
                        v -> 'height',
                        'mimeType',
                        'image/webp',
                        'src',
                        $8::text || a.storage_key || '-w' || (v ->> 'width'),
                        'sizeBytes',
                        v -> 'sizeBytes'
                      )
                      ORDER BY
                        n
                    ),
                    '[]'::json
                  )
                FROM
                  jsonb_array_elements(a.variants) WITH ORDINALITY AS x (v, n)
              ),
              'placeholder',
              "a"."placeholder"
            )
          )
          ORDER BY
            "i"."position",
            "i"."id"
        ),
        '[]'::json
      ) AS "items"
    FROM
      "gallery_items" AS "i"
      INNER JOIN "assets" AS "a" ON "a"."id" = "i"."asset_id"
    WHERE
      "i"."organization_id" = $9
      AND "i"."estate_id" = $10
      AND "i"."section_id" IS NULL
  ) AS "items"
FROM
  (
    SELECT
      1
  ) AS "one"
  LEFT JOIN "addon_states" AS "st" ON "st"."organization_id" = $11
  AND "st"."estate_id" = $12
  AND "st"."kind" = $13;

-- addons-gallery.insertItem
INSERT INTO
  "gallery_items" (
    "id",
    "organization_id",
    "estate_id",
    "position",
    "section_id",
    "asset_id",
    "caption"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7);

-- addons-gallery.insertSection
INSERT INTO
  "gallery_sections" (
    "id",
    "organization_id",
    "estate_id",
    "position",
    "title",
    "description"
  )
VALUES
  ($1, $2, $3, $4, $5, $6);

-- addons-gallery.item
SELECT
  json_build_object(
    'id',
    "i"."id",
    'assetId',
    "i"."asset_id",
    'caption',
    "i"."caption",
    'sectionId',
    "i"."section_id",
    'order',
    "i"."position",
    'asset',
    json_build_object(
      'id',
      "a"."id",
      'name',
      "a"."name",
      'src',
      cast($1 AS text) || "a"."storage_key",
      'mimeType',
      "a"."mime_type",
      'sizeBytes',
      "a"."size_bytes",
      'width',
      "a"."width",
      'height',
      "a"."height",
      'variants',
      (
        SELECT
          coalesce(
            json_agg(
              json_build_object(
                'width',
                v -> 'width',
                'height',
                v -> 'height',
                'mimeType',
                'image/webp',
                'src',
                $2::text || a.storage_key || '-w' || (v ->> 'width'),
                'sizeBytes',
                v -> 'sizeBytes'
              )
              ORDER BY
                n
            ),
            '[]'::json
          )
        FROM
          jsonb_array_elements(a.variants) WITH ORDINALITY AS x (v, n)
      ),
      'placeholder',
      "a"."placeholder"
    )
  ) AS "doc"
FROM
  "gallery_items" AS "i"
  INNER JOIN "assets" AS "a" ON "a"."id" = "i"."asset_id"
WHERE
  (
    "i"."organization_id" = $3
    AND "i"."estate_id" = $4
    AND "i"."id" = $5
  );

-- addons-gallery.section
SELECT
  json_build_object(
    'id',
    "s"."id",
    'title',
    "s"."title",
    'description',
    "s"."description",
    'order',
    "s"."position",
    'items',
    (
      SELECT
        coalesce(
          json_agg(
            json_build_object(
              'id',
              "i"."id",
              'assetId',
              "i"."asset_id",
              'caption',
              "i"."caption",
              'sectionId',
              "i"."section_id",
              'order',
              "i"."position",
              'asset',
              json_build_object(
                'id',
                "a"."id",
                'name',
                "a"."name",
                'src',
                cast($1 AS text) || "a"."storage_key",
                'mimeType',
                "a"."mime_type",
                'sizeBytes',
                "a"."size_bytes",
                'width',
                "a"."width",
                'height',
                "a"."height",
                'variants',
                (
                  SELECT
                    coalesce(
                      json_agg(
                        json_build_object(
                          'width',
                          v -> 'width',
                          'height',
                          v -> 'height',
                          'mimeType',
                          'image/webp',
                          'src',
                          $2::text || a.storage_key || '-w' || (v ->> 'width'),
                          'sizeBytes',
                          v -> 'sizeBytes'
                        )
                        ORDER BY
                          n
                      ),
                      '[]'::json
                    )
                  FROM
                    jsonb_array_elements(a.variants) WITH ORDINALITY AS x (v, n)
                ),
                'placeholder',
                "a"."placeholder"
              )
            )
            ORDER BY
              "i"."position",
              "i"."id"
          ),
          '[]'::json
        ) AS "items"
      FROM
        "gallery_items" AS "i"
        INNER JOIN "assets" AS "a" ON "a"."id" = "i"."asset_id"
      WHERE
        "i"."organization_id" = $3
        AND "i"."estate_id" = $4
        AND "i"."section_id" = "s"."id"
    )
  ) AS "doc"
FROM
  "gallery_sections" AS "s"
WHERE
  (
    "s"."organization_id" = $5
    AND "s"."estate_id" = $6
    AND "s"."id" = $7
  );

-- addons-gallery.ungroupItems
UPDATE "gallery_items"
SET
  "section_id" = $1,
  "position" = $2 + "position",
  "updated_at" = now()
WHERE
  "organization_id" = $3
  AND "section_id" = $4;

-- addons-gallery.updateItem
UPDATE "gallery_items"
SET
  "caption" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3
RETURNING
  *;

-- addons-gallery.updateSection
UPDATE "gallery_sections"
SET
  "title" = $1,
  "description" = $2,
  "updated_at" = now()
WHERE
  "organization_id" = $3
  AND "id" = $4
RETURNING
  *;
