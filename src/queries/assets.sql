-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- assets.delete
DELETE FROM "assets"
WHERE
  "organization_id" = $1
  AND "id" = $2
RETURNING
  *;

-- assets.existingKeys
SELECT
  "storage_key"
FROM
  "assets"
WHERE
  "storage_key" = ANY (CAST($1 AS TEXT[]));

-- assets.finishImage
UPDATE "assets"
SET
  "width" = $1,
  "height" = $2,
  "has_location" = $3,
  "placeholder" = $4,
  "variants" = CAST($5 AS jsonb),
  "image_state" = $6
WHERE
  "organization_id" = $7
  AND "id" = $8
  AND "image_state" = $9
RETURNING
  "id";

-- assets.get
SELECT
  "a".*
FROM
  "assets" AS "a"
WHERE
  "a"."organization_id" = $1
  AND "a"."id" = $2;

-- assets.insert
WITH
  "settled" AS (
    DELETE FROM "storage_intents"
    WHERE
      "id" = $1
  )
INSERT INTO
  "assets" (
    "id",
    "organization_id",
    "name",
    "mime_type",
    "size_bytes",
    "storage_key",
    "sha256",
    "image_state"
  )
VALUES
  ($2, $3, $4, $5, $6, $7, $8, $9)
RETURNING
  *;

-- assets.list
SELECT
  count(*) AS "n"
FROM
  (
    SELECT
      "a".*
    FROM
      "assets" AS "a"
    WHERE
      "a"."organization_id" = $1
      AND (
        EXISTS (
          SELECT
            1
          FROM
            apartments ap
          WHERE
            ap.organization_id = a.organization_id
            AND ap.assets_ids @> jsonb_build_array(a.id::text)
        )
        OR EXISTS (
          SELECT
            1
          FROM
            "gallery_items" c
            JOIN addon_states s ON s.estate_id = c.estate_id
            AND s.kind = 'gallery'
            AND s.enabled
          WHERE
            c.organization_id = a.organization_id
            AND c.asset_id = a.id
        )
        OR EXISTS (
          SELECT
            1
          FROM
            "investment_files" c
            JOIN addon_states s ON s.estate_id = c.estate_id
            AND s.kind = 'investment'
            AND s.enabled
          WHERE
            c.organization_id = a.organization_id
            AND c.asset_id = a.id
        )
        OR EXISTS (
          SELECT
            1
          FROM
            "downloads_items" c
            JOIN addon_states s ON s.estate_id = c.estate_id
            AND s.kind = 'downloads'
            AND s.enabled
          WHERE
            c.organization_id = a.organization_id
            AND c.asset_id = a.id
        )
        OR EXISTS (
          SELECT
            1
          FROM
            map_configs m
            JOIN addon_states s ON s.estate_id = m.estate_id
            AND s.kind = 'map'
            AND s.enabled
          WHERE
            m.organization_id = a.organization_id
            AND m.logo_asset_id = a.id
        )
        OR EXISTS (
          SELECT
            1
          FROM
            navigator_frames f
          WHERE
            f.organization_id = a.organization_id
            AND f.asset_id = a.id
        )
      )
      AND "a"."mime_type" LIKE $2
      AND NOT (
        EXISTS (
          SELECT
            "ap"."id"
          FROM
            "apartments" AS "ap"
          WHERE
            "ap"."organization_id" = "a"."organization_id"
            AND ap.assets_ids @> jsonb_build_array(a.id::text)
        )
        OR EXISTS (
          SELECT
            "g"."id"
          FROM
            "gallery_items" AS "g"
          WHERE
            "g"."organization_id" = "a"."organization_id"
            AND "g"."asset_id" = "a"."id"
        )
        OR EXISTS (
          SELECT
            "f"."id"
          FROM
            "investment_files" AS "f"
          WHERE
            "f"."organization_id" = "a"."organization_id"
            AND "f"."asset_id" = "a"."id"
        )
        OR EXISTS (
          SELECT
            "d"."id"
          FROM
            "downloads_items" AS "d"
          WHERE
            "d"."organization_id" = "a"."organization_id"
            AND "d"."asset_id" = "a"."id"
        )
        OR EXISTS (
          SELECT
            "m"."estate_id"
          FROM
            "map_configs" AS "m"
          WHERE
            "m"."organization_id" = "a"."organization_id"
            AND "m"."logo_asset_id" = "a"."id"
        )
        OR EXISTS (
          SELECT
            "nf"."id"
          FROM
            "navigator_frames" AS "nf"
          WHERE
            "nf"."organization_id" = "a"."organization_id"
            AND "nf"."asset_id" = "a"."id"
        )
      )
  ) AS "m";

