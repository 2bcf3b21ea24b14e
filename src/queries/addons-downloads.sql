-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- addons-downloads.deleteGroup
DELETE FROM "downloads_groups"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- addons-downloads.deleteItem
DELETE FROM "downloads_items"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- addons-downloads.document
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
            "g"."id",
            'title',
            "g"."title",
            'order',
            "g"."position",
            'items',
            (
              SELECT
                coalesce(
                  json_agg(
                    json_build_object(
                      'id',
                      "d"."id",
                      'assetId',
                      "d"."asset_id",
                      'label',
                      "d"."label",
                      'order',
                      "d"."position",
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
                      "d"."position",
                      "d"."id"
                  ),
                  '[]'::json
                ) AS "items"
              FROM
                "downloads_items" AS "d"
                INNER JOIN "assets" AS "a" ON "a"."id" = "d"."asset_id"
              WHERE
                "d"."organization_id" = $3
                AND "d"."group_id" = "g"."id"
            )
          )
          ORDER BY
            "g"."position",
            "g"."id"
        ),
        '[]'::json
      ) AS "groups"
    FROM
      "downloads_groups" AS "g"
    WHERE
      "g"."organization_id" = $4
      AND "g"."estate_id" = $5
  ) AS "groups"
FROM
  (
    SELECT
      1
  ) AS "one"
  LEFT JOIN "addon_states" AS "st" ON "st"."organization_id" = $6
  AND "st"."estate_id" = $7
  AND "st"."kind" = $8;

-- addons-downloads.group
SELECT
  json_build_object(
    'id',
    "g"."id",
    'title',
    "g"."title",
    'order',
    "g"."position",
    'items',
    (
      SELECT
        coalesce(
          json_agg(
            json_build_object(
              'id',
              "d"."id",
              'assetId',
              "d"."asset_id",
              'label',
              "d"."label",
              'order',
              "d"."position",
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
              "d"."position",
              "d"."id"
          ),
          '[]'::json
        ) AS "items"
      FROM
        "downloads_items" AS "d"
        INNER JOIN "assets" AS "a" ON "a"."id" = "d"."asset_id"
      WHERE
        "d"."organization_id" = $3
        AND "d"."group_id" = "g"."id"
    )
  ) AS "doc"
FROM
  "downloads_groups" AS "g"
WHERE
  (
    "g"."organization_id" = $4
    AND "g"."estate_id" = $5
    AND "g"."id" = $6
  );

-- addons-downloads.insertGroup
INSERT INTO
  "downloads_groups" (
    "id",
    "organization_id",
    "estate_id",
    "position",
    "title"
  )
VALUES
  ($1, $2, $3, $4, $5);

-- addons-downloads.insertItem
INSERT INTO
  "downloads_items" (
    "id",
    "organization_id",
    "estate_id",
    "position",
    "group_id",
    "asset_id",
    "label"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7);

-- addons-downloads.item
SELECT
  json_build_object(
    'id',
    "d"."id",
    'assetId',
    "d"."asset_id",
    'label',
    "d"."label",
    'order',
    "d"."position",
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
  "downloads_items" AS "d"
  INNER JOIN "assets" AS "a" ON "a"."id" = "d"."asset_id"
WHERE
  (
    "d"."organization_id" = $3
    AND "d"."estate_id" = $4
    AND "d"."id" = $5
  );

-- addons-downloads.updateGroup
UPDATE "downloads_groups"
SET
  "title" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3;

-- addons-downloads.updateItem
UPDATE "downloads_items"
SET
  "label" = $1,
  "asset_id" = $2,
  "updated_at" = now()
WHERE
  "organization_id" = $3
  AND "id" = $4
RETURNING
  *;
