-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- navigators.delete
DELETE FROM "navigators"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- navigators.deleteFrame
DELETE FROM "navigator_frames"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- navigators.estateDocuments
SELECT
  "n".*,
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object(
            'id',
            "f"."id",
            'angle',
            "f"."angle",
            'name',
            "f"."name",
            'imageUrl',
            cast($1 AS text) || "a"."storage_key",
            'isMarketingStop',
            "f"."is_marketing_stop",
            'highlightLabel',
            "f"."highlight_label",
            'assetId',
            "f"."asset_id",
            'asset',
            json_build_object(
              'id',
              "a"."id",
              'name',
              "a"."name",
              'src',
              cast($2 AS text) || "a"."storage_key",
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
                        $3::text || a.storage_key || '-w' || (v ->> 'width'),
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
            ),
            'shapes',
            (
              SELECT
                coalesce(
                  json_agg(
                    json_build_object(
                      'id',
                      "s"."id",
                      'name',
                      "s"."name",
                      'description',
                      "s"."description",
                      'referenceType',
                      CASE
                        WHEN s.apartment_id IS NULL THEN 'building'
                        ELSE 'apartment'
                      END,
                      'referenceId',
                      coalesce("s"."apartment_id", "s"."building_id"),
                      'shape',
                      "s"."shape",
                      'createdAt',
                      to_char(
                        "s"."created_at" AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                      )
                    )
                    ORDER BY
                      "s"."position"
                  ),
                  '[]'::json
                ) AS "shapes"
              FROM
                "navigator_shapes" AS "s"
              WHERE
                "s"."organization_id" = $4
                AND "s"."frame_id" = "f"."id"
            ),
            'pois',
            (
              SELECT
                coalesce(
                  json_agg(
                    json_build_object(
                      'id',
                      "p"."id",
                      'x',
                      "p"."x",
                      'y',
                      "p"."y",
                      'data',
                      json_build_object(
                        'type',
                        "p"."type",
                        'panoramaId',
                        "p"."panorama_id",
                        'startingPanoramaId',
                        "p"."starting_panorama_id"
                      ),
                      'createdAt',
                      to_char(
                        "p"."created_at" AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                      )
                    )
                    ORDER BY
                      "p"."position"
                  ),
                  '[]'::json
                ) AS "pois"
              FROM
                "navigator_pois" AS "p"
              WHERE
                "p"."organization_id" = $5
                AND "p"."frame_id" = "f"."id"
            ),
            'createdAt',
            to_char(
              "f"."created_at" AT TIME ZONE 'UTC',
              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
            )
          )
          ORDER BY
            "f"."angle"
        ),
        '[]'::json
      ) AS "images"
    FROM
      "navigator_frames" AS "f"
      INNER JOIN "assets" AS "a" ON "a"."id" = "f"."asset_id"
    WHERE
      "f"."organization_id" = $6
      AND "f"."navigator_id" = "n"."id"
  ) AS "images"
FROM
  "navigators" AS "n"
WHERE
  "n"."organization_id" = $7
  AND "n"."estate_id" = $8
ORDER BY
  "n"."created_at",
  "n"."id";

-- navigators.extent
SELECT
  "s"."max_x" AS "x",
  "s"."max_y" AS "y"
FROM
  "navigator_shapes" AS "s"
WHERE
  "s"."organization_id" = $1
  AND "s"."frame_id" IN (
    SELECT
      "id"
    FROM
      "navigator_frames"
    WHERE
      "organization_id" = $2
      AND "navigator_id" = $3
  )
UNION ALL
SELECT
  "p"."x" AS "x",
  "p"."y" AS "y"
FROM
  "navigator_pois" AS "p"
WHERE
  "p"."organization_id" = $4
  AND "p"."frame_id" IN (
    SELECT
      "id"
    FROM
      "navigator_frames"
    WHERE
      "organization_id" = $5
      AND "navigator_id" = $6
  );