SELECT
  "a".*
FROM
  "assets" AS "a"
WHERE
  "a"."organization_id" = $1
  AND (
    EXISTS (
      SELECT
        1
      FROM
        apartments ap
      WHERE
        ap.organization_id = a.organization_id
        AND ap.assets_ids @> jsonb_build_array(a.id::text)
    )
    OR EXISTS (
      SELECT
        1
      FROM
        "gallery_items" c
        JOIN addon_states s ON s.estate_id = c.estate_id
        AND s.kind = 'gallery'
        AND s.enabled
      WHERE
        c.organization_id = a.organization_id
        AND c.asset_id = a.id
    )
    OR EXISTS (
      SELECT
        1
      FROM
        "investment_files" c
        JOIN addon_states s ON s.estate_id = c.estate_id
        AND s.kind = 'investment'
        AND s.enabled
      WHERE
        c.organization_id = a.organization_id
        AND c.asset_id = a.id
    )
    OR EXISTS (
      SELECT
        1
      FROM
        "downloads_items" c
        JOIN addon_states s ON s.estate_id = c.estate_id
        AND s.kind = 'downloads'
        AND s.enabled
      WHERE
        c.organization_id = a.organization_id
        AND c.asset_id = a.id
    )
    OR EXISTS (
      SELECT
        1
      FROM
        map_configs m
        JOIN addon_states s ON s.estate_id = m.estate_id
        AND s.kind = 'map'
        AND s.enabled
      WHERE
        m.organization_id = a.organization_id
        AND m.logo_asset_id = a.id
    )
    OR EXISTS (
      SELECT
        1
      FROM
        navigator_frames f
      WHERE
        f.organization_id = a.organization_id
        AND f.asset_id = a.id
    )
  )
  AND "a"."mime_type" LIKE $2
  AND NOT (
    EXISTS (
      SELECT
        "ap"."id"
      FROM
        "apartments" AS "ap"
      WHERE
        "ap"."organization_id" = "a"."organization_id"
        AND ap.assets_ids @> jsonb_build_array(a.id::text)
    )
    OR EXISTS (
      SELECT
        "g"."id"
      FROM
        "gallery_items" AS "g"
      WHERE
        "g"."organization_id" = "a"."organization_id"
        AND "g"."asset_id" = "a"."id"
    )
    OR EXISTS (
      SELECT
        "f"."id"
      FROM
        "investment_files" AS "f"
      WHERE
        "f"."organization_id" = "a"."organization_id"
        AND "f"."asset_id" = "a"."id"
    )
    OR EXISTS (
      SELECT
        "d"."id"
      FROM
        "downloads_items" AS "d"
      WHERE
        "d"."organization_id" = "a"."organization_id"
        AND "d"."asset_id" = "a"."id"
    )
    OR EXISTS (
      SELECT
        "m"."estate_id"
      FROM
        "map_configs" AS "m"
      WHERE
        "m"."organization_id" = "a"."organization_id"
        AND "m"."logo_asset_id" = "a"."id"
    )
    OR EXISTS (
      SELECT
        "nf"."id"
      FROM
        "navigator_frames" AS "nf"
      WHERE
        "nf"."organization_id" = "a"."organization_id"
        AND "nf"."asset_id" = "a"."id"
    )
  )
ORDER BY
  "a"."created_at" DESC,
  "a"."id" DESC
LIMIT
  $3
OFFSET
  $4;

-- assets.ownedIds
SELECT
  "id"
FROM
  "assets"
WHERE
  "organization_id" = $1
  AND "id" = ANY (CAST($2 AS UUID[]));

-- assets.pendingImages
SELECT
  "organization_id",
  "id"
FROM
  "assets"
WHERE
  "image_state" = $1
ORDER BY
  "created_at",
  "id"
LIMIT
  $2;

