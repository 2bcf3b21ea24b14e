import type { MapDocument } from './schemas.js';

/** Mean Earth radius (IUGG), the usual radius for haversine distances. */
export const EARTH_RADIUS_METERS = 6_371_008.8;

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres between two points (haversine). */
export function haversineMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** "350 m" under a kilometre (rounded to 10 m), "1.2 km" from there on (one decimal). */
export function distanceLabel(meters: number): string {
  const rounded = Math.round(meters / 10) * 10;
  if (rounded < 1000) return `${rounded} m`;
  return `${(meters / 1000).toFixed(1)} km`;
}

export const TILE_STYLES = ['VOYAGER', 'VOYAGER_NOLABELS', 'POSITRON', 'GRAY_CANVAS', 'DARK_MATTER', 'OSM', 'SATELLITE', 'HUMANITARIAN'] as const;
export type TileStyle = (typeof TILE_STYLES)[number];

export const POI_CATEGORIES = ['TRANSIT', 'SHOPPING', 'EDUCATION', 'HEALTHCARE', 'FOOD', 'PARKS', 'ENTERTAINMENT', 'SERVICES', 'LANDMARK', 'OTHER'] as const;

export type Tiles = NonNullable<MapDocument['tiles']>;

const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
const CARTO_ATTRIBUTION = `${OSM_ATTRIBUTION} &copy; <a href="https://carto.com/attributions">CARTO</a>`;
const carto = (style: string): Tiles => ({
  urlTemplate: `https://{s}.basemaps.cartocdn.com/rastertiles/${style}/{z}/{x}/{y}{r}.png`,
  attribution: CARTO_ATTRIBUTION,
  maxZoom: 20,
});

/** Leaflet-style raster tile sources for each style, with the attribution their terms require. */
export const TILES: Record<TileStyle, Tiles> = {
  VOYAGER: carto('voyager'),
  VOYAGER_NOLABELS: carto('voyager_nolabels'),
  POSITRON: carto('light_all'),
  DARK_MATTER: carto('dark_all'),
  GRAY_CANVAS: {
    urlTemplate: 'https://server.arcgisonline.com/ArcGIS/rest/services/Canvas/World_Light_Gray_Base/MapServer/tile/{z}/{y}/{x}',
    attribution: 'Tiles &copy; Esri &mdash; Esri, DeLorme, NAVTEQ',
    maxZoom: 16,
  },
  SATELLITE: {
    urlTemplate: 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}',
    attribution:
      'Tiles &copy; Esri &mdash; Source: Esri, i-cubed, USDA, USGS, AEX, GeoEye, Getmapping, Aerogrid, IGN, IGP, UPR-EGP, and the GIS User Community',
    maxZoom: 19,
  },
  OSM: { urlTemplate: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: OSM_ATTRIBUTION, maxZoom: 19 },
  HUMANITARIAN: {
    urlTemplate: 'https://{s}.tile.openstreetmap.fr/hot/{z}/{x}/{y}.png',
    attribution: `${OSM_ATTRIBUTION}, Tiles style by <a href="https://www.hotosm.org/">Humanitarian OpenStreetMap Team</a> hosted by <a href="https://openstreetmap.fr/">OpenStreetMap France</a>`,
    maxZoom: 19,
  },
};