-- navigators.frame
SELECT
  json_build_object(
    'id',
    "f"."id",
    'angle',
    "f"."angle",
    'name',
    "f"."name",
    'imageUrl',
    cast($1 AS text) || "a"."storage_key",
    'isMarketingStop',
    "f"."is_marketing_stop",
    'highlightLabel',
    "f"."highlight_label",
    'assetId',
    "f"."asset_id",
    'asset',
    json_build_object(
      'id',
      "a"."id",
      'name',
      "a"."name",
      'src',
      cast($2 AS text) || "a"."storage_key",
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
                $3::text || a.storage_key || '-w' || (v ->> 'width'),
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
    ),
    'shapes',
    (
      SELECT
        coalesce(
          json_agg(
            json_build_object(
              'id',
              "s"."id",
              'name',
              "s"."name",
              'description',
              "s"."description",
              'referenceType',
              CASE
                WHEN s.apartment_id IS NULL THEN 'building'
                ELSE 'apartment'
              END,
              'referenceId',
              coalesce("s"."apartment_id", "s"."building_id"),
              'shape',
              "s"."shape",
              'createdAt',
              to_char(
                "s"."created_at" AT TIME ZONE 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
              )
            )
            ORDER BY
              "s"."position"
          ),
          '[]'::json
        ) AS "shapes"
      FROM
        "navigator_shapes" AS "s"
      WHERE
        "s"."organization_id" = $4
        AND "s"."frame_id" = "f"."id"
    ),
    'pois',
    (
      SELECT
        coalesce(
          json_agg(
            json_build_object(
              'id',
              "p"."id",
              'x',
              "p"."x",
              'y',
              "p"."y",
              'data',
              json_build_object(
                'type',
                "p"."type",
                'panoramaId',
                "p"."panorama_id",
                'startingPanoramaId',
                "p"."starting_panorama_id"
              ),
              'createdAt',
              to_char(
                "p"."created_at" AT TIME ZONE 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
              )
            )
            ORDER BY
              "p"."position"
          ),
          '[]'::json
        ) AS "pois"
      FROM
        "navigator_pois" AS "p"
      WHERE
        "p"."organization_id" = $5
        AND "p"."frame_id" = "f"."id"
    ),
    'createdAt',
    to_char(
      "f"."created_at" AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
    )
  ) AS "doc"
FROM
  "navigator_frames" AS "f"
  INNER JOIN "assets" AS "a" ON "a"."id" = "f"."asset_id"
WHERE
  "f"."organization_id" = $6
  AND "f"."id" = $7;

-- navigators.frameAt
SELECT
  *
FROM
  "navigator_frames"
WHERE
  "organization_id" = $1
  AND "navigator_id" = $2
  AND "angle" = $3;

-- navigators.frameShapes
SELECT
  (
    SELECT
      coalesce(
        json_agg(
          json_build_object(
            'id',
            "s"."id",
            'name',
            "s"."name",
            'description',
            "s"."description",
            'referenceType',
            CASE
              WHEN s.apartment_id IS NULL THEN 'building'
              ELSE 'apartment'
            END,
            'referenceId',
            coalesce("s"."apartment_id", "s"."building_id"),
            'shape',
            "s"."shape",
            'createdAt',
            to_char(
              "s"."created_at" AT TIME ZONE 'UTC',
              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
            )
          )
          ORDER BY
            "s"."position"
        ),
        '[]'::json
      ) AS "shapes"
    FROM
      "navigator_shapes" AS "s"
    WHERE
      "s"."organization_id" = $1
      AND "s"."frame_id" = "f"."id"
  ) AS "shapes"
FROM
  "navigator_frames" AS "f"
WHERE
  "f"."organization_id" = $2
  AND "f"."id" = $3;

-- navigators.frameSizes
SELECT
  "f"."angle",
  "a"."width",
  "a"."height"
FROM
  "navigator_frames" AS "f"
  INNER JOIN "assets" AS "a" ON "a"."id" = "f"."asset_id"
WHERE
  "f"."organization_id" = $1
  AND "f"."navigator_id" = $2
  AND "a"."width" IS NOT NULL
  AND "a"."height" IS NOT NULL
ORDER BY
  "f"."angle";

-- navigators.get
SELECT
  *
