-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- apartments.changes
SELECT
  *
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND change_xid < pg_snapshot_xmin(pg_current_snapshot())
  AND (change_xid, id) > (CAST($2 AS xid8), CAST($3 AS uuid))
ORDER BY
  "change_xid",
  "id"
LIMIT
  $4;

-- apartments.createWithBuilding
WITH
  outbox_ep AS (
    SELECT
      id,
      row_number() OVER (
        ORDER BY
          id
      ) AS n
    FROM
      webhook_endpoints
    WHERE
      organization_id = $1
      AND enabled
      AND events && CAST($2 AS TEXT[])
  ),
  b AS (
    SELECT
      *,
      xmin
    FROM
      buildings
    WHERE
      organization_id = $3
      AND id = $4
  ),
  a AS (
    INSERT INTO
      apartments (
        "organization_id",
        "id",
        "name",
        "is_promoted",
        "description",
        "status",
        "floor_plan_urls",
        "floor_plan_preview_urls",
        "floor_plan_3d_preview_urls",
        "price_cents",
        "is_price_net",
        "apartment_type",
        "apartment_data",
        "building_id",
        "estate_id",
        "show_price",
        "currency",
        "external_id",
        "last_synchronized_at",
        "source",
        "virtual_tour_url",
        "assets_ids",
        "panorama_id",
        "preferred_angles",
        "external_url",
        "price_change_history"
      )
    SELECT
      "r"."organization_id",
      "r"."id",
      "r"."name",
      "r"."is_promoted",
      "r"."description",
      "r"."status",
      "r"."floor_plan_urls",
      "r"."floor_plan_preview_urls",
      "r"."floor_plan_3d_preview_urls",
      "r"."price_cents",
      "r"."is_price_net",
      "r"."apartment_type",
      "r"."apartment_data",
      "r"."building_id",
      "b"."estate_id",
      "r"."show_price",
      "r"."currency",
      "r"."external_id",
      "r"."last_synchronized_at",
      "r"."source",
      "r"."virtual_tour_url",
      "r"."assets_ids",
      "r"."panorama_id",
      "r"."preferred_angles",
      "r"."external_url",
      "r"."price_change_history"
    FROM
      b,
      jsonb_populate_record(NULL::apartments, CAST($5 AS jsonb)) AS r
    WHERE
      (
        SELECT
          count(*)
        FROM
          outbox_ep
      ) <= $6
    RETURNING
      *
  ),
  outbox_ev AS (
    INSERT INTO
      webhook_events (id, organization_id, type, body)
    SELECT
      CAST($7 AS uuid),
      $8,
      $9,
      json_build_object(
        'type',
        CAST($10 AS text),
        'timestamp',
        CAST($11 AS text),
        'data',
        (
          SELECT
            row_to_json(r)
          FROM
            (
              SELECT
                "a"."id" AS "id",
                "a"."name" AS "name",
                "a"."is_promoted" AS "isPromoted",
                "a"."description" AS "description",
                "a"."status" AS "status",
                CASE
                  WHEN jsonb_array_length("a"."floor_plan_urls") = 0 THEN '[]'::json
                  ELSE json_strip_nulls("a"."floor_plan_urls"::json)
                END AS "floorPlanUrls",
                CASE
                  WHEN jsonb_array_length("a"."floor_plan_preview_urls") = 0 THEN '[]'::json
                  ELSE json_strip_nulls("a"."floor_plan_preview_urls"::json)
                END AS "floorPlanPreviewUrls",
                CASE
                  WHEN jsonb_array_length("a"."floor_plan_3d_preview_urls") = 0 THEN '[]'::json
                  ELSE json_strip_nulls("a"."floor_plan_3d_preview_urls"::json)
                END AS "floorPlan3dPreviewUrls",
                "a"."price_cents" AS "priceCents",
                "a"."is_price_net" AS "isPriceNet",
                "a"."apartment_type" AS "apartmentType",
                json_strip_nulls(
                  (
                    SELECT
                      row_to_json(o)
                    FROM
                      (
                        SELECT
                          "a"."apartment_data" -> 'area' AS "area",
                          "a"."apartment_data" -> 'areaUnit' AS "areaUnit",
                          "a"."apartment_data" -> 'terrace' AS "terrace",
                          "a"."apartment_data" -> 'terraces' AS "terraces",
                          "a"."apartment_data" -> 'balcony' AS "balcony",
                          "a"."apartment_data" -> 'balconies' AS "balconies",
                          "a"."apartment_data" -> 'bedrooms' AS "bedrooms",
                          "a"."apartment_data" -> 'rooms' AS "rooms",
                          "a"."apartment_data" -> 'bathrooms' AS "bathrooms",
                          "a"."apartment_data" -> 'floor' AS "floor",
                          "a"."apartment_data" -> 'garage' AS "garage",
                          "a"."apartment_data" -> 'storage' AS "storage",
                          "a"."apartment_data" -> 'category' AS "category",
                          "a"."apartment_data" -> 'priceAsterisk' AS "priceAsterisk",
                          "a"."apartment_data" -> 'exposures' AS "exposures",
                          "a"."apartment_data" -> 'floorHeight' AS "floorHeight",
                          "a"."apartment_data" -> 'hasDen' AS "hasDen"
                      ) AS o
                  )
                ) AS "apartmentData",
                "a"."building_id" AS "buildingId",
                "a"."estate_id" AS "estateId",
                "a"."show_price" AS "showPrice",
                "a"."currency" AS "currency",
                (
                  SELECT
                    row_to_json(r)
                  FROM
                    (
                      SELECT
                        "b"."id" AS "id",
                        "b"."estate_id" AS "estateId",
                        "b"."name" AS "name",
                        "b"."description" AS "description",
                        CASE
                          WHEN jsonb_array_length("b"."features") = 0 THEN '[]'::json
                          ELSE (
                            SELECT
                              (
                                '[' || string_agg(
                                  (
                                    SELECT
                                      row_to_json(o)
                                    FROM
                                      (
                                        SELECT
                                          "e"."value" -> 'name' AS "name",
                                          "e"."value" -> 'description' AS "description",
                                          "e"."value" -> 'type' AS "type"
                                      ) AS o
                                  )::text,
                                  ','
                                  ORDER BY
                                    e.ordinality
                                ) || ']'
                              )::json
                            FROM
                              jsonb_array_elements("b"."features") WITH ORDINALITY AS e
                          )
                        END AS "features",
                        "b"."source" AS "source",
                        to_char(
                          "b"."created_at" AT TIME ZONE 'UTC',
                          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                        ) AS "createdAt",
                        to_char(
                          "b"."updated_at" AT TIME ZONE 'UTC',
                          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                        ) AS "updatedAt"
                    ) AS r
                ) AS "building",
                "a"."external_id" AS "externalId",
                to_char(
                  "a"."last_synchronized_at" AT TIME ZONE 'UTC',
                  'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                ) AS "lastSynchronizedAt",
                "a"."source" AS "source",
                "a"."virtual_tour_url" AS "virtualTourUrl",
                CASE
                  WHEN jsonb_array_length("a"."assets_ids") = 0 THEN '[]'::json
                  ELSE json_strip_nulls("a"."assets_ids"::json)
                END AS "assetsIds",
                "a"."panorama_id" AS "panoramaId",
                CASE
                  WHEN jsonb_array_length("a"."preferred_angles") = 0 THEN '[]'::json
                  ELSE (
                    SELECT
                      (
                        '[' || string_agg(
                          (
                            SELECT
                              row_to_json(o)
                            FROM
                              (
                                SELECT
                                  "e"."value" -> 'navigatorId' AS "navigatorId",
                                  "e"."value" -> 'angle' AS "angle",
                                  "e"."value" -> 'source' AS "source"
                              ) AS o
                          )::text,
                          ','
                          ORDER BY
                            e.ordinality
                        ) || ']'
                      )::json
                    FROM
                      jsonb_array_elements("a"."preferred_angles") WITH ORDINALITY AS e
                  )
                END AS "preferredAngles",
                "a"."external_url" AS "externalUrl",
                CASE
                  WHEN jsonb_array_length("a"."price_change_history") = 0 THEN '[]'::json
                  ELSE (
                    SELECT
                      (
                        '[' || string_agg(
                          (
                            SELECT
                              row_to_json(o)
                            FROM
                              (
                                SELECT
                                  "e"."value" -> 'date' AS "date",
                                  "e"."value" -> 'priceCentsBefore' AS "priceCentsBefore",
                                  "e"."value" -> 'priceCentsAfter' AS "priceCentsAfter"
                              ) AS o
                          )::text,
                          ','
                          ORDER BY
                            e.ordinality
                        ) || ']'
                      )::json
                    FROM
                      jsonb_array_elements("a"."price_change_history") WITH ORDINALITY AS e
                  )
                END AS "priceChangeHistory",
                to_char(
                  "a"."created_at" AT TIME ZONE 'UTC',
                  'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                ) AS "createdAt",
                to_char(
                  "a"."updated_at" AT TIME ZONE 'UTC',
                  'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                ) AS "updatedAt"
            ) AS r
        ),
        'actor',
        CAST($12 AS json)
      )::text
    FROM
      a
      JOIN b ON b.id = a.building_id
    WHERE
      EXISTS (
        SELECT
          1
        FROM
          outbox_ep
      )
    RETURNING
      id
  ),
  outbox_d AS (
    INSERT INTO
      webhook_deliveries (
        id,
        organization_id,
        endpoint_id,
        event_id,
        attempt
      )
    SELECT
      (CAST($13 AS UUID[])) [e.n],
      $14,
      e.id,
      v.id,
      1
    FROM
      outbox_ep e,
      outbox_ev v
    RETURNING
      1
  )
SELECT
  a.id,
  to_char(
    "a"."last_synchronized_at" AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
  ) AS last_synchronized_at,
  to_char(
    "a"."created_at" AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
  ) AS created_at,
  to_char(
    "a"."updated_at" AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
  ) AS updated_at,
  CAST(b.xmin AS text) AS building_version,
  (
    SELECT
      count(*)
    FROM
      outbox_ep
  ) AS "outbox.subscribed",
  (
    SELECT
      count(*)
    FROM
      outbox_d
  ) AS "outbox.deliveries",
  (
    SELECT
      count(pg_notify ($15, ''))
    FROM
      (
        SELECT
          1
        FROM
          outbox_d
        LIMIT
          1
      ) AS x
  ) AS "outbox.notified"
FROM
  (
    SELECT
      1
  ) AS one
  LEFT JOIN a ON TRUE
  LEFT JOIN b ON b.id = a.building_id;

-- apartments.externalIdOwners
SELECT
  "id",
  "external_id"
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND "external_id" = ANY (CAST($2 AS TEXT[]));

-- apartments.get
SELECT
  *
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- apartments.getWithBuilding
SELECT
  "a".*,
  "b"."organization_id" AS "building.organization_id",
  "b"."id" AS "building.id",
  "b"."estate_id" AS "building.estate_id",
  "b"."name" AS "building.name",
  "b"."description" AS "building.description",
  "b"."features" AS "building.features",
  "b"."source" AS "building.source",
  "b"."created_at" AS "building.created_at",
  "b"."updated_at" AS "building.updated_at"
FROM
  "apartments" AS "a"
  INNER JOIN "buildings" AS "b" ON "b"."id" = "a"."building_id"
WHERE
  "a"."organization_id" = $1
  AND "a"."id" = $2;

-- apartments.insertMany
INSERT INTO
  "apartments" (
    "is_promoted",
    "status",
    "floor_plan_urls",
    "floor_plan_preview_urls",
    "floor_plan_3d_preview_urls",
    "is_price_net",
    "apartment_type",
    "apartment_data",
    "show_price",
    "assets_ids",
    "preferred_angles",
    "price_change_history",
    "id",
    "organization_id",
    "building_id",
    "estate_id",
    "name",
    "description",
    "price_cents",
    "currency",
    "external_id",
    "source",
    "last_synchronized_at",
    "virtual_tour_url",
    "panorama_id",
    "external_url"
  )
SELECT
  "is_promoted",
  "status",
  "floor_plan_urls",
  "floor_plan_preview_urls",
  "floor_plan_3d_preview_urls",
  "is_price_net",
  "apartment_type",
  "apartment_data",
  "show_price",
  "assets_ids",
  "preferred_angles",
  "price_change_history",
  "id",
  "organization_id",
  "building_id",
  "estate_id",
  "name",
  "description",
  "price_cents",
  "currency",
  "external_id",
  "source",
  "last_synchronized_at",
  "virtual_tour_url",
  "panorama_id",
  "external_url"
FROM
  jsonb_populate_recordset(NULL::apartments, $1::jsonb) AS "r"
RETURNING
  *;

-- apartments.listJson
SELECT
  c.n::text AS total,
  '{"count":' || c.n || ',"items":' || coalesce(
    (
      SELECT
        '[' || string_agg(p.doc::text, ',') || ']'
      FROM
        (
          (
            WITH
              "bj" AS MATERIALIZED (
                SELECT
                  "b"."id",
                  (
                    SELECT
                      row_to_json(r)
                    FROM
                      (
                        SELECT
                          "b"."id" AS "id",
                          "b"."estate_id" AS "estateId",
                          "b"."name" AS "name",
                          "b"."description" AS "description",
                          CASE
                            WHEN jsonb_array_length("b"."features") = 0 THEN '[]'::json
                            ELSE (
                              SELECT
                                (
                                  '[' || string_agg(
                                    (
                                      SELECT
                                        row_to_json(o)
                                      FROM
                                        (
                                          SELECT
                                            "e"."value" -> 'name' AS "name",
                                            "e"."value" -> 'description' AS "description",
                                            "e"."value" -> 'type' AS "type"
                                        ) AS o
                                    )::text,
                                    ','
                                    ORDER BY
                                      e.ordinality
                                  ) || ']'
                                )::json
                              FROM
                                jsonb_array_elements("b"."features") WITH ORDINALITY AS e
                            )
                          END AS "features",
                          "b"."source" AS "source",
                          to_char(
                            "b"."created_at" AT TIME ZONE 'UTC',
                            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                          ) AS "createdAt",
                          to_char(
                            "b"."updated_at" AT TIME ZONE 'UTC',
                            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                          ) AS "updatedAt"
                      ) AS r
                  ) AS "doc"
                FROM
                  "buildings" AS "b"
                WHERE
                  "b"."organization_id" = $1
                  AND "b"."estate_id" = $2
              )
            SELECT
              (
                SELECT
                  row_to_json(r)
                FROM
                  (
                    SELECT
                      "a"."id" AS "id",
                      "a"."name" AS "name",
                      "a"."is_promoted" AS "isPromoted",
                      "a"."description" AS "description",
                      "a"."status" AS "status",
                      CASE
                        WHEN jsonb_array_length("a"."floor_plan_urls") = 0 THEN '[]'::json
                        ELSE json_strip_nulls("a"."floor_plan_urls"::json)
                      END AS "floorPlanUrls",
                      CASE
                        WHEN jsonb_array_length("a"."floor_plan_preview_urls") = 0 THEN '[]'::json
                        ELSE json_strip_nulls("a"."floor_plan_preview_urls"::json)
                      END AS "floorPlanPreviewUrls",
                      CASE
                        WHEN jsonb_array_length("a"."floor_plan_3d_preview_urls") = 0 THEN '[]'::json
                        ELSE json_strip_nulls("a"."floor_plan_3d_preview_urls"::json)
                      END AS "floorPlan3dPreviewUrls",
                      "a"."price_cents" AS "priceCents",
                      "a"."is_price_net" AS "isPriceNet",
                      "a"."apartment_type" AS "apartmentType",
                      json_strip_nulls(
                        (
                          SELECT
                            row_to_json(o)
                          FROM
                            (
                              SELECT
                                "a"."apartment_data" -> 'area' AS "area",
                                "a"."apartment_data" -> 'areaUnit' AS "areaUnit",
                                "a"."apartment_data" -> 'terrace' AS "terrace",
                                "a"."apartment_data" -> 'terraces' AS "terraces",
                                "a"."apartment_data" -> 'balcony' AS "balcony",
                                "a"."apartment_data" -> 'balconies' AS "balconies",
                                "a"."apartment_data" -> 'bedrooms' AS "bedrooms",
                                "a"."apartment_data" -> 'rooms' AS "rooms",
                                "a"."apartment_data" -> 'bathrooms' AS "bathrooms",
                                "a"."apartment_data" -> 'floor' AS "floor",
                                "a"."apartment_data" -> 'garage' AS "garage",
                                "a"."apartment_data" -> 'storage' AS "storage",
                                "a"."apartment_data" -> 'category' AS "category",
                                "a"."apartment_data" -> 'priceAsterisk' AS "priceAsterisk",
                                "a"."apartment_data" -> 'exposures' AS "exposures",
                                "a"."apartment_data" -> 'floorHeight' AS "floorHeight",
                                "a"."apartment_data" -> 'hasDen' AS "hasDen"
                            ) AS o
                        )
                      ) AS "apartmentData",
                      "a"."building_id" AS "buildingId",
                      "a"."estate_id" AS "estateId",
                      "a"."show_price" AS "showPrice",
                      "a"."currency" AS "currency",
                      "bj"."doc" AS "building",
                      "a"."external_id" AS "externalId",
                      to_char(
                        "a"."last_synchronized_at" AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                      ) AS "lastSynchronizedAt",
                      "a"."source" AS "source",
                      "a"."virtual_tour_url" AS "virtualTourUrl",
                      CASE
                        WHEN jsonb_array_length("a"."assets_ids") = 0 THEN '[]'::json
                        ELSE json_strip_nulls("a"."assets_ids"::json)
                      END AS "assetsIds",
                      "a"."panorama_id" AS "panoramaId",
                      CASE
                        WHEN jsonb_array_length("a"."preferred_angles") = 0 THEN '[]'::json
                        ELSE (
                          SELECT
                            (
                              '[' || string_agg(
                                (
                                  SELECT
                                    row_to_json(o)
                                  FROM
                                    (
                                      SELECT
                                        "e"."value" -> 'navigatorId' AS "navigatorId",
                                        "e"."value" -> 'angle' AS "angle",
                                        "e"."value" -> 'source' AS "source"
                                    ) AS o
                                )::text,
                                ','
                                ORDER BY
                                  e.ordinality
                              ) || ']'
                            )::json
                          FROM
                            jsonb_array_elements("a"."preferred_angles") WITH ORDINALITY AS e
                        )
                      END AS "preferredAngles",
                      "a"."external_url" AS "externalUrl",
                      CASE
                        WHEN jsonb_array_length("a"."price_change_history") = 0 THEN '[]'::json
                        ELSE (
                          SELECT
                            (
                              '[' || string_agg(
                                (
                                  SELECT
                                    row_to_json(o)
                                  FROM
                                    (
                                      SELECT
                                        "e"."value" -> 'date' AS "date",
                                        "e"."value" -> 'priceCentsBefore' AS "priceCentsBefore",
                                        "e"."value" -> 'priceCentsAfter' AS "priceCentsAfter"
                                    ) AS o
                                )::text,
                                ','
                                ORDER BY
                                  e.ordinality
                              ) || ']'
                            )::json
                          FROM
                            jsonb_array_elements("a"."price_change_history") WITH ORDINALITY AS e
                        )
                      END AS "priceChangeHistory",
                      to_char(
                        "a"."created_at" AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                      ) AS "createdAt",
                      to_char(
                        "a"."updated_at" AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                      ) AS "updatedAt"
                  ) AS r
              ) AS "doc"
            FROM
              "apartments" AS "a"
              INNER JOIN "bj" ON "bj"."id" = "a"."building_id"
            WHERE
              "a"."organization_id" = $3
              AND "a"."estate_id" = $4
            ORDER BY
              lower(a.name) ASC NULLS LAST,
              a.id ASC
            LIMIT
              $5
            OFFSET
              $6
          )
        ) AS p
    ),
    '[]'
  ) || '}' AS body
FROM
  (
    (
      SELECT
        count(*) AS "n"
      FROM
        "apartments" AS "a"
      WHERE
        "a"."organization_id" = $7
        AND "a"."estate_id" = $8
    )
  ) AS c;

-- apartments.listStatement
SELECT
  c.n::text AS total,
  '{"count":' || c.n || ',"items":' || coalesce(
    (
      SELECT
        '[' || string_agg(p.doc::text, ',') || ']'
      FROM
        (
          (
            WITH
              "bj" AS MATERIALIZED (
                SELECT
                  "b"."id",
                  (
                    SELECT
                      row_to_json(r)
                    FROM
                      (
                        SELECT
                          "b"."id" AS "id",
                          "b"."estate_id" AS "estateId",
                          "b"."name" AS "name",
                          "b"."description" AS "description",
                          CASE
                            WHEN jsonb_array_length("b"."features") = 0 THEN '[]'::json
                            ELSE (
                              SELECT
                                (
                                  '[' || string_agg(
                                    (
                                      SELECT
                                        row_to_json(o)
                                      FROM
                                        (
                                          SELECT
                                            "e"."value" -> 'name' AS "name",
                                            "e"."value" -> 'description' AS "description",
                                            "e"."value" -> 'type' AS "type"
                                        ) AS o
                                    )::text,
                                    ','
                                    ORDER BY
                                      e.ordinality
                                  ) || ']'
                                )::json
                              FROM
                                jsonb_array_elements("b"."features") WITH ORDINALITY AS e
                            )
                          END AS "features",
                          "b"."source" AS "source",
                          to_char(
                            "b"."created_at" AT TIME ZONE 'UTC',
                            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                          ) AS "createdAt",
                          to_char(
                            "b"."updated_at" AT TIME ZONE 'UTC',
                            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                          ) AS "updatedAt"
                      ) AS r
                  ) AS "doc"
                FROM
                  "buildings" AS "b"
                WHERE
                  "b"."organization_id" = $1
                  AND "b"."estate_id" = $2
              )
            SELECT
              (
                SELECT
                  row_to_json(r)
                FROM
                  (
                    SELECT
                      "a"."id" AS "id",
                      "a"."name" AS "name",
                      "a"."is_promoted" AS "isPromoted",
                      "a"."description" AS "description",
                      "a"."status" AS "status",
                      CASE
                        WHEN jsonb_array_length("a"."floor_plan_urls") = 0 THEN '[]'::json
                        ELSE json_strip_nulls("a"."floor_plan_urls"::json)
                      END AS "floorPlanUrls",
                      CASE
                        WHEN jsonb_array_length("a"."floor_plan_preview_urls") = 0 THEN '[]'::json
                        ELSE json_strip_nulls("a"."floor_plan_preview_urls"::json)
                      END AS "floorPlanPreviewUrls",
                      CASE
                        WHEN jsonb_array_length("a"."floor_plan_3d_preview_urls") = 0 THEN '[]'::json
                        ELSE json_strip_nulls("a"."floor_plan_3d_preview_urls"::json)
                      END AS "floorPlan3dPreviewUrls",
                      "a"."price_cents" AS "priceCents",
                      "a"."is_price_net" AS "isPriceNet",
                      "a"."apartment_type" AS "apartmentType",
                      json_strip_nulls(
                        (
                          SELECT
                            row_to_json(o)
                          FROM
                            (
                              SELECT
                                "a"."apartment_data" -> 'area' AS "area",
                                "a"."apartment_data" -> 'areaUnit' AS "areaUnit",
                                "a"."apartment_data" -> 'terrace' AS "terrace",
                                "a"."apartment_data" -> 'terraces' AS "terraces",
                                "a"."apartment_data" -> 'balcony' AS "balcony",
                                "a"."apartment_data" -> 'balconies' AS "balconies",
                                "a"."apartment_data" -> 'bedrooms' AS "bedrooms",
                                "a"."apartment_data" -> 'rooms' AS "rooms",
                                "a"."apartment_data" -> 'bathrooms' AS "bathrooms",
                                "a"."apartment_data" -> 'floor' AS "floor",
                                "a"."apartment_data" -> 'garage' AS "garage",
                                "a"."apartment_data" -> 'storage' AS "storage",
                                "a"."apartment_data" -> 'category' AS "category",
                                "a"."apartment_data" -> 'priceAsterisk' AS "priceAsterisk",
                                "a"."apartment_data" -> 'exposures' AS "exposures",
                                "a"."apartment_data" -> 'floorHeight' AS "floorHeight",
                                "a"."apartment_data" -> 'hasDen' AS "hasDen"
                            ) AS o
                        )
                      ) AS "apartmentData",
                      "a"."building_id" AS "buildingId",
                      "a"."estate_id" AS "estateId",
                      "a"."show_price" AS "showPrice",
                      "a"."currency" AS "currency",
                      "bj"."doc" AS "building",
                      "a"."external_id" AS "externalId",
                      to_char(
                        "a"."last_synchronized_at" AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                      ) AS "lastSynchronizedAt",
                      "a"."source" AS "source",
                      "a"."virtual_tour_url" AS "virtualTourUrl",
                      CASE
                        WHEN jsonb_array_length("a"."assets_ids") = 0 THEN '[]'::json
                        ELSE json_strip_nulls("a"."assets_ids"::json)
                      END AS "assetsIds",
                      "a"."panorama_id" AS "panoramaId",
                      CASE
                        WHEN jsonb_array_length("a"."preferred_angles") = 0 THEN '[]'::json
                        ELSE (
                          SELECT
                            (
                              '[' || string_agg(
                                (
                                  SELECT
                                    row_to_json(o)
                                  FROM
                                    (
                                      SELECT
                                        "e"."value" -> 'navigatorId' AS "navigatorId",
                                        "e"."value" -> 'angle' AS "angle",
                                        "e"."value" -> 'source' AS "source"
                                    ) AS o
                                )::text,
                                ','
                                ORDER BY
                                  e.ordinality
                              ) || ']'
                            )::json
                          FROM
                            jsonb_array_elements("a"."preferred_angles") WITH ORDINALITY AS e
                        )
                      END AS "preferredAngles",
                      "a"."external_url" AS "externalUrl",
                      CASE
                        WHEN jsonb_array_length("a"."price_change_history") = 0 THEN '[]'::json
                        ELSE (
                          SELECT
                            (
                              '[' || string_agg(
                                (
                                  SELECT
                                    row_to_json(o)
                                  FROM
                                    (
                                      SELECT
                                        "e"."value" -> 'date' AS "date",
                                        "e"."value" -> 'priceCentsBefore' AS "priceCentsBefore",
                                        "e"."value" -> 'priceCentsAfter' AS "priceCentsAfter"
                                    ) AS o
                                )::text,
                                ','
                                ORDER BY
                                  e.ordinality
                              ) || ']'
                            )::json
                          FROM
                            jsonb_array_elements("a"."price_change_history") WITH ORDINALITY AS e
                        )
                      END AS "priceChangeHistory",
                      to_char(
                        "a"."created_at" AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                      ) AS "createdAt",
                      to_char(
                        "a"."updated_at" AT TIME ZONE 'UTC',
                        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
                      ) AS "updatedAt"
                  ) AS r
              ) AS "doc"
            FROM
              "apartments" AS "a"
              INNER JOIN "bj" ON "bj"."id" = "a"."building_id"
            WHERE
              "a"."organization_id" = $3
              AND "a"."estate_id" = $4
            ORDER BY
              lower(a.name) ASC NULLS LAST,
              a.id ASC
            LIMIT
              $5
            OFFSET
              $6
          )
        ) AS p
    ),
    '[]'
  ) || '}' AS body
FROM
  (
    (
      SELECT
        count(*) AS "n"
      FROM
        "apartments" AS "a"
      WHERE
        "a"."organization_id" = $7
        AND "a"."estate_id" = $8
    )
  ) AS c;

-- apartments.lockByExternalIds
SELECT
  *
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND "external_id" = ANY (CAST($2 AS TEXT[]))
ORDER BY
  "id"
FOR UPDATE;

-- apartments.lockByKeys
SELECT
  *
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND (
    "id" = ANY (CAST($2 AS UUID[]))
    OR "external_id" = ANY (CAST($3 AS TEXT[]))
  )
ORDER BY
  "id"
FOR UPDATE;

-- apartments.stampSynchronized
UPDATE apartments a
SET
  last_synchronized_at = r.at
FROM
  jsonb_to_recordset(CAST($1 AS jsonb)) AS r (id uuid, at timestamptz)
WHERE
  a.organization_id = $2
  AND a.id = r.id;

-- apartments.update
UPDATE "apartments"
SET
  "name" = $1,
  "price_cents" = $2,
  "updated_at" = now()
WHERE
  "organization_id" = $3
  AND "id" = $4
RETURNING
  *;

-- apartments.updateMany
UPDATE apartments a
SET
  "is_promoted" = r."is_promoted",
  "status" = r."status",
  "floor_plan_urls" = r."floor_plan_urls",
  "floor_plan_preview_urls" = r."floor_plan_preview_urls",
  "floor_plan_3d_preview_urls" = r."floor_plan_3d_preview_urls",
  "is_price_net" = r."is_price_net",
  "apartment_type" = r."apartment_type",
  "apartment_data" = r."apartment_data",
  "show_price" = r."show_price",
  "assets_ids" = r."assets_ids",
  "preferred_angles" = r."preferred_angles",
  "price_change_history" = r."price_change_history",
  "building_id" = r."building_id",
  "estate_id" = r."estate_id",
  "name" = r."name",
  "description" = r."description",
  "price_cents" = r."price_cents",
  "currency" = r."currency",
  "external_id" = r."external_id",
  "source" = r."source",
  "last_synchronized_at" = r."last_synchronized_at",
  "virtual_tour_url" = r."virtual_tour_url",
  "panorama_id" = r."panorama_id",
  "external_url" = r."external_url",
  updated_at = now()
FROM
  jsonb_populate_recordset(NULL::apartments, CAST($1 AS jsonb)) r
WHERE
  a.organization_id = $2
  AND a.id = r.id
RETURNING
  a.*;

-- apartments.versionedBuilding
SELECT
  "b".*,
  CAST(b.xmin AS text) AS "version"
FROM
  "buildings" AS "b"
WHERE
  "b"."organization_id" = $1
  AND "b"."id" = $2;
