-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- addons-map.config
SELECT
  *
FROM
  "map_configs"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2;

-- addons-map.deleteAll
DELETE FROM "map_pois"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2;

DELETE FROM "map_configs"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2;

-- addons-map.deletePoi
DELETE FROM "map_pois"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- addons-map.document
SELECT
  coalesce("st"."enabled", FALSE) AS "enabled",
  cast(coalesce("st"."version", 0) AS integer) AS "version",
  cast(coalesce("st"."edit_version", 0) AS integer) AS "edit_version",
  (
    SELECT
      json_build_object(
        'centerLat',
        "c"."center_lat",
        'centerLng',
        "c"."center_lng",
        'defaultZoom',
        "c"."default_zoom",
        'tileStyle',
        "c"."tile_style",
        'defaultViewLat',
        "c"."default_view_lat",
        'defaultViewLng',
        "c"."default_view_lng",
        'logoAssetId',
        "c"."logo_asset_id",
        'logoAsset',
        (
          SELECT
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
            ) AS "asset"
          FROM
            "assets" AS "a"
          WHERE
            "a"."organization_id" = $3
            AND "a"."id" = "c"."logo_asset_id"
        )
      ) AS "config"
    FROM
      "map_configs" AS "c"
    WHERE
      "c"."organization_id" = $4
      AND "c"."estate_id" = $5
  ) AS "config",
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object(
            'id',
            "p"."id",
            'category',
            "p"."category",
            'label',
            "p"."label",
            'lat',
            "p"."lat",
            'lng',
            "p"."lng",
            'customDistanceLabel',
            "p"."custom_distance_label",
            'order',
            "p"."position"
          )
          ORDER BY
            "p"."position",
            "p"."id"
        ),
        '[]'::json
      ) AS "pois"
    FROM
      "map_pois" AS "p"
    WHERE
      "p"."organization_id" = $6
      AND "p"."estate_id" = $7
  ) AS "pois"
FROM
  (
    SELECT
      1
  ) AS "one"
  LEFT JOIN "addon_states" AS "st" ON "st"."organization_id" = $8
  AND "st"."estate_id" = $9
  AND "st"."kind" = $10;

-- addons-map.insertPoi
INSERT INTO
  "map_pois" (
    "id",
    "organization_id",
    "estate_id",
    "position",
    "category",
    "label",
    "lat",
    "lng"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8);

-- addons-map.poi
SELECT
  json_build_object(
    'id',
    "p"."id",
    'category',
    "p"."category",
    'label',
    "p"."label",
    'lat',
    "p"."lat",
    'lng',
    "p"."lng",
    'customDistanceLabel',
    "p"."custom_distance_label",
    'order',
    "p"."position"
  ) AS "doc"
FROM
  "map_pois" AS "p"
WHERE
  (
    "p"."organization_id" = $1
    AND "p"."estate_id" = $2
    AND "p"."id" = $3
  );

-- addons-map.updatePoi
UPDATE "map_pois"
SET
  "label" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3
RETURNING
  *;

-- addons-map.upsertConfig
INSERT INTO
  "map_configs" (
    "lat",
    "lng",
    "zoom",
    "organization_id",
    "estate_id"
  )
VALUES
  ($1, $2, $3, $4, $5)
ON CONFLICT ("estate_id") DO UPDATE
SET
  "lat" = $6,
  "lng" = $7,
  "zoom" = $8,
  "updated_at" = now()
WHERE
  "map_configs"."organization_id" = $9;