FROM
  "navigators"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- navigators.getFrame
SELECT
  *
FROM
  "navigator_frames"
WHERE
  "organization_id" = $1
  AND "navigator_id" = $2
  AND "id" = $3;

-- navigators.hasFrames
SELECT
  "id"
FROM
  "navigator_frames"
WHERE
  "organization_id" = $1
  AND "navigator_id" = $2
LIMIT
  $3;

-- navigators.hasNested
SELECT
  "id"
FROM
  "navigators"
WHERE
  "organization_id" = $1
  AND "parent_id" = $2
  AND "reference_id" = $3;

-- navigators.homesOf
SELECT
  "id",
  "name",
  "external_id",
  "status"
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
ORDER BY
  "name";

SELECT
  "id",
  "name"
FROM
  "buildings"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
ORDER BY
  "name";

-- navigators.insert
INSERT INTO
  "navigators" (
    "id",
    "organization_id",
    "estate_id",
    "parent_id",
    "reference_id",
    "reference_type",
    "type",
    "seo_title",
    "options"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, CAST($9 AS jsonb))
RETURNING
  *;

-- navigators.insertFrame
INSERT INTO
  "navigator_frames" (
    "id",
    "organization_id",
    "navigator_id",
    "asset_id",
    "angle",
    "name",
    "is_marketing_stop",
    "highlight_label"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8);

-- navigators.lock
SELECT
  *
FROM
  "navigators"
WHERE
  "organization_id" = $1
  AND "id" = $2
FOR UPDATE;

-- navigators.ofEstate
SELECT
  "id"
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
  AND "id" = ANY (CAST($3 AS UUID[]));

-- navigators.panoramasOf
SELECT
  "id"
FROM
  "panoramas"
WHERE
  "organization_id" = $1
  AND "id" = ANY (CAST($2 AS UUID[]));

-- navigators.pointEstateAt
UPDATE "estates"
SET
  "navigator_id" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3;

-- navigators.replacePois
DELETE FROM "navigator_pois"
WHERE
  "organization_id" = $1
  AND "frame_id" = $2;

INSERT INTO
  navigator_pois (
    id,
    organization_id,
    frame_id,
    position,
    x,
    y,
    type,
    panorama_id,
    starting_panorama_id
  )
SELECT
  p.id,
  $1,
  $2,
  p.position,
  p.x,
  p.y,
  p.type,
  p.panorama_id,
  p.starting_panorama_id
FROM
  json_to_recordset($3::json) AS p (
    id uuid,
    position integer,
    x double precision,
    y double precision,
    type text,
    panorama_id uuid,
    starting_panorama_id uuid
  );

-- navigators.replaceShapes
DELETE FROM "navigator_shapes"
WHERE
  "organization_id" = $1
  AND "frame_id" = $2;

INSERT INTO
  navigator_shapes (
    id,
    organization_id,
    frame_id,
    position,
    name,
    description,
    apartment_id,
    building_id,
    shape,
    max_x,
    max_y
  )
SELECT
  s.id,
  $1,
  $2,
  s.position,
  s.name,
  s.description,
  s.apartment_id,
  s.building_id,
  s.shape,
  s.max_x,
  s.max_y
FROM
  json_to_recordset($3::json) AS s (
    id uuid,
    position integer,
    name text,
    description text,
    apartment_id uuid,
    building_id uuid,
    shape text,
    max_x double precision,
    max_y double precision
  );

-- navigators.root
SELECT
  *
FROM
  "navigators"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
  AND "parent_id" IS NULL
ORDER BY
  "created_at",
  "id"
LIMIT
  $3;

-- navigators.update
UPDATE "navigators"
SET
  "seo_title" = $1,
  "options" = CAST($2 AS jsonb),
  "updated_at" = now()
WHERE
  "organization_id" = $3
  AND "id" = $4
RETURNING
  *;

-- navigators.updateFrame
UPDATE "navigator_frames"
SET
  "angle" = $1,
  "name" = $2,
  "updated_at" = now()
WHERE
  "organization_id" = $3
  AND "id" = $4;