-- assets.usage
SELECT
  "id"
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND assets_ids @> jsonb_build_array($2::text)
ORDER BY
  "id";

SELECT
  "id"
FROM
  "gallery_items"
WHERE
  "organization_id" = $1
  AND "asset_id" = $2
  AND EXISTS (
    SELECT
      1
    FROM
      addon_states s
    WHERE
      s.estate_id = "gallery_items".estate_id
      AND s.kind = $3
      AND s.enabled
  )
ORDER BY
  "id";

SELECT
  "id"
FROM
  "investment_files"
WHERE
  "organization_id" = $1
  AND "asset_id" = $2
  AND EXISTS (
    SELECT
      1
    FROM
      addon_states s
    WHERE
      s.estate_id = "investment_files".estate_id
      AND s.kind = $3
      AND s.enabled
  )
ORDER BY
  "id";

SELECT
  "id"
FROM
  "downloads_items"
WHERE
  "organization_id" = $1
  AND "asset_id" = $2
  AND EXISTS (
    SELECT
      1
    FROM
      addon_states s
    WHERE
      s.estate_id = "downloads_items".estate_id
      AND s.kind = $3
      AND s.enabled
  )
ORDER BY
  "id";

SELECT
  "estate_id" AS "id"
FROM
  "map_configs"
WHERE
  "organization_id" = $1
  AND "logo_asset_id" = $2
  AND EXISTS (
    SELECT
      1
    FROM
      addon_states s
    WHERE
      s.estate_id = "map_configs".estate_id
      AND s.kind = $3
      AND s.enabled
  )
ORDER BY
  "estate_id";

SELECT
  "id"
FROM
  "navigator_frames"
WHERE
  "organization_id" = $1
  AND "asset_id" = $2
ORDER BY
  "id";

-- assets.usageCounts
SELECT
  "a"."id" AS "asset_id",
  'apartments' AS "kind",
  "ap"."estate_id",
  count(*)::int AS "n"
FROM
  "apartments" AS "ap"
  INNER JOIN "assets" AS "a" ON "a"."organization_id" = "ap"."organization_id"
  AND ap.assets_ids @> jsonb_build_array(a.id::text)
WHERE
  "ap"."organization_id" = $1
  AND "a"."id" = ANY (CAST($2 AS UUID[]))
GROUP BY
  "a"."id",
  "ap"."estate_id"
UNION ALL
SELECT
  "asset_id",
  $3::text AS "kind",
  "estate_id",
  count(*)::int AS "n"
FROM
  "gallery_items"
WHERE
  "organization_id" = $4
  AND "asset_id" = ANY (CAST($5 AS UUID[]))
GROUP BY
  "asset_id",
  "estate_id"
UNION ALL
SELECT
  "asset_id",
  $6::text AS "kind",
  "estate_id",
  count(*)::int AS "n"
FROM
  "investment_files"
WHERE
  "organization_id" = $7
  AND "asset_id" = ANY (CAST($8 AS UUID[]))
GROUP BY
  "asset_id",
  "estate_id"
UNION ALL
SELECT
  "asset_id",
  $9::text AS "kind",
  "estate_id",
  count(*)::int AS "n"
FROM
  "downloads_items"
WHERE
  "organization_id" = $10
  AND "asset_id" = ANY (CAST($11 AS UUID[]))
GROUP BY
  "asset_id",
  "estate_id"
UNION ALL
SELECT
  logo_asset_id AS "asset_id",
  'mapLogo' AS "kind",
  "estate_id",
  count(*)::int AS "n"
FROM
  "map_configs"
WHERE
  "organization_id" = $12
  AND "logo_asset_id" = ANY (CAST($13 AS UUID[]))
GROUP BY
  "logo_asset_id",
  "estate_id"
UNION ALL
SELECT
  "f"."asset_id",
  'navigatorFrames' AS "kind",
  "nv"."estate_id",
  count(*)::int AS "n"
FROM
  "navigator_frames" AS "f"
  INNER JOIN "navigators" AS "nv" ON "nv"."id" = "f"."navigator_id"
  AND "nv"."organization_id" = "f"."organization_id"
WHERE
  "f"."organization_id" = $14
  AND "f"."asset_id" = ANY (CAST($15 AS UUID[]))
GROUP BY
  "f"."asset_id",
  "nv"."estate_id";
