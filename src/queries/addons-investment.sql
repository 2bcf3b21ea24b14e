-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- addons-investment.deleteFile
DELETE FROM "investment_files"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- addons-investment.deleteSection
DELETE FROM "investment_sections"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- addons-investment.document
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
            'files',
            (
              SELECT
                coalesce(
                  json_agg(
                    json_build_object(
                      'id',
                      "f"."id",
                      'assetId',
                      "f"."asset_id",
                      'label',
                      "f"."label",
                      'order',
                      "f"."position",
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
                      "f"."position",
                      "f"."id"
                  ),
                  '[]'::json
                ) AS "files"
              FROM
                "investment_files" AS "f"
                INNER JOIN "assets" AS "a" ON "a"."id" = "f"."asset_id"
              WHERE
                "f"."organization_id" = $3
                AND "f"."section_id" = "s"."id"
            )
          )
          ORDER BY
            "s"."position",
            "s"."id"
        ),
        '[]'::json
      ) AS "sections"
    FROM
      "investment_sections" AS "s"
    WHERE
      "s"."organization_id" = $4
      AND "s"."estate_id" = $5
  ) AS "sections"
FROM
  (
    SELECT
      1
  ) AS "one"
  LEFT JOIN "addon_states" AS "st" ON "st"."organization_id" = $6
  AND "st"."estate_id" = $7
  AND "st"."kind" = $8;

-- addons-investment.file
SELECT
  json_build_object(
    'id',
    "f"."id",
    'assetId',
    "f"."asset_id",
    'label',
    "f"."label",
    'order',
    "f"."position",
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
  "investment_files" AS "f"
  INNER JOIN "assets" AS "a" ON "a"."id" = "f"."asset_id"
WHERE
  (
    "f"."organization_id" = $3
    AND "f"."estate_id" = $4
    AND "f"."id" = $5
  );

-- addons-investment.insertFile
INSERT INTO
  "investment_files" (
    "id",
    "organization_id",
    "estate_id",
    "position",
    "section_id",
    "asset_id",
    "label"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7);

-- addons-investment.insertSection
INSERT INTO
  "investment_sections" (
    "id",
    "organization_id",
    "estate_id",
    "position",
    "title",
    "description"
  )
VALUES
  ($1, $2, $3, $4, $5, $6);

-- addons-investment.section
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
    'files',
    (
      SELECT
        coalesce(
          json_agg(
            json_build_object(
              'id',
              "f"."id",
              'assetId',
              "f"."asset_id",
              'label',
              "f"."label",
              'order',
              "f"."position",
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
              "f"."position",
              "f"."id"
          ),
          '[]'::json
        ) AS "files"
      FROM
        "investment_files" AS "f"
        INNER JOIN "assets" AS "a" ON "a"."id" = "f"."asset_id"
      WHERE
        "f"."organization_id" = $3
        AND "f"."section_id" = "s"."id"
    )
  ) AS "doc"
FROM
  "investment_sections" AS "s"
WHERE
  (
    "s"."organization_id" = $4
    AND "s"."estate_id" = $5
    AND "s"."id" = $6
  );

-- addons-investment.updateFile
UPDATE "investment_files"
SET
  "label" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3
RETURNING
  *;

-- addons-investment.updateSection
UPDATE "investment_sections"
SET
  "title" = $1,
  "description" = $2,
  "updated_at" = now()
WHERE
  "organization_id" = $3
  AND "id" = $4
RETURNING
  *;
